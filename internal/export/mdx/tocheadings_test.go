package mdx

import (
	"bytes"
	"slices"
	"testing"
)

// TestWithComponentHeadings_bytes: only the id of a renumbered component
// heading changes; the bytes around it, odd markup included, are kept,
// and HTML with no component heading comes back as it was.
func TestWithComponentHeadings_bytes(t *testing.T) {
	md := []Heading{{Level: 2, ID: "a", Text: "A"}}
	in := `<h2 id="a">A</h2><p>x &amp; <b>y</p></b><!-- c --><script>"<h2 id=s>"</script>` +
		`<h3 class="k" id="a" data-x='1 "2"'>A &amp; <em>b</em></h3><textarea><h2 id="t"></textarea> tail`
	got, hs := WithComponentHeadings([]byte(in), md, nil)
	want := `<h2 id="a">A</h2><p>x &amp; <b>y</p></b><!-- c --><script>"<h2 id=s>"</script>` +
		`<h3 class="k" id="a-2" data-x="1 &#34;2&#34;">A &amp; <em>b</em></h3><textarea><h2 id="t"></textarea> tail`
	if string(got) != want {
		t.Errorf("html\n%s\nwant\n%s", got, want)
	}
	if wantHs := append(md, Heading{Level: 3, ID: "a-2", Text: "A & b"}); !slices.Equal(hs, wantHs) {
		t.Errorf("headings %v, want %v", hs, wantHs)
	}
	plain := `<h2 id="a">A</h2><h3>no id</h3>`
	if got, hs := WithComponentHeadings([]byte(plain), md, nil); string(got) != plain || !slices.Equal(hs, md) {
		t.Errorf("no component heading: %s %v", got, hs)
	}
}

// TestPage_needsIDPass: the pass runs for what it changes (a contents
// entry a component draws, an id made from a title that is taken) and
// not for steps and accordions whose ids are the page's only ones.
func TestPage_needsIDPass(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      bool
	}{
		{"accordions with their own titles", "## A\n\n<Accordion title=\"B\">x</Accordion>\n\n<Accordion title=\"C\">y</Accordion>\n", false},
		{"a paragraph-titled step", "<Steps>\n<Step title=\"One\">x</Step>\n</Steps>\n", false},
		{"two accordions of one title", "<Accordion title=\"B\">x</Accordion>\n\n<Accordion title=\"B\">y</Accordion>\n", true},
		{"an accordion titled as a heading", "## B\n\n<Accordion title=\"B\">x</Accordion>\n", true},
		{"a heading-sized step", "<Steps titleSize=\"h2\">\n<Step title=\"One\">x</Step>\n</Steps>\n", true},
		{"an update", "<Update label=\"v1\">x</Update>\n", true},
		{"no components", "## A\n\nText.\n", false},
	} {
		doc := PreprocessPageWith(c.src, nil, "p.mdx", 1, PageOptions{Labels: EnglishLabels})
		var buf bytes.Buffer
		hs, err := ToHTML(NewMarkdown(), []byte(doc.Markdown), &buf)
		if err != nil {
			t.Fatal(err)
		}
		if got := doc.NeedsIDPass(hs); got != c.want {
			t.Errorf("%s: NeedsIDPass %v, want %v", c.name, got, c.want)
		}
	}
}
