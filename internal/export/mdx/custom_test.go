package mdx

import (
	"bytes"
	"context"
	"errors"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// renderPage runs a page through the pipeline with custom components.
func renderPage(t *testing.T, src string, snippets map[string]string) (string, []string) {
	t.Helper()
	load := func(file string) (string, error) {
		if s, ok := snippets[file]; ok {
			return s, nil
		}
		return "", errors.New("no snippet " + file)
	}
	doc := PreprocessPage(src, load, "guides/page.mdx")
	var buf bytes.Buffer
	if _, err := ToHTML(NewMarkdown(), []byte(Bound(doc.Markdown)), &buf); err != nil {
		t.Fatal(err)
	}
	var warns []string
	out := newComponents(t, load).Expand(context.Background(), &doc, buf.Bytes(), func(_, m string) { warns = append(warns, m) })
	return string(out), warns
}

// TestPreprocessPage_withoutComponentsStartsNothing: a page that defines
// and imports no component (builtins, a default-imported .mdx snippet,
// prose that begins with "import") reads no module and starts no runtime.
func TestPreprocessPage_withoutComponentsStartsNothing(t *testing.T) {
	for _, src := range []string{
		"# Title\n\n<Note>Plain.</Note>\n",
		"import Greeting from '/snippets/greeting.mdx'\n\n<Greeting name=\"Ada\" />\n",
		"import and export are words too.\n\n```js\nexport const Fake = () => null;\n```\n\n<Fake />\n",
	} {
		loads := 0
		load := func(f string) (string, error) {
			loads++
			if f == "snippets/greeting.mdx" {
				return "Hello, {name}!", nil
			}
			return "", errors.New("no " + f)
		}
		doc := PreprocessPage(src, load, "page.mdx")
		if doc.HasComponents() {
			t.Errorf("%q: has components", src)
		}
		html := []byte("<p>x</p>")
		if got := newComponents(t, load).Expand(context.Background(), &doc, html, func(string, string) {}); &got[0] != &html[0] {
			t.Errorf("%q: Expand copied the page", src)
		}
		if strings.Contains(src, "greeting") && loads != 1 || !strings.Contains(src, "greeting") && loads != 0 {
			t.Errorf("%q: %d loads", src, loads)
		}
	}
}

// TestPreprocessPage_markersCannotBeForged: text that looks like the
// markers of the component pass stays as written: the nonce is not in it.
func TestPreprocessPage_markersCannotBeForged(t *testing.T) {
	src := "export const B = () => <b>real</b>;\n\nBefore <!--jsx 0 0--> <script>x</script> <!--/jsx 0 0-->\n\n<B />\n"
	got, warns := renderPage(t, src, nil)
	if !strings.Contains(got, "<b>real</b>") || len(warns) > 0 {
		t.Errorf("got %s, warnings %v", got, warns)
	}
	if !strings.Contains(got, "<!--jsx 0 0-->") {
		t.Errorf("the author's comment was taken for a marker: %s", got)
	}
}

// TestPreprocessPage_nesting: custom components nest in each other and in
// the platform's, and inline uses render inside their paragraph.
func TestPreprocessPage_nesting(t *testing.T) {
	src := `import { Box } from "./box.jsx";

export const Tag = ({ label }) => <code className="tag">{label}</code>;

<Box kind="outer">
  <Note>
    <Box kind="inner">
      Text with <Tag label="v1" /> inline.
    </Box>
  </Note>
</Box>
`
	got, warns := renderPage(t, src, map[string]string{
		"guides/box.jsx": `export const Box = ({ kind, children }) => <div className={"box-" + kind}>{children}</div>;`,
	})
	if len(warns) > 0 {
		t.Fatalf("warnings %v", warns)
	}
	want := `<div class="box-outer"><div class="callout callout-note" role="note">`
	inner := `<div class="box-inner"><p>Text with <code class="tag">v1</code> inline.</p></div>`
	if !strings.HasPrefix(strings.TrimSpace(got), want) || !strings.Contains(got, inner) {
		t.Errorf("got\n%s", got)
	}
}

func TestComponentNames(t *testing.T) {
	esm := `import Greeting from '/snippets/greeting.mdx'
import { Shout, helper } from "/snippets/shout.mdx";
import Hero, { Grid as FeatureGrid } from "./home.jsx";
import {
  Badge,
  Pill as VersionPill,
} from '/snippets/badge.tsx'
import * as All from "/snippets/all.jsx";
import { Button } from "@acme/ui";
export const Counter = () => null;
export function Plan() {}
export const features = [];
`
	var got []string
	for n := range componentNames(esm) {
		got = append(got, n)
	}
	sort.Strings(got)
	want := []string{"Badge", "Counter", "FeatureGrid", "Hero", "Plan", "Shout", "VersionPill"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestJSProps(t *testing.T) {
	for src, want := range map[string]string{
		`<Hero title="A &amp; B" n={3} cta={{ href: "/x" }} open>`: `{"title":"A \u0026 B","n":(3),"cta":({ href: "/x" }),"open":true,}`,
		`<Badge {...props} version='2.1' />`:                       `{...(props),"version":"2.1",}`,
		`<Tag label={} />`:                                         `{"label":undefined,}`,
		`<Plain>`:                                                  `{}`,
	} {
		if got := jsProps(src); got != want {
			t.Errorf("jsProps(%s) = %s, want %s", src, got, want)
		}
	}
}

// newComponents is NewComponents with the defaults, closed when the test ends.
func newComponents(t *testing.T, load func(string) (string, error)) *Components {
	c := NewComponents(load, 0, nil)
	t.Cleanup(c.Close)
	return c
}
