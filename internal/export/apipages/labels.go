package apipages

import (
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
)

// Labels are the interface texts of the API pages and their playground
// in the page's language. The package writes no interface text of its
// own: the facade fills Labels from its translation table, and a page
// without them (Page.Labels nil) is English. In the fields that take a
// value, "{n}", "{name}" and "{code}" stand for it.
type Labels struct {
	// Section titles of the reference.
	Authorizations, PathParams, QueryParams, Headers, Cookies, Body string
	Callbacks, Responses, Attributes, Example                       string
	// The pills and notes of a field.
	Required, Deprecated, ReadOnly, WriteOnly, Default string
	ShowChildren, OneOf, AnyOf, Options                string
	Option                                             string // "{n}": the option's number
	Recursive                                          string // "{name}": the schema's name
	TooLarge                                           string
	// The rest of an endpoint page.
	Server, Or, Expected, TryIt, Close, Authorization string
	ExampleOf                                         string // "{code}": the response status
	// Colon follows a label before its value (": ", " : " in French).
	Colon string
	// Bearer and Basic describe those credentials, in Markdown.
	Bearer, Basic string
	// Code are the labels of code blocks and headings.
	Code mdx.Labels
	// Playground are the texts playground.js writes, by its keys; the
	// script keeps its English for a key this lacks, and nil (English)
	// adds nothing to the page.
	Playground map[string]string
}

// EnglishLabels are the labels of an English page.
var EnglishLabels = Labels{
	Authorizations: "Authorizations", PathParams: "Path Parameters", QueryParams: "Query Parameters", Headers: "Headers",
	Cookies: "Cookies", Body: "Body", Callbacks: "Callbacks", Responses: "Responses", Attributes: "Attributes", Example: "Example",
	Required: "required", Deprecated: "deprecated", ReadOnly: "read-only", WriteOnly: "write-only", Default: "default",
	ShowChildren: "Show child attributes", OneOf: "One of", AnyOf: "Any of", Options: "Available options", Option: "Option {n}",
	Recursive: "Recursive: the same schema as {name} above.", TooLarge: "The schema is too large to show in full here.",
	Server: "Server", Or: "or", Expected: "Expected responses", TryIt: "Try it", Close: "Close", Authorization: "Authorization",
	ExampleOf: "Example of the {code} response", Colon: ": ",
	Bearer: "Bearer authentication header of the form `Bearer <token>`.",
	Basic:  "Basic authentication header of the form `Basic <base64(username:password)>`.",
	Code:   mdx.EnglishLabels,
}

// labels are the page's labels, English when it has none.
func (p Page) labels() *Labels {
	if p.Labels == nil {
		return &EnglishLabels
	}
	return p.Labels
}

// fill puts value in a label's placeholder ("{n}", "{name}", "{code}").
func fill(label, placeholder, value string) string {
	return strings.ReplaceAll(label, placeholder, value)
}

// split is a label around its placeholder, for markup on either side.
func split(label, placeholder string) (before, after string) {
	before, after, ok := strings.Cut(label, placeholder)
	if !ok {
		return label + " ", ""
	}
	return before, after
}
