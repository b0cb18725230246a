package export

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
)

// fanOutSpec is a small spec whose schemas fan out: every level has a
// property, a oneOf and an allOf of the level below, each twice. A page
// that expands it in full does about twice the work per level, so 40
// levels in 10 KB would take longer than anyone waits.
func fanOutSpec(levels int) string {
	var b strings.Builder
	b.WriteString(`{"openapi": "3.1.0", "info": {"title": "Fan", "version": "1"}, "servers": [{"url": "https://api.fan.test"}],
	  "paths": {"/fan": {"post": {"summary": "Fan out",
	    "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/L0"}}}},
	    "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/L0"}}}}}}}},
	  "components": {"schemas": {`)
	for i := range levels {
		next := fmt.Sprintf(`{"$ref": "#/components/schemas/L%d"}`, i+1)
		fmt.Fprintf(&b, `"L%d": {"type": "object", "properties": {"p%d": {"type": "string"}, "next": %s}, "oneOf": [%s, %s], "allOf": [%s, %s]},`,
			i, i, next, next, next, next, next)
	}
	fmt.Fprintf(&b, `"L%d": {"type": "string"}}}}`, levels)
	return b.String()
}

func fanOutSource(levels int) map[string]string {
	return map[string]string{
		"docs.json": `{"navigation": {"tabs": [{"tab": "API", "openapi": "fan.json"}]}}`,
		"fan.json":  fanOutSpec(levels),
	}
}

// TestExport_fanOutSpecIsBounded exports the fan-out spec at 40 levels
// (before the page work was bounded, 12 levels took 4 s and every level
// doubled it): the page is written, the schemas past the bound are shown
// by name with an ellipsis, and one warning names the operation.
func TestExport_fanOutSpecIsBounded(t *testing.T) {
	var warnings []string
	dir, _ := exportTo(t, Request{Source: mapFS(fanOutSource(40)), Kind: KindCloud, Warn: func(wrn Warning) { m := wrn.Message; warnings = append(warnings, m) }})
	page := readOut(t, dir, "api-reference/fan-out.html")
	if !strings.Contains(page, `<span class="field-type">L0 …</span>`) {
		t.Error("the endpoint page shows no schema cut short by name")
	}
	n := 0
	for _, w := range warnings {
		if strings.Contains(w, "fan.json POST /fan") && strings.Contains(w, "fan out past") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("want one warning naming fan.json POST /fan, got %d in %q", n, warnings)
	}
}

// countdown is a context whose Err turns to Canceled after a number of
// calls, wherever they come from: it stands for an export whose time
// limit or shutdown arrives in the middle of a page, without a clock.
type countdown struct {
	context.Context
	left atomic.Int64
}

func (c *countdown) Err() error {
	if c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestExport_pageStopsWhenCancelled cancels an export in the middle of
// rendering the fan-out page: the page gives up within a few hundred
// steps of its work (a few milliseconds) and the export fails with the
// context's error, where it used to render on until the page was done.
func TestExport_pageStopsWhenCancelled(t *testing.T) {
	ctx := &countdown{Context: context.Background()}
	ctx.left.Store(20)
	req := Request{Source: mapFS(fanOutSource(40)), Kind: KindCloud, Domain: "docs.example.com"}
	_, err := New(Options{Workers: 1}).Export(ctx, req, t.TempDir(), nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("export error = %v, want context.Canceled", err)
	}
	if left := ctx.left.Load(); left < -10 {
		t.Errorf("the context was asked %d more times after it was cancelled: the export went on working", -left)
	}
}

// amplifyingSpec is a small spec whose pages were huge: a schema with a
// long description and example that a hundred fields reach (ten
// properties of ten properties), on every operation. Steps do not see
// it (a hundred references), bytes do: 6 KB of spec made 2.2 MB pages.
func amplifyingSpec(ops int) string {
	big := strings.Repeat("lorem ipsum ", 170) // 2 KB
	var b strings.Builder
	b.WriteString(`{"openapi": "3.1.0", "info": {"title": "Amp", "version": "1"}, "servers": [{"url": "https://api.amp.test"}], "paths": {`)
	for i := range ops {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"/p%d": {"post": {"summary": "Op %d", "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/A"}}}},
		  "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/A"}}}}}}}`, i, i)
	}
	props := func(ref string) string {
		var p []string
		for i := range 10 {
			p = append(p, fmt.Sprintf(`"%s%d": {"$ref": "#/components/schemas/%s"}`, strings.ToLower(ref), i, ref))
		}
		return strings.Join(p, ", ")
	}
	fmt.Fprintf(&b, `}, "components": {"schemas": {"A": {"type": "object", "properties": {%s}}, "B": {"type": "object", "properties": {%s}},
	  "C": {"type": "string", "description": "%s", "example": "%s"}}}}`, props("B"), props("C"), big, big)
	return b.String()
}

// TestExport_amplifyingSpecIsBoundedPerPage: every endpoint page of the
// amplifying spec stays within its bound (the fields and examples, and
// the page's Markdown copy, each openapi.PageBytes, plus the page's
// frame), says on the page that the schema was too large to show in full,
// and the job warns once per operation.
func TestExport_amplifyingSpecIsBoundedPerPage(t *testing.T) {
	const ops = 3
	var warnings []string
	dir, _ := exportTo(t, Request{Source: mapFS(map[string]string{
		"docs.json": `{"navigation": {"tabs": [{"tab": "API", "openapi": "amp.json"}]}}`, "amp.json": amplifyingSpec(ops)}),
		Kind: KindCloud, Warn: func(wrn Warning) { m := wrn.Message; warnings = append(warnings, m) }})
	const bound = 2*openapi.PageBytes + 64<<10
	for i := range ops {
		page := readOut(t, dir, fmt.Sprintf("api-reference/op-%d.html", i))
		if len(page) > bound {
			t.Errorf("op-%d.html is %d bytes, bound %d", i, len(page), bound)
		}
		if !strings.Contains(page, "The schema is too large to show in full here.") {
			t.Errorf("op-%d.html does not say it was truncated", i)
		}
		md := readOut(t, dir, fmt.Sprintf("api-reference/op-%d.md", i))
		if len(md) > openapi.PageBytes+4<<10 || !strings.Contains(md, "_Truncated:") {
			t.Errorf("op-%d.md is %d bytes (bound %d) or does not say it was truncated", i, len(md), openapi.PageBytes)
		}
	}
	n := 0
	for _, w := range warnings {
		if strings.Contains(w, "amp.json POST /p") && strings.Contains(w, "left out") {
			n++
		}
	}
	if n != ops {
		t.Errorf("want one warning per operation, got %d in %q", n, warnings)
	}
}
