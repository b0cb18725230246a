package export

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/components"
)

// componentsSource is a docs source made of custom components: a
// `mode: custom` home page built from two components of a .jsx snippet,
// a version badge of a .tsx snippet used 35 times, components with
// state, with platform components inside and with handlers and script,
// one that throws and one that never returns.
func componentsSource() string { return "testdata/components" }

// exportComponents exports the components fixture with a short component
// budget and returns the bundle directory and the warnings.
func exportComponents(t *testing.T, kind Kind) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	var mu sync.Mutex
	var warns []string
	_, err := New(Options{Limits: Limits{ComponentTime: 300 * time.Millisecond}}).Export(context.Background(),
		Request{Source: os.DirFS(componentsSource()), Kind: kind, Domain: "docs.example.com",
			Warn: func(wrn Warning) { m := wrn.Message; mu.Lock(); warns = append(warns, m); mu.Unlock() }}, dir, nil)
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	return dir, warns
}

// prose is the page's own content: what its MDX rendered.
func prose(t *testing.T, page string) string {
	t.Helper()
	i := strings.Index(page, `<div class="prose">`)
	j := strings.Index(page, `<nav class="pager"`)
	if i < 0 {
		t.Fatalf("no prose in page")
	}
	if j < i {
		j = len(page)
	}
	return page[i:j]
}

// TestCustomComponents_homePage: a `mode: custom` home page made of two
// components of a snippet renders their HTML, with props of every form
// (strings, an object literal, a number, a name the page exports) and the
// MDX body as children; a link a component writes is resolved like the
// page's own. Before components were evaluated the page was two empty
// <div class="component"> wrappers.
func TestCustomComponents_homePage(t *testing.T) {
	dir, _ := exportComponents(t, KindCloud)
	got := prose(t, readOut(t, dir, "index.html"))
	for _, want := range []string{
		`<section class="hero"><h1 class="hero-title">Light up your pipelines</h1>` +
			`<p class="hero-tagline">Lantern watches every build.</p>` +
			`<div class="hero-body"><p>Lantern is a <strong>build monitor</strong> for small teams.</p></div>` +
			`<a class="hero-cta" href="releases.html">Get started</a></section>`,
		`<div class="feature-grid" style="gap:16px;grid-template-columns:repeat(3, 1fr)">` +
			`<div class="feature"><h3>Alerts</h3><p>Know when a build breaks.</p></div>` +
			`<div class="feature"><h3>History</h3><p>Every run, kept for a year.</p></div>` +
			`<div class="feature"><h3>Badges</h3><p>Show the state of main anywhere.</p></div></div>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("home page lacks\n%s\ngot\n%s", want, got)
		}
	}
	if strings.Contains(got, `data-component=`) || strings.Contains(got, "<!--") {
		t.Errorf("a component or a marker is left unrendered:\n%s", got)
	}
}

// TestCustomComponents_versionBadges: a badge component of a .tsx snippet
// (TypeScript types and all) used 35 times, inline in a paragraph, in
// table cells and on a line of its own, renders every time.
func TestCustomComponents_versionBadges(t *testing.T) {
	dir, _ := exportComponents(t, KindCloud)
	got := prose(t, readOut(t, dir, "releases.html"))
	badge := regexp.MustCompile(`<span class="version-badge version-(stable|beta)" title="Available since (\d\.\d)">v(\d\.\d)</span>`)
	all := badge.FindAllStringSubmatch(got, -1)
	if len(all) != 35 {
		t.Fatalf("%d badges rendered, want 35:\n%s", len(all), got)
	}
	for _, m := range all {
		if m[2] != m[3] {
			t.Errorf("badge %q shows another version than its title", m[0])
		}
	}
	for _, want := range []string{
		`The newest is <span class="version-badge version-beta" title="Available since 3.4">v3.4</span>.</p>`,
		`<td>Build alerts</td>` + "\n" + `<td><span class="version-badge version-stable" title="Available since 1.0">v1.0</span></td>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("releases page lacks %s", want)
		}
	}
}

