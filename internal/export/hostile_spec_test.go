package export

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
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
	dir, _ := exportTo(t, Request{Source: mapFS(fanOutSource(40)), Kind: KindCloud, Warn: func(m string) { warnings = append(warnings, m) }})
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
