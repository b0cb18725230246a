// Package mdx turns one MDX or Markdown page into HTML: the MDX
// preprocessor (imports, snippets, comments, JSX tags and style objects),
// the platform's components (drawn by internal/export/components from the
// tags mdx parses), the custom components a docs source writes
// in JSX (evaluated by internal/export/jsx), the bounds that keep hostile
// Markdown linear to render, goldmark with code blocks (their title bar
// and copy button) and heading anchors, and the scan of a page's
// ParamField declarations.
//
// It writes HTML through internal/export/markup only, and leaves the
// highlighting of code to internal/export/highlight: it never tokenises
// code itself. It knows nothing of docs.json, navigation, other pages,
// OpenAPI specs, links between pages or bundles: the facade
// (internal/export) resolves links and assembles pages around what this
// package renders.
package mdx
