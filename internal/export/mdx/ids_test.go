package mdx

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestHeadingIDs: ids follow the platform's rules: letters of every script
// kept, punctuation to hyphens, markup left out, repeats numbered.
func TestHeadingIDs(t *testing.T) {
	src := "## chat.agent()\n\n## 始める\n\n## 概要\n\n## 概要\n\n## Use <code>run()</code> now\n\n## Café au lait\n\n## ???\n\n## Привет, мир\n"
	var buf bytes.Buffer
	hs, err := ToHTML(NewMarkdown(), []byte(src), &buf)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range hs {
		ids = append(ids, h.ID)
	}
	want := []string{"chat-agent", "始める", "概要", "概要-2", "use-run-now", "café-au-lait", "heading", "привет-мир"}
	if strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Errorf("ids = %q, want %q", ids, want)
	}
	if !strings.Contains(buf.String(), `<h2 id="始める">`) {
		t.Errorf("the heading does not carry its id:\n%s", buf.String())
	}
}

// TestHeadingIDs_markupInHeading: a heading holding markup or components
// gets its id from its text alone (no link address, tag or attribute in
// it), and no block element is ever written inside an <h1>–<h6>: a
// component that renders as a block is written there as a span.
func TestHeadingIDs_markupInHeading(t *testing.T) {
	src := strings.Join([]string{
		`## <Icon icon="rocket" /> Setup`,
		"## The `code` **bold** [link](/a) step",
		`## Install <Badge>New</Badge>`,
		`## Keys <Tooltip tip="more" cta="Read" href="/x">term</Tooltip>`,
		`### <Icon icon="x" size={16} /> Run ![a diagram](/i.png) it`,
		`## Press <Kbd>K</Kbd> now`,
		`## Done <Check>ok</Check>`,
		`# Cards <Card title="T" href="/c">body</Card>`,
		`#### Notes <Update label="v2">changes</Update>`,
		"Setext <Tip>hint</Tip>\n---",
		`## Custom <details-box>x</details-box>`,
	}, "\n\n") + "\n"
	var buf bytes.Buffer
	hs, err := ToHTML(NewMarkdown(), []byte(Preprocess(src, nil)), &buf)
	if err != nil {
		t.Fatal(err)
	}
	var ids, texts []string
	for _, h := range hs {
		ids = append(ids, h.ID)
		texts = append(texts, h.Text)
	}
	want := []string{"setup", "the-code-bold-link-step", "install-new", "keys-term", "run-it", "press-k-now", "done-ok", "setext-hint", "custom-x"}
	if strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Errorf("ids = %q, want %q", ids, want)
	}
	if texts[0] != "Setup" || texts[1] != "The code bold link step" {
		t.Errorf("table of contents texts = %q", texts)
	}
	page := buf.String()
	for _, id := range []string{"cards-tbody", "notes-v2changes"} {
		if !strings.Contains(page, `id="`+id+`"`) {
			t.Errorf("no heading with id %q (levels 1 and 4 get ids too):\n%s", id, page)
		}
	}
	// Every element open inside a heading is phrasing content (an <i> is
	// an icon's slot, which the facade fills with an <svg>).
	phrasing := map[string]bool{"span": true, "a": true, "code": true, "strong": true, "em": true, "img": true, "svg": true, "path": true, "kbd": true, "details-box": true, "i": true}
	z := html.NewTokenizer(strings.NewReader(page))
	var inHeading string
	for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
		name, _ := z.TagName()
		tag := string(name)
		isHeading := len(tag) == 2 && tag[0] == 'h' && tag[1] >= '1' && tag[1] <= '6'
		switch tt {
		case html.StartTagToken, html.SelfClosingTagToken:
			if inHeading != "" && !phrasing[tag] {
				t.Errorf("<%s> inside <%s>", tag, inHeading)
			}
			if isHeading && tt == html.StartTagToken {
				inHeading = tag
			}
		case html.EndTagToken:
			if tag == inHeading {
				inHeading = ""
			}
		}
	}
	for _, keep := range []string{`<span class="callout callout-check" role="note">`, `<span class="card">`, `<code>code</code>`, `<span class="badge">New</span>`, `<img src="/i.png" alt="a diagram">`} {
		if !strings.Contains(page, keep) {
			t.Errorf("heading content lost %s:\n%s", keep, page)
		}
	}
}

