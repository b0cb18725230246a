// Package site is the model of one exported site: its pages (key, source
// file, output path, frontmatter, layout mode, the endpoint or data model
// an API page documents) and the navigation tree resolved from docs.json
// against the files of the source: divisions, sidebar groups and pages,
// reading order, each page's section, the labels above a page and the
// groups that list their entries. The facade builds it while it plans an
// export; the frame and the machine files read it, and change nothing.
//
// It knows docs.json's navigation (docsjson), the OpenAPI model a page
// points at (openapi) and language names (uitext). It knows nothing of
// HTML, rendering, links between pages, the bundle or the export that
// uses it: the pages of "openapi" entries come from the facade through
// Endpoints. Of the export's packages it imports only those three
// (depguard).
package site
