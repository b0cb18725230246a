package jsx

import (
	"context"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// testModules serves files from a map; Builtin writes <builtin-Name> so
// tests see where a platform component was rendered.
func testModules(files map[string]string, budget time.Duration) *Modules {
	fsys := fstest.MapFS{}
	for k, v := range files {
		fsys[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return NewModules(Options{
		Load: func(f string) (string, error) {
			b, err := fs.ReadFile(fsys, f)
			return string(b), err
		},
		ESM: func(s string) string { return s },
		Builtin: func(name string, attrs map[string]string) (markup.HTML, markup.HTML) {
			var b markup.Builder
			b.Markup("<builtin")
			b.Attr("name", name)
			b.Attr("title", attrs["title"])
			b.Markup(">")
			return b.Fragment(), markup.Const("</builtin>")
		},
		Builtins: []string{"Card", "Note", "Tree.Folder"},
		Budget:   budget,
	})
}

func render(t *testing.T, m *Modules, esm string, call Call, children string) (string, error) {
	t.Helper()
	p := m.NewPage(context.Background(), []Scope{{ESM: esm, Calls: []Call{call}}})
	defer p.Close()
	out, err := p.Render(0, 0, markup.Rendered(children), children == "")
	return out.String(), err
}

func TestRender_html(t *testing.T) {
	m := testModules(map[string]string{
		"snippets/card.jsx": `
import { useState, useEffect } from "react";
export const Box = ({ title, count = 1, children }) => {
  const [open] = useState(true);
  useEffect(() => { throw new Error("effects never run"); });
  return (
    <div className="box" style={{ marginTop: 8, opacity: 0.5, WebkitTransition: "none" }} data-open={open}>
      <h3 htmlFor="x">{title} &amp; {count * 2}</h3>
      <a href="javascript:alert(1)" onClick={() => 1}>bad</a>
      <a href="/guide">good</a>
      <img src="logo.png" alt="" />
      <script>{"alert(1)"}</script>
      <Card title="inner">{children}</Card>
      <>{[1, 2].map((i) => <span key={i}>{i}</span>)}</>
      <p dangerouslySetInnerHTML={{ __html: "<b>ok</b><img src=x onerror=alert(1)>" }} />
    </div>
  );
};`,
	}, time.Second)
	got, err := render(t, m, `import { Box } from "/snippets/card.jsx";`, Call{Name: "Box", Props: `{"title": "<T>", "count": (3)}`}, "<p>body</p>")
	if err != nil {
		t.Fatal(err)
	}
	want := `<div class="box" data-open="true" style="-webkit-transition:none;margin-top:8px;opacity:0.5">` +
		`<h3 for="x">&lt;T&gt; &amp; 6</h3><a>bad</a><a href="/guide">good</a><img alt="" src="logo.png">` +
		`<builtin name="Card" title="inner"><p>body</p></builtin><span>1</span><span>2</span>` +
		`<p><b>ok</b><img src="x"></p></div>`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestRender_failures(t *testing.T) {
	// The budget only has to stop the endless loop; 200 ms was spent
	// before the syntax error was reached at load 15, so it is a second.
	const budget = time.Second
	m := testModules(map[string]string{"snippets/bad.jsx": "export const Bad = ( => 1"}, budget)
	for name, c := range map[string]struct {
		esm, call, want string
	}{
		"throws":      {`export const T = () => { throw new Error("no data"); };`, "T", "Error: no data"},
		"window":      {`export const W = () => <p>{window.location.href}</p>;`, "W", "ReferenceError: window is not defined"},
		"require":     {`export const R = () => require("fs").readFileSync("/etc/passwd");`, "R", "unknown import fs"},
		"unknown":     {`import { X } from "lodash"; export const U = () => <X />;`, "U", "unknown import lodash"},
		"syntax":      {`import { Bad } from "/snippets/bad.jsx";`, "Bad", "snippets/bad.jsx:1"},
		"recursion":   {`export const D = () => D();`, "D", "nested deeper"},
		"loop":        {`export const L = () => { for (;;) {} };`, "L", "time budget"},
		"undefined":   {`export const N = () => <Nope />;`, "N", "Nope is not defined"},
		"huge string": {`export const S = () => "x".repeat(1 << 30);`, "S", "too large"},
	} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			_, err := render(t, m, c.esm, Call{Name: c.call, Props: "{}"}, "")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
			if d := time.Since(start); d > budget+3*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func TestRender_contextStops(t *testing.T) {
	m := testModules(nil, time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	p := m.NewPage(ctx, []Scope{{ESM: `export const L = () => { for (;;) {} };`, Calls: []Call{{Name: "L", Props: "{}"}}}})
	defer p.Close()
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := p.Render(0, 0, markup.HTML{}, true); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

// TestRender_concurrentPages: pages rendered in parallel share the
// compiled prelude and snippet modules (go test -race checks the sharing).
func TestRender_concurrentPages(t *testing.T) {
	m := testModules(map[string]string{"snippets/b.jsx": `export const B = ({ v }) => <b title={v}>{v}</b>;`}, time.Second)
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		go func() {
			got, err := render(t, m, `import { B } from "/snippets/b.jsx";`, Call{Name: "B", Props: `{"v": "1.0"}`}, "")
			if err == nil && got != `<b title="1.0">1.0</b>` {
				err = errors.New("got " + got)
			}
			errs <- err
		}()
	}
	for i := 0; i < 8; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