// TestHeadingIDs_platformRules: the platform's own table of heading text
// and generated id (create/text.mdx), `{#id}` naming an id, and repeats
// numbered from -2. Before, "What's new" was what-s-new, "Read/write
// access" read-write-access, the second "Overview" overview-1, and the
// braces of `{#my-custom-anchor}` showed in the heading.
func TestHeadingIDs_platformRules(t *testing.T) {
	for text, want := range map[string]string{
		"Getting started":            "getting-started",
		"Config.json options":        "config-json-options",
		"What's new":                 "what’s-new",
		"Rate limits (per minute)":   "rate-limits-per-minute",
		"Read/write access":          "read/write-access",
		"Fees & billing":             "fees-&-billing",
		"OAuth":                      "oauth",
		"chat.agent()":               "chat-agent",
		"Step 1: install, then run!": "step-1-install-then-run",
		"snake_case and kebab-case":  "snake_case-and-kebab-case",
	} {
		if got := HeadingSlug(text); got != want {
			t.Errorf("HeadingSlug(%q) = %q, want %q", text, got, want)
		}
	}
	src := "## Overview\n\n## My section {#my-custom-anchor}\n\n### Configuration options {#config}\n\n## Overview\n\n## Overview\n"
	var buf bytes.Buffer
	hs, err := ToHTML(NewMarkdown(), []byte(src), &buf)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hs {
		got = append(got, h.ID+"="+h.Text)
	}
	want := []string{"overview=Overview", "my-custom-anchor=My section", "config=Configuration options", "overview-2=Overview", "overview-3=Overview"}
	if strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("headings %q, want %q", got, want)
	}
	if out := buf.String(); strings.Contains(out, "{#") || !strings.Contains(out, `<h2 id="my-custom-anchor">My section`) {
		t.Errorf("the named id is not the heading's, or its braces show:\n%s", out)
	}
}

// TestHeadingIDs_elements: headings written as elements, <h2> or the
// platform's <Heading level={N}>, are headings: an id (their own when
// they have one), a place in the table of contents, and an anchor link
// unless they say noAnchor. Before, <h2> passed through without id or
// anchor and <Heading> was an unknown component's box.
func TestHeadingIDs_elements(t *testing.T) {
	src := strings.Join([]string{
		"## Intro",
		"<h2 noAnchor>\nHeading without anchor link\n</h2>",
		`<h3 id="own">Raw *h3*</h3>`,
		"<Heading level={2} noAnchor>\nReact heading\n</Heading>",
		"<Heading level={3}>Plain</Heading>",
		"<h2>Intro</h2>",
	}, "\n\n") + "\n"
	var buf bytes.Buffer
	hs, err := ToHTML(NewMarkdown(), []byte(Preprocess(src, nil)), &buf)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hs {
		got = append(got, strconv.Itoa(h.Level)+" "+h.ID+"="+h.Text)
	}
	want := []string{"2 intro=Intro", "2 heading-without-anchor-link=Heading without anchor link", "3 own=Raw h3",
		"2 react-heading=React heading", "3 plain=Plain", "2 intro-2=Intro"}
	if strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("headings %q, want %q", got, want)
	}
	out := buf.String()
	for _, c := range []struct {
		id     string
		anchor bool
	}{{"intro", true}, {"heading-without-anchor-link", false}, {"own", true}, {"react-heading", false}, {"plain", true}} {
		if has := strings.Contains(out, `href="#`+c.id+`"`); has != c.anchor {
			t.Errorf("heading %s: anchor link %v, want %v", c.id, has, c.anchor)
		}
	}
	if strings.Contains(out, "noanchor") || strings.Contains(out, "data-component") || strings.Contains(out, "&lt;") {
		t.Errorf("a marker or an element shows:\n%s", out)
	}
	if !strings.Contains(out, `<h3 id="own">Raw <em>h3</em>`) {
		t.Errorf("the element's content is not read as Markdown:\n%s", out)
	}
}
