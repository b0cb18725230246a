// Package docsjson decodes a docs source's docs.json as the platform
// describes it: the settings, the navigation tree in all its forms,
// $ref to other JSON files of the source, the redirects, and a warning
// for every setting the static export leaves out. Its errors are
// InputErrors a docs author can act on, with the file and line.
//
// It reads files through the callback it is given and knows nothing of
// pages, HTML or bundles.
package docsjson
