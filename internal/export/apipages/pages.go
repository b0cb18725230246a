package apipages

import (
	"fmt"
	"strings"
	"sync"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/highlight"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

// Pages writes the generated parts of the API pages of one export: the
// reference of an endpoint or a data model, its request samples and
// responses, the playground, and the playground and authentication of
// MDX API pages. It is safe for concurrent use by the render workers.
type Pages struct {
	api        *docsjson.Settings
	playground bool // the export has the playground feature
	locked     bool // air-gapped: the playground sends to the listed servers only
	warn       func(format string, args ...any)

	// Highlight is the export's highlighting budget; nil is none.
	Highlight *highlight.Budget

	refWarned sync.Map // spec problems already reported
}

// NewPages returns the API page writer of an export whose docs.json has
// the "api" block api. playground says whether the export has the
// playground feature, locked whether its playground may send only to the
// specs' servers (air-gapped). warn receives what the docs author should
// know; it must be safe for concurrent use.
func NewPages(api *docsjson.Settings, playground, locked bool, warn func(format string, args ...any)) *Pages {
	return &Pages{api: api, playground: playground, locked: locked, warn: warn}
}

// Page is what the writer needs of the page it writes for.
type Page struct {
	// Key, Out and File are the page's key, bundle path and source file.
	Key, Out, File string
	// Prefix leads from the page to the bundle root.
	Prefix markup.Prefix
	// Deprecated, Playground, API and AuthMethod are its frontmatter.
	Deprecated bool
	Playground string
	API        string
	AuthMethod string
	// Markdown renders a description with links resolved from the page.
	Markdown func(string) markup.HTML
	// Work bounds the schema expansion of the page, across every view of
	// it; nil is unbounded.
	Work *openapi.Work
	// Labels are the interface texts in the page's language; nil is
	// English.
	Labels *Labels
}

// warnRef formats a structured warning: a message and key-value details.
func (w *Pages) warnRef(msg string, kv ...any) {
	var b strings.Builder
	b.WriteString(msg)
	for i := 0; i+1 < len(kv); i += 2 {
		fmt.Fprintf(&b, "; %v: %v", kv[i], kv[i+1])
	}
	w.warn("%s", b.String())
}
