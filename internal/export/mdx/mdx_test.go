package mdx

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// render runs the whole content pipeline on one MDX document.
func render(t *testing.T, src string, snippets map[string]string) string {
	t.Helper()
	load := func(file string) (string, error) {
		if s, ok := snippets[file]; ok {
			return s, nil
		}
		return "", errors.New("no snippet " + file)
	}
	var buf bytes.Buffer
	if _, err := ToHTML(NewMarkdown(), []byte(preprocess(src, load, nil)), &buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestPreprocess(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // substrings of the HTML, in order
		not       []string
	}{
		{"indentedContentIsNotCode", "<Note>\n    Indented **text**.\n</Note>",
			[]string{`<div class="callout callout-note"`, "<p>Indented <strong>text</strong>.</p>", "</div></div>"}, []string{"<pre"}},
		{"tagOverSeveralLines", "<Card\n  title=\"Multi\"\n  href=\"/x\"\n>\n  Body\n</Card>",
			[]string{`<a class="card-title card-link" href="/x">Multi</a>`, "<p>Body</p>"}, nil},
		{"commentsAndESM", "import X from '/snippets/x.mdx'\nexport const a = {\n  b: 1,\n}\n{/* gone\nstill gone */}\nKept {/* inline */} text.",
			[]string{"<p>Kept  text.</p>"}, []string{"gone", "export", "import", "b: 1"}},
		{"proseStartingWithImport", "import your data first.\n\nexport the results later.",
			[]string{"<p>import your data first.</p>", "<p>export the results later.</p>"}, nil},
		{"multiLineImport", "import {\n  A,\n  B,\n} from '/snippets/x.jsx'\n\nText.",
			[]string{"<p>Text.</p>"}, []string{"A,", "from"}},
		{"jsxHTMLOverLines", "<Frame>\n<img\n  src=\"/a.png\"\n  className=\"block dark:hidden\"\n  style={{\n    width: '268px',\n    marginTop: 8,\n  }}\n  alt=\"A\"\n/>\n</Frame>",
			[]string{`<figure class="frame">`, `<img alt="A" class="block dark:hidden" src="/a.png" style="width:268px;margin-top:8px" />`, "</figure>"},
			[]string{"className", "{{"}},
		{"frameAutoplayVideo", "<Frame>\n  <video autoPlay src=\"/v.mp4\" />\n</Frame>\n\nAfter.",
			[]string{`<figure class="frame">`, `<video autoPlay loop muted playsInline src="/v.mp4">` + "\n</video>", "</figure>", "<p>After.</p>"}, nil},
		{"frameVideoAuthorsOwnAttributes", "<Frame>\n<video autoPlay={true} muted={false} src=\"/v.mp4\"></video>\n</Frame>",
			[]string{`<video autoPlay loop playsInline src="/v.mp4">`}, []string{"muted", "<p>"}},
		{"videoWithoutAutoplayInFrame", "<Frame>\n<video controls src=\"/v.mp4\"></video>\n</Frame>",
			[]string{`<video controls src="/v.mp4">`}, []string{"loop", "muted", "playsInline"}},
		{"autoplayVideoOutsideFrame", "<video autoPlay src=\"/v.mp4\" />\n\nAfter.",
			[]string{`<video autoPlay src="/v.mp4">` + "\n</video>", "<p>After.</p>"}, []string{"loop", "muted", "<p><video"}},
		{"fileTreeAsMarkdownList", "<FileTree>\n\n- docs/\n  - `index.mdx`\n  - guides/\n    - **configuration.mdx**\n  - empty/\n- docs.config.ts\n\n</FileTree>\n\nAfter.",
			[]string{`<ul class="tree">`, `<li class="tree-folder"><details open><summary>docs</summary><ul>`, `<li class="tree-file">index.mdx</li>`,
				`<li class="tree-folder"><details open><summary>guides</summary><ul><li class="tree-file">configuration.mdx</li></ul></details></li>`,
				`<li class="tree-folder"><details><summary>empty</summary><ul></ul></details></li>`, `</ul></details></li><li class="tree-file">docs.config.ts</li>`, "</ul>", "<p>After.</p>"},
			[]string{"<ul><ul>", "<code>", "<strong>", "docs/<"}},
		{"treeOfElementsUntouched", "<Tree>\n  <Tree.Folder name=\"app\" defaultOpen>\n    <Tree.File name=\"page.tsx\" />\n  </Tree.Folder>\n</Tree>",
			[]string{`<ul class="tree">`, `<details open><summary>app</summary><ul>`, `<li class="tree-file">page.tsx`}, nil},
		{"treeWithMoreThanAList", "<Tree>\n\n- a\n\nSome text.\n\n</Tree>",
			[]string{`<ul class="tree">`, "<li>a</li>", "<p>Some text.</p>"}, []string{"tree-file"}},
		{"treeNeverClosed", "<FileTree>\n\n- a/\n  - b",
			[]string{`<ul class="tree">`, "<li>a/"}, []string{"tree-folder"}},
		{"plainHTMLUntouched", "<div align=\"center\">\n\n**Bold**\n\n</div>",
			[]string{`<div align="center">`, "<strong>Bold</strong>", "</div>"}, nil},
		{"tagsInCodeStayText", "```mdx\n<Note>literal</Note>\n```\n\nUse `<Tip>` inline.",
			[]string{"&lt;Note&gt;literal&lt;/Note&gt;", "<code>&lt;Tip&gt;</code>"}, []string{`callout`}},
		{"closeOnContentLine", "<Warning>Careful with\nthis</Warning>\n\nAfter.",
			[]string{`callout-warning`, "Careful with\nthis", "</div></div>", "<p>After.</p>"}, nil},
		{"snippetWithProps", "import Hi from '/snippets/hi.mdx'\n\n<Hi name=\"Ada\" />",
			[]string{"<p>Hello Ada.</p>"}, nil},
		{"missingSnippetIsReported", "import Gone from '/snippets/gone.mdx'\n\n<Gone />",
			[]string{"<!-- snippet snippets/gone.mdx not found -->"}, nil},
		{"unclosedComponentIsClosed", "<Accordion title=\"Open\">\nText",
			[]string{`<details class="accordion" id="open"><summary>Open</summary>`, "<p>Text</p>", "</div></details>"}, nil},
		{"strayCloseIsDropped", "Text\n\n</Steps>", []string{"<p>Text</p>"}, []string{"Steps", "</ol>"}},
		{"malformedTagDoesNotSwallow", "<Card title=unquoted>\n\nNext paragraph.",
			[]string{"<p>Next paragraph.</p>"}, nil},
		{"jsxSpaceAndClassName", `<span className="x">a</span>{" "}b`,
			[]string{`<span class="x">a</span> b`}, nil},
		{"nestedSameName", "<Accordion title=\"A\">\n  <Accordion title=\"B\">\n    Inner\n  </Accordion>\n  Outer\n</Accordion>",
			[]string{"<summary>A</summary>", "<summary>B</summary>", "<p>Inner</p>", "</details>", "<p>Outer</p>", "</details>"}, nil},
		{"escapedAttributes", `<Card title="<script>x</script>">Body</Card>`,
			[]string{`&lt;script&gt;x&lt;/script&gt;`}, []string{"<script>"}},
		// MDX's grammar, where CommonMark would read otherwise (the
		// differential test, oracle_test.go, checks many more).
		{"markdownInsideHTMLElement", "<div id=\"overview\">\n  ## Overview\n  - a\n</div>\n## Next",
			[]string{`<div id="overview">`, `<h2 id="overview">Overview`, "<li>a</li>", "</div>", `<h2 id="next">`}, []string{"##"}},
		{"markdownRightAfterVoidElement", "<br/>\n**bold**", []string{"<br/>", "<p><strong>bold</strong></p>"}, nil},
		{"oneLineElementHasNoParagraph", "<Note>Only **this**.</Note>", []string{`<div class="callout-body">` + "\nOnly <strong>this</strong>.\n</div>"}, []string{"<p>"}},
		{"indentationIsNotCode", "    four spaces in", []string{"<p>four spaces in</p>"}, []string{"<pre"}},
		{"componentInListItem", "- item\n\n  <Note>In the item.</Note>\n\n- next",
			[]string{"<li>", "<p>item</p>", "callout-note", "In the item.", "</li>", "<li>", "next"}, nil},
		{"fragment", "<>\n## In a fragment\n</>", []string{"<h2", "In a fragment<a"}, []string{"&lt;&gt;", "&lt;/&gt;"}},
		{"commentInCodeSpanIsCode", "Write `{/* note */}` for a comment.", []string{"<code>{/* note */}</code>"}, nil},
	}
	snippets := map[string]string{"snippets/hi.mdx": "---\ntitle: ignored\n---\nHello {name}."}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inOrder(t, render(t, tt.src, snippets), tt.want, tt.not)
		})
	}
}

