// Package openapi is the model of the OpenAPI 3.0 and 3.1 documents of a
// docs source: ordered decoding of JSON and YAML, internal $ref
// resolution, operations and their endpoints (servers, parameters,
// security, bodies), schema views (allOf merged, types named, examples,
// the playground's starting bodies and form fields) and data-model
// references.
//
// It knows nothing of HTML, pages, navigation or docs.json: the API pages
// (internal/export) and the request samples (internal/export/samples)
// read this model. It bounds what one page may cost (SchemaBudget,
// ExampleBudget, MaxSchemaDepth) but never renders.
package openapi
