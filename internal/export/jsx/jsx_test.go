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
func testModules(t *testing.T, files map[string]string, budget time.Duration) *Modules {
	fsys := fstest.MapFS{}
	for k, v := range files {
		fsys[k] = &fstest.MapFile{Data: []byte(v)}
	}
	m := NewModules(Options{
		Load: func(f string) (string, error) {
			b, err := fs.ReadFile(fsys, f)
			return string(b), err
		},
		ESM: func(s string) string { return s },
		Builtin: func(name string, attrs map[string]string, rich map[string]markup.HTML) (markup.HTML, markup.HTML) {
			var b markup.Builder
			b.Markup("<builtin")
			b.Attr("name", name)
			b.Attr("title", attrs["title"])
			b.Markup(">")
			if h, ok := rich["title"]; ok {
				b.HTML(h)
			}
			return b.Fragment(), markup.Const("</builtin>")
		},
		Builtins: []string{"Card", "Note", "Tree.Folder"},
		Budget:   budget,
	})
	t.Cleanup(m.Close)
	return m
}

func render(t *testing.T, m *Modules, esm string, call Call, children string) (string, error) {
	t.Helper()
	p := m.NewPage(context.Background(), []Scope{{ESM: esm, Calls: []Call{call}}})
	defer p.Close()
	out, err := p.Render(0, 0, markup.Rendered(children), children == "")
	return out.String(), err
}

