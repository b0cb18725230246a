// Package openapi is the model of the OpenAPI 3.0 and 3.1 documents of a
// docs source: ordered decoding of JSON and YAML, internal $ref
// resolution, operations and their endpoints (servers, parameters,
// security, bodies), schema views (allOf merged, types named, examples,
// the playground's starting bodies and form fields) and data-model
// references.
//
// It knows nothing of HTML, pages, navigation or docs.json: the facade,
// the API pages (apipages), the request samples (samples), the site model
// (site) and the machine files (machines) read this model. It bounds what one page may cost (SchemaBudget,
// ExampleBudget, MaxSchemaDepth) but never renders.
package openapi