// TestCustomComponents_stateAndPlatformComponents: useState renders the
// initial state (effects never run), a platform component used inside a
// custom one renders exactly as it does in MDX, and components of .mdx
// snippets render, imported by name or used inside an inlined snippet.
func TestCustomComponents_stateAndPlatformComponents(t *testing.T) {
	dir, warns := exportComponents(t, KindCloud)
	got := prose(t, readOut(t, dir, "widgets.html"))
	if want := `<div class="counter"><button type="button">Builds watched: 3 (twice: 6)</button></div>`; !strings.Contains(got, want) {
		t.Errorf("counter: want %s in\n%s", want, got)
	}
	// The Card and the Note as MDX writes them (see components.Render).
	card := `<div class="card"><span class="card-icon">` + faIcon("rocket") + `</span>` +
		`<a class="card-title card-link" href="releases.html">Team</a><div class="card-body">` +
		`<p class="plan-price">$20 per month</p><p>Up to <strong>ten</strong> pipelines.</p>` +
		`<div class="callout callout-note" role="note"><span class="callout-icon">` + mdxIcon("info") + `</span>` +
		`<div class="callout-body">Prices exclude tax.</div></div></div></div>`
	if !strings.Contains(got, card) {
		t.Errorf("plan card: want\n%s\nin\n%s", card, got)
	}
	// A component exported by an .mdx snippet and imported by name, and
	// one an inlined snippet defines and gives the snippet's own prop.
	for _, want := range []string{
		`<strong class="shout">Loud and clear</strong>`, // one line: no paragraph, as in MDX
		`<p class="tier">Tier Enterprise, 50 seats</p>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("snippets: want %s in\n%s", want, got)
		}
	}
	if strings.Contains(got, "not part of what a page imports") {
		t.Errorf("the content of a snippet imported by name was inlined:\n%s", got)
	}
	for _, w := range warns {
		if strings.HasPrefix(w, "widgets.mdx") {
			t.Errorf("unexpected warning: %s", w)
		}
	}
}

// TestCustomComponents_noScript: an onClick handler, an on* attribute
// written as a string, a <script> element, a javascript: link and
// script in dangerouslySetInnerHTML all come out of a component as
// nothing; the rest of it stays.
func TestCustomComponents_noScript(t *testing.T) {
	for _, kind := range []Kind{KindCloud, KindAirGapped} {
		dir, _ := exportComponents(t, kind)
		page := readOut(t, dir, "widgets.html")
		got := prose(t, page)
		if want := `<div class="sneaky"><a>A link that runs nothing</a><span><em>kept</em> <b>bold</b></span></div>`; !strings.Contains(got, want) {
			t.Errorf("%s: want %s in\n%s", kind, want, got)
		}
		if bad := unsafeInPage(page); len(bad) > 0 {
			t.Errorf("%s: the page keeps %v", kind, bad)
		}
		if strings.Contains(strings.ToLower(got), "<script") || strings.Contains(got, "pwned") {
			t.Errorf("%s: script in the content:\n%s", kind, got)
		}
	}
}

// TestCustomComponents_failuresWarn: a component that throws, one that
// reads window and one that never returns show their MDX body (in the
// wrapper an unknown component gets) and each gives a warning naming the
// page and the component; the endless one is stopped by the page's time
// budget, and the export goes on.
func TestCustomComponents_failuresWarn(t *testing.T) {
	start := time.Now()
	dir, warns := exportComponents(t, KindCloud)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the export took %v: the endless component was not stopped", d)
	}
	broken := prose(t, readOut(t, dir, "broken.html"))
	for _, want := range []string{
		`<div class="component" data-component="Fragile">` + "\n<p>This text still shows.</p>\n</div>",
		`<p>After the broken ones.</p>`,
	} {
		if !strings.Contains(broken, want) {
			t.Errorf("broken page lacks %q:\n%s", want, broken)
		}
	}
	if spinner := prose(t, readOut(t, dir, "spinner.html")); !strings.Contains(spinner, "<p>Loading text shows instead.</p>") {
		t.Errorf("spinner page:\n%s", spinner)
	}
	for _, want := range []string{
		"broken.mdx: the component <Fragile> could not be rendered (Error: the release feed is empty)",
		"broken.mdx: the component <Browserish> could not be rendered (ReferenceError: window is not defined)",
		"spinner.mdx: the component <Spinner> could not be rendered (the page's components ran past their time budget of 300ms)",
	} {
		if !hasWarning(warns, want) {
			t.Errorf("no warning %q in\n%s", want, strings.Join(warns, "\n"))
		}
	}
}

func hasWarning(warns []string, prefix string) bool {
	for _, w := range warns {
		if strings.HasPrefix(w, prefix) {
			return true
		}
	}
	return false
}

func mdxIcon(name string) string { return components.Icon(name).String() }

// BenchmarkExport_customComponents exports the components source without
// its endless component (which spends the page's whole budget by design)
// and, for comparison, the fixture source, whose pages use none that run.
//
//	go test -run '^$' -bench BenchmarkExport_customComponents ./internal/export/
func BenchmarkExport_customComponents(b *testing.B) {
	src := fstest.MapFS{}
	err := fs.WalkDir(os.DirFS(componentsSource()), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == "spinner.mdx" {
			return err
		}
		data, err := os.ReadFile(filepath.Join(componentsSource(), p))
		src[p] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	for name, s := range map[string]fs.FS{"components": src, "fixture": fixture()} {
		// One engine for every export, as the server keeps one: its
		// evaluator processes are started by the first export and kept.
		b.Run(name, func(b *testing.B) {
			e := New(Options{})
			defer e.evaluators.Close()
			for b.Loop() {
				if _, err := e.Export(context.Background(), Request{Source: s, Domain: "d.example"}, b.TempDir(), nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(e.evaluators.Started()), "evaluators")
		})
		// A new engine for every export: each pays its processes' start.
		b.Run(name+"/cold", func(b *testing.B) {
			for b.Loop() {
				e := New(Options{})
				if _, err := e.Export(context.Background(), Request{Source: s, Domain: "d.example"}, b.TempDir(), nil); err != nil {
					b.Fatal(err)
				}
				e.evaluators.Close()
			}
		})
	}
}

// TestExpressions_builtinAttributes: an attribute of one of the platform's
// components written as a JavaScript expression is evaluated, with the
// page's exported constants in scope, and the component renders from the
// value. Before, href={"/guides/" + slug} became a literal link to the
// expression's text and cols={columns} a grid of "columns" columns.
func TestExpressions_builtinAttributes(t *testing.T) {
	src := mapFS(map[string]string{
		"docs.json": `{"navigation": {"pages": ["index", "guides/intro"]}}`,
		"index.mdx": "---\ntitle: Home\n---\n\nexport const slug = \"intro\";\nexport const columns = 1 + 1;\n\n" +
			"<CardGroup cols={columns}>\n<Card title={`Start ${slug}`} href={\"/guides/\" + slug}>\nRead the **intro**.\n</Card>\n<Card title=\"Plain\" href=\"/guides/intro\" />\n</CardGroup>\n\n" +
			"<Card title={missing.value}>Shown anyway</Card>\n",
		"guides/intro.mdx": "---\ntitle: Intro\n---\n\nHello\n",
	})
	var mu sync.Mutex
	var warns []string
	dir, _ := exportTo(t, Request{Source: src, Kind: KindCloud, Warn: func(wrn Warning) { s := wrn.Message; mu.Lock(); warns = append(warns, s); mu.Unlock() }})
	got := prose(t, readOut(t, dir, "index.html"))
	for _, want := range []string{`href="guides/intro.html"`, `Start intro`, `<strong>intro</strong>`, `Plain`, `Shown anyway`} {
		if !strings.Contains(got, want) {
			t.Errorf("index lacks %s:\n%s", want, got)
		}
	}
	for _, bad := range []string{`slug`, `columns`, "${"} {
		if strings.Contains(got, bad) {
			t.Errorf("the expression's text %q shows:\n%s", bad, got)
		}
	}
	if !strings.Contains(strings.Join(warns, "\n"), "index.mdx: an expression of <Card title={missing.value}> (line 15 of index.mdx) could not be evaluated (ReferenceError: missing is not defined)") {
		t.Errorf("a failing expression is not reported: %q", warns)
	}
	// The generic comparison: the same grid written with literals.
	lit := mapFS(map[string]string{
		"docs.json":        `{"navigation": {"pages": ["index", "guides/intro"]}}`,
		"index.mdx":        "---\ntitle: Home\n---\n\n<CardGroup cols={2}>\n<Card title=\"Start intro\" href=\"/guides/intro\">\nRead the **intro**.\n</Card>\n<Card title=\"Plain\" href=\"/guides/intro\" />\n</CardGroup>\n",
		"guides/intro.mdx": "---\ntitle: Intro\n---\n\nHello\n",
	})
	litDir, _ := exportTo(t, Request{Source: lit, Kind: KindCloud})
	want := norm(prose(t, readOut(t, litDir, "index.html")))
	want = strings.TrimSuffix(want, "</div>") // the prose's end: the evaluated page goes on
	if !strings.HasPrefix(norm(got), want) {
		t.Errorf("evaluated grid\n%s\ndiffers from the literal one\n%s", norm(got), want)
	}
}

// norm drops the white space between tags, which block rendering and
// evaluated components lay out differently.
func norm(s string) string { return betweenTags.ReplaceAllString(strings.TrimSpace(s), "><") }

var betweenTags = regexp.MustCompile(`>\s+<`)

// TestEngine_closeEndsEvaluators: an engine's evaluator processes outlive
// an export (the next one reuses them) and end when the engine closes,
// as the server's Close does on shutdown.
func TestEngine_closeEndsEvaluators(t *testing.T) {
	e := New(Options{Limits: Limits{ComponentTime: 300 * time.Millisecond}})
	if _, err := e.Export(context.Background(), Request{Source: os.DirFS(componentsSource()), Domain: "d.example"}, t.TempDir(), nil); err != nil {
		t.Fatal(err)
	}
	if e.evaluators.Running() == 0 {
		t.Fatal("no evaluator kept after the export")
	}
	e.Close()
	if n := e.evaluators.Running(); n != 0 {
		t.Errorf("%d evaluators still running after Close", n)
	}
}
