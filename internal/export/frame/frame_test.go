package frame

import (
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/site"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/uitext"
)

// TestTwoColumns: only API pages in the modes that keep their width get
// the examples column beside the reference.
func TestTwoColumns(t *testing.T) {
	op := &openapi.Operation{}
	for _, tc := range []struct {
		name string
		page site.Page
		want bool
	}{
		{"an endpoint page", site.Page{API: op}, true},
		{"an MDX API page, wide", site.Page{FM: site.Frontmatter{API: "GET /pets"}, Mode: site.ModeWide}, true},
		{"an endpoint page, centred", site.Page{API: op, Mode: site.ModeCenter}, false},
		{"an endpoint page, custom", site.Page{API: op, Mode: site.ModeCustom}, false},
		{"an endpoint page, framed", site.Page{API: op, Mode: site.ModeFrame}, false},
		{"a page of prose", site.Page{}, false},
	} {
		if got := TwoColumns(&tc.page); got != tc.want {
			t.Errorf("%s: TwoColumns = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestWithAuthorExamples: the page's own examples win over the generated
// ones, each kind on its own.
func TestWithAuthorExamples(t *testing.T) {
	gen := mdx.Examples{Request: []byte("<gen-req>"), Response: []byte("<gen-resp>")}
	for _, tc := range []struct {
		name, content, req, resp, rest string
	}{
		{"no examples of its own", "<p>text</p>", "<gen-req>", "<gen-resp>", "<p>text</p>"},
		{"its own response", `<p>a</p><div class="example example-response"><pre>mine</pre></div><p>b</p>`,
			"<gen-req>", `<div class="example example-response"><pre>mine</pre></div>`, "<p>a</p><p>b</p>"},
		{"its own request", `<div class="example example-request"><div>mine</div></div><p>b</p>`,
			`<div class="example example-request"><div>mine</div></div>`, "<gen-resp>", "<p>b</p>"},
	} {
		rest, ex := WithAuthorExamples([]byte(tc.content), gen)
		if string(rest) != tc.rest || string(ex.Request) != tc.req || string(ex.Response) != tc.resp {
			t.Errorf("%s: rest %q, request %q, response %q; want %q, %q, %q", tc.name, rest, ex.Request, ex.Response, tc.rest, tc.req, tc.resp)
		}
	}
}

// TestExamplesColumn: the column links its stylesheet relative to the
// page, holds only the kinds of example there are, and names them in the
// page's language.
func TestExamplesColumn(t *testing.T) {
	for _, tc := range []struct {
		name   string
		prefix markup.Prefix
		ex     mdx.Examples
		lang   string
		want   []string
		absent []string
	}{
		{"both, two levels down", "../../", mdx.Examples{Request: []byte("<pre>req</pre>"), Response: []byte("<pre>resp</pre>")}, "en",
			[]string{`href="../../_static/api.css"`, `aria-label="Examples"`, `api-example-request"><p class="api-example-title">Request</p><pre>req</pre>`, `<pre>resp</pre>`}, nil},
		{"a response only, at the root", "", mdx.Examples{Response: []byte("<pre>resp</pre>")}, "en",
			[]string{`href="_static/api.css"`, "api-example-response"}, []string{"api-example-request"}},
		{"in German", "", mdx.Examples{Request: []byte("<pre>req</pre>"), Response: []byte("<pre>resp</pre>")}, "de",
			[]string{`aria-label="Beispiele"`, `<p class="api-example-title">Anfrage</p>`, `<p class="api-example-title">Antwort</p>`}, []string{"Examples", "Request", "Response"}},
	} {
		var b markup.Builder
		ExamplesColumn(&b, tc.prefix, tc.ex, uitext.For(tc.lang))
		got := b.String()
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: lacks %q:\n%s", tc.name, w, got)
			}
		}
		for _, a := range tc.absent {
			if strings.Contains(got, a) {
				t.Errorf("%s: has %q:\n%s", tc.name, a, got)
			}
		}
	}
}

// TestTOC: headings become escaped links to their anchors, in the
// page's language; no headings, an empty aside.
func TestTOC(t *testing.T) {
	for _, tc := range []struct {
		name string
		hs   []mdx.Heading
		lang string
		want []string
	}{
		{"none", nil, "en", []string{`<aside class="toc"></aside>`}},
		{"two levels, escaped", []mdx.Heading{{Level: 2, ID: "install", Text: "Install <now>"}, {Level: 3, ID: "a-b", Text: "A & B"}}, "en",
			[]string{`aria-label="On this page"`, `<li class="toc-2"><a href="#install">Install &lt;now&gt;</a></li>`, `<li class="toc-3"><a href="#a-b">A &amp; B</a></li>`}},
		{"in French", []mdx.Heading{{Level: 2, ID: "x", Text: "X"}}, "fr", []string{uitext.For("fr").T("onThisPage")}},
	} {
		var b markup.Builder
		TOC(&b, tc.hs, uitext.For(tc.lang))
		for _, w := range tc.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: lacks %q:\n%s", tc.name, w, b.String())
			}
		}
	}
}

// TestMarkCurrent: the page's own sidebar link is marked and the groups
// around it opened; the top bar's link to it and other pages' are not.
func TestMarkCurrent(t *testing.T) {
	chrome := `<header><a href="../guides/start.html">Start</a></header>` +
		`<nav class="sidebar"><details><summary>G</summary><details><summary>H</summary>` +
		`<a href="../guides/start.html">Start</a></details></details><details><a href="../other.html">O</a></details></nav>`
	got := MarkCurrent(markup.Rendered(chrome), "../", "guides/start.html").String()
	want := `<header><a href="../guides/start.html">Start</a></header>` +
		`<nav class="sidebar"><details open><summary>G</summary><details open><summary>H</summary>` +
		`<a href="../guides/start.html" aria-current="page">Start</a></details></details><details><a href="../other.html">O</a></details></nav>`
	if got != want {
		t.Errorf("MarkCurrent:\n%s\nwant:\n%s", got, want)
	}
	if got := MarkCurrent(markup.Rendered(chrome), "../", "missing.html").String(); got != chrome {
		t.Errorf("a page not in the sidebar changed the chrome:\n%s", got)
	}
	if noSidebar := `<header><a href="x.html">X</a></header>`; MarkCurrent(markup.Rendered(noSidebar), "", "x.html").String() != noSidebar {
		t.Error("a chrome without a sidebar was changed")
	}
}
