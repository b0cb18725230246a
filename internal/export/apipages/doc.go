// Package apipages writes the generated parts of API pages: the
// reference of an endpoint (parameters, bodies, callbacks, responses) or
// of a data model, the request samples in their code group, the "Try it"
// playground's request model, and the playground and authentication of
// MDX API pages (frontmatter "api"), following the "api" settings of
// docs.json (docsjson.Settings).
//
// It reads the spec through internal/export/openapi and the request
// samples through internal/export/samples, renders Markdown descriptions
// through the callback a Page carries (it takes only types from
// internal/export/mdx: headings, labels, ParamField), draws field links
// through internal/export/components and samples through
// internal/export/highlight, and writes the rest through
// internal/export/markup. It knows nothing of navigation,
// other pages, links, bundles or the page frame around what it writes;
// the facade (internal/export) places its output in the page. Its
// interface text comes from the facade as Labels, in the page's language.
package apipages
