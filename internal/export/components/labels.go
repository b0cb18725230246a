package components

// Labels are the interface texts of a page in its language: those the
// components write (a field's pills and link, an Expandable's summary,
// the examples' titles) and those mdx writes around them (a code block's
// copy button, a heading's link; mdx.Labels is this type). The facade
// fills them from its translation table.
type Labels struct {
	Copy       string // the copy button of a code block
	AnchorLink string // the accessible name of a heading's link to itself
	// The pills of a <ParamField>/<ResponseField>: "required",
	// "deprecated" and "default" (followed by Colon and the value).
	Required, Deprecated, Default, Colon string
	// FieldLink names a field's link to itself; "{name}" is the field.
	FieldLink string
	// ExpandShow and ExpandHide are an <Expandable>'s summary, closed and
	// open; "{name}" is its title, Properties when it has none.
	ExpandShow, ExpandHide, Properties string
	// The titles of <RequestExample> and <ResponseExample>.
	RequestExample, ResponseExample string
}

// EnglishLabels are the labels of an English page.
var EnglishLabels = Labels{Copy: "Copy", AnchorLink: "Link to this section",
	Required: "required", Deprecated: "deprecated", Default: "default", Colon: ": ", FieldLink: "Link to {name}",
	ExpandShow: "Show {name}", ExpandHide: "Hide {name}", Properties: "properties",
	RequestExample: "Request example", ResponseExample: "Response example"}