func TestRender_html(t *testing.T) {
	m := testModules(t, map[string]string{
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
	m := testModules(t, map[string]string{"snippets/bad.jsx": "export const Bad = ( => 1"}, budget)
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
	m := testModules(t, nil, time.Minute)
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
	m := testModules(t, map[string]string{"snippets/b.jsx": `export const B = ({ v }) => <b title={v}>{v}</b>;`}, time.Second)
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

// TestRender_boundsOutsideTheEngine: what the engine cannot interrupt
// (a regular expression that backtracks for ever, a huge typed array, a
// count given as a string) ends the page's components with a warning
// naming the bound, within the budget and a grace; the process that ran
// them is replaced and the next page renders. Before the evaluator ran in
// a process of its own, the regex held its worker for ever and the array
// took the server past a gigabyte.
func TestRender_boundsOutsideTheEngine(t *testing.T) {
	const budget = 2 * time.Second
	ev := NewEvaluators(EvaluatorOptions{Memory: 128 << 20, Processes: 1})
	t.Cleanup(ev.Close)
	m := NewModules(Options{
		Load: func(string) (string, error) { return "", errors.New("no files") },
		ESM:  func(s string) string { return s },
		Builtin: func(string, map[string]string, map[string]markup.HTML) (markup.HTML, markup.HTML) {
			return markup.HTML{}, markup.HTML{}
		},
		Budget:     budget,
		Evaluators: ev,
	})
	for _, c := range []struct {
		name, esm, want string
	}{
		{"regex", `export const C = () => <p>{String(/^(a|aa)+(?=b)c$/.test("a".repeat(60)))}</p>;`, "time budget of 2s"},
		{"typed array", `export const C = () => { const a = new Uint8Array(1 << 30); a.fill(1); return <p>{a.length}</p>; };`, "memory bound of 128 MiB"},
		{"array of strings", `export const C = () => { const a = []; for (;;) a.push("x".repeat(1 << 20) + a.length); };`, "memory bound of 128 MiB"},
		{"count as a string", `export const C = () => "x".repeat("100000000");`, "too large"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := ev.Started()
			start := time.Now()
			_, err := render(t, m, c.esm, Call{Name: "C", Props: "{}"}, "")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
			if d := time.Since(start); d > budget+killGrace+5*time.Second {
				t.Errorf("the page held its process %v", d)
			}
			got, err := render(t, m, `export const OK = () => <b>ok</b>;`, Call{Name: "OK", Props: "{}"}, "")
			if err != nil || got != "<b>ok</b>" {
				t.Fatalf("the next page: %q, %v", got, err)
			}
			if c.want != "too large" && ev.Started() == before {
				t.Errorf("the process that passed a bound was kept")
			}
		})
	}
}

// TestRender_hostUnreachable: the object through which the prelude loads
// modules is not a global, so a component cannot load a file of the
// source that nothing imports (and read its transpiled text).
func TestRender_hostUnreachable(t *testing.T) {
	m := testModules(t, map[string]string{"secret.jsx": `export const key = "s3cr3t";`}, time.Second)
	got, err := render(t, m, `export const H = () => <p>{typeof __host}{typeof globalThis.__host}</p>;`, Call{Name: "H", Props: "{}"}, "")
	if err != nil || got != "<p>undefinedundefined</p>" {
		t.Fatalf("got %q, %v", got, err)
	}
}

// TestRender_contextKillsNativeCall: a shutdown or an export's end stops a
// page stuck in a native call at once, not at the end of its budget.
func TestRender_contextKillsNativeCall(t *testing.T) {
	m := testModules(t, nil, time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	p := m.NewPage(ctx, []Scope{{ESM: `export const R = () => String(/^(a|aa)+(?=b)c$/.test("a".repeat(80)));`, Calls: []Call{{Name: "R", Props: "{}"}}}})
	defer p.Close()
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	if _, err := p.Render(0, 0, markup.HTML{}, true); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
}

// BenchmarkPage is one page with one component in an evaluator process
// that is already running: the cost per page of running components out
// of the server's process.
func BenchmarkPage(b *testing.B) {
	ev := NewEvaluators(EvaluatorOptions{Processes: 1})
	defer ev.Close()
	m := NewModules(Options{
		Load: func(string) (string, error) { return `export const B = ({ v }) => <b title={v}>{v}</b>;`, nil },
		ESM:  func(s string) string { return s },
		Builtin: func(string, map[string]string, map[string]markup.HTML) (markup.HTML, markup.HTML) {
			return markup.HTML{}, markup.HTML{}
		},
		Evaluators: ev,
	})
	for b.Loop() {
		p := m.NewPage(context.Background(), []Scope{{ESM: `import { B } from "/b.jsx";`, Calls: []Call{{Name: "B", Props: `{"v": "1.0"}`}, {Name: "B", Props: `{"v": "2.0"}`}}}})
		for i := range 2 {
			if _, err := p.Render(0, i, markup.HTML{}, true); err != nil {
				b.Fatal(err)
			}
		}
		p.Close()
	}
}

// TestRender_browserGlobals: the globals snippets assume at render time
// (issue: a snippet calling btoa failed) behave as in a browser.
func TestRender_browserGlobals(t *testing.T) {
	m := testModules(t, nil, 5*time.Second)
	for name, c := range map[string]struct{ expr, want string }{
		"btoa":            {`btoa("héllo")`, "aOlsbG8="},
		"atob":            {`atob(" aOls bG8 ")`, "héllo"},
		"btoa refuses":    {`(() => { try { return btoa("€"); } catch (e) { return e.message; } })()`, "InvalidCharacterError: btoa: the string has characters outside Latin-1"},
		"TextEncoder":     {`Array.from(new TextEncoder().encode("é€")).join(",")`, "195,169,226,130,172"},
		"TextDecoder":     {`new TextDecoder().decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0xc3, 0xa9]))`, "hé"},
		"round trip":      {`new TextDecoder().decode(new TextEncoder().encode("日本 ✓"))`, "日本 ✓"},
		"URL":             {`new URL("../b?x=1#h", "https://d.example/a/c").href`, "https://d.example/b?x=1#h"},
		"URLSearchParams": {`new URLSearchParams("a=1&b=two").get("b")`, "two"},
		"structuredClone": {`(() => { const a = { d: new Date(0), m: new Map([[1, [2]]]) }; a.self = a; const b = structuredClone(a); return [b !== a, b.self === b, b.d.getTime(), b.m.get(1)[0]].join(); })()`, "true,true,0,2"},
		"no window":       {`typeof window + typeof fetch + typeof setTimeout`, "undefinedundefinedundefined"},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := render(t, m, `export const G = () => <p>{`+c.expr+`}</p>;`, Call{Name: "G", Props: "{}"}, "")
			if err != nil {
				t.Fatal(err)
			}
			if want := "<p>" + markup.Escape(c.want) + "</p>"; got != want {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
}
