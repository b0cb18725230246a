package export

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mdxOrderPage declares every kind of field the panel reads: a path
// parameter of the template, a query parameter with a default, a header,
// a cookie, and body fields with nested properties under an Expandable.
// The ParamField in the code fence is an example, not a declaration.
var mdxOrderPage = mustRead("testdata/mdx-order-page.mdx")

func mustRead(name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// mdxAPISource writes a small site of MDX API pages, one per playground
// mode, sending to server.
func mdxAPISource(t *testing.T, server string) string {
	t.Helper()
	return writeSource(t, map[string]string{
		"docs.json": `{"name": "Orders", "navigation": {"pages": ["update-order", "upload", "simple", "none", "relative"]},
			"api": {"mdx": {"auth": {"method": "bearer"}}}}`,
		"update-order.mdx": "---\ntitle: Update an order\napi: \"PUT " + server + "/orders/{orderId}\"\n---\n" + mdxOrderPage,
		"upload.mdx": "---\ntitle: Upload\napi: \"POST " + server + "/photos\"\nauthMethod: none\n---\n" +
			"<ParamField body=\"photo\" type=\"file\" required />\n<ParamField body=\"caption\" type=\"string\" default=\"Rex\" />\n",
		"simple.mdx":   "---\ntitle: Simple\napi: \"GET " + server + "/ping\"\nplayground: simple\n---\n<ParamField query=\"q\" type=\"string\" />\n",
		"none.mdx":     "---\ntitle: None\napi: \"GET " + server + "/ping\"\nplayground: none\n---\n",
		"relative.mdx": "---\ntitle: Relative\napi: \"GET /ping\"\n---\n",
	})
}

// TestGolden_mdxPlayground pins the panel of an MDX API page and checks
// the modes and kinds that show none.
func TestGolden_mdxPlayground(t *testing.T) {
	src := mdxAPISource(t, "https://api.acme.test")
	var warns []string
	dir, _ := exportTo(t, Request{Source: os.DirFS(src), Kind: KindCloud, Warn: func(wrn Warning) { s := wrn.Message; warns = append(warns, s) }})
	page := readOut(t, dir, "update-order.html")
	i, k := strings.Index(page, `<div class="endpoint">`), strings.Index(page, `_static/playground.js"></script>`)
	if i < 0 || k < i {
		t.Fatalf("update-order.html has no playground panel and script")
	}
	compareGolden(t, filepath.Join("testdata", "golden", "mdx-playground.html"), strings.ReplaceAll(page[i:k], "><", ">\n<")+"\n")
	for _, name := range []string{"simple.html", "none.html", "relative.html"} {
		if p := readOut(t, dir, name); strings.Contains(p, `class="playground"`) || strings.Contains(p, "playground.js") {
			t.Errorf("%s shows a playground", name)
		}
	}
	if !strings.Contains(readOut(t, dir, "simple.html"), `<div class="endpoint"><span class="method method-get">GET</span><code>https://api.acme.test/ping</code>`) {
		t.Errorf("simple.html does not show its endpoint")
	}
	var relWarned bool
	for _, w := range warns {
		relWarned = relWarned || strings.Contains(w, `relative.mdx: api "GET /ping" has a relative path`)
	}
	if !relWarned {
		t.Errorf("no warning names relative.mdx: %q", warns)
	}
	// Air-gapped: only with the playground feature, and the CSP then
	// allows the page's server and nothing else.
	off, _ := exportTo(t, Request{Source: os.DirFS(src), Kind: KindAirGapped})
	if p := readOut(t, off, "update-order.html"); strings.Contains(p, `class="playground"`) {
		t.Errorf("air-gapped bundle without the playground feature shows the panel")
	}
	on, _ := exportTo(t, Request{Source: os.DirFS(src), Kind: KindAirGapped, Features: []string{"playground"}})
	p := readOut(t, on, "update-order.html")
	if !strings.Contains(p, `"locked":true`) || !strings.Contains(p, "connect-src &#39;self&#39; https://api.acme.test; object-src") {
		t.Errorf("air-gapped page with the playground: locked panel and CSP with the server expected:\n%s", headOf(p))
	}
}

func headOf(p string) string {
	if i := strings.Index(p, "</head>"); i >= 0 {
		return p[:i]
	}
	return p
}