// inOrder fails t unless got holds each of want, in that order, and none
// of not.
func inOrder(t *testing.T, got string, want, not []string) {
	t.Helper()
	rest := got
	for _, w := range want {
		i := strings.Index(rest, w)
		if i < 0 {
			t.Fatalf("missing (or out of order) %q in:\n%s", w, got)
		}
		rest = rest[i+len(w):]
	}
	for _, n := range not {
		if strings.Contains(got, n) {
			t.Errorf("unexpected %q in:\n%s", n, got)
		}
	}
}

func TestParseTag(t *testing.T) {
	tag, n, ok := parseTag(`<ParamField body="a" type={"string"} required default={5} {...rest}/> tail`)
	if !ok || n != len(`<ParamField body="a" type={"string"} required default={5} {...rest}/>`) {
		t.Fatalf("parseTag: ok=%v n=%d", ok, n)
	}
	if !tag.selfClosing || tag.attr("body") != "a" || tag.attr("type") != "string" || !tag.flag("required") || tag.attr("default") != "5" {
		t.Errorf("tag = %+v", tag)
	}
	if _, n, ok := parseTag(`<Card title="x`); ok || n != -1 {
		t.Errorf("incomplete tag: ok=%v n=%d, want -1", ok, n)
	}
	if _, n, ok := parseTag(`<Card title=x>`); ok || n != 0 {
		t.Errorf("malformed tag: ok=%v n=%d, want 0", ok, n)
	}
}

func TestCodeInfo(t *testing.T) {
	for info, want := range map[string][2]string{
		"go":                         {"go", ""},
		"bash npm install":           {"bash", "npm install"},
		`js title="app.js" {1,3}`:    {"js", "app.js"},
		"python main.py {2} lines":   {"python", "main.py"},
		"json theme={null} Response": {"json", "Response"},
	} {
		if lang, title := codeInfo(info); lang != want[0] || title != want[1] {
			t.Errorf("codeInfo(%q) = %q, %q; want %q, %q", info, lang, title, want[0], want[1])
		}
	}
}

// FuzzRender feeds arbitrary MDX through the content pipeline: whatever an
// author writes, rendering must finish without a panic. `go test` runs the
// seeds; `go test -fuzz FuzzRender ./internal/export` explores further.
func FuzzRender(f *testing.F) {
	for _, seed := range []string{
		"<Note>\n  text\n</Note>", "<Card title=\"a\n", "```\n<Tip>\n", "{/* open", "<Steps><Step>",
		"import {\nA", "export const x = {", "<img\n  style={{ a: '1' }}\n/>", "</Tabs>\n</Tab>", "- a\n  <Note>x</Note>\n- b",
		"<Tree.Folder name=\"x\" defaultOpen>\n<Tree.File name=\"y\" />", "| a |\n| - |\n| <Icon icon=\"x\" /> |",
	} {
		f.Add(seed)
	}
	for _, gen := range hostilePages { // TestRender_linearInPageSize times them at scale
		f.Add(gen(256))
	}
	md := NewMarkdown()
	f.Fuzz(func(t *testing.T, src string) {
		var buf bytes.Buffer
		out := Bound(preprocess(src, func(string) (string, error) { return "<Note>snippet</Note>", nil }, nil))
		if _, err := ToHTML(md, []byte(out), &buf); err != nil {
			t.Fatalf("render: %v", err)
		}
	})
}
