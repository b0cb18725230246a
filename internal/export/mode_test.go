package export

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"golang.org/x/net/html"
)

// frameParts lists the parts of the page frame present in page: the
// layout element's class and which of the menu button, sidebar, table of
// contents, title header and pager are there.
func frameParts(t *testing.T, page string) (layout string, parts []string) {
	t.Helper()
	z := html.NewTokenizer(strings.NewReader(page))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return layout, parts
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			var class string
			for _, a := range tok.Attr {
				if a.Key == "class" {
					class = a.Val
				}
			}
			switch {
			case tok.Data == "div" && (class == "layout" || strings.HasPrefix(class, "layout ")):
				layout = class
			case tok.Data == "button" && class == "menu-toggle":
				parts = append(parts, "menu")
			case tok.Data == "nav" && class == "sidebar":
				parts = append(parts, "sidebar")
			case tok.Data == "aside" && class == "toc":
				parts = append(parts, "toc")
			case tok.Data == "header" && class == "page-head":
				parts = append(parts, "title")
			case tok.Data == "nav" && class == "pager":
				parts = append(parts, "pager")
			case tok.Data == "footer":
				parts = append(parts, "footer")
			}
		}
	}
}

// TestPageMode_frame: each `mode` of a page's frontmatter leaves out of
// the HTML what the platform's mode does not show, and names the mode in
// the layout's class; the modes that keep the sidebar keep the button
// that opens it at phone width. An unknown mode is a warning naming the
// page and value, and the page is framed as without a mode. Before modes
// were honoured every page had the whole frame.
func TestPageMode_frame(t *testing.T) {
	page := func(mode string) *fstest.MapFile {
		fm := "---\ntitle: T\ndescription: D\n"
		if mode != "" {
			fm += "mode: " + mode + "\n"
		}
		return &fstest.MapFile{Data: []byte(fm + "---\n\n## Part\n\nText.\n")}
	}
	src := fstest.MapFS{
		"docs.json": {Data: []byte(`{"name": "Acme", "navigation": {"pages": ["none", "default", "wide", "custom", "center", "frame", "odd"]},
			"footer": {"socials": {"github": "https://github.com/acme"}}}`)},
		"none.mdx": page(""), "default.mdx": page("default"), "wide.mdx": page("wide"), "custom.mdx": page(`"custom"`),
		"center.mdx": page("center"), "frame.mdx": page("frame"), "odd.mdx": page("sideways"),
	}
	var mu sync.Mutex
	var warns []string
	dir := t.TempDir()
	_, err := New(Options{}).Export(context.Background(), Request{Source: src, Domain: "d.example",
		Warn: func(wrn Warning) { m := wrn.Message; mu.Lock(); warns = append(warns, m); mu.Unlock() }}, dir, nil)
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	all := []string{"menu", "sidebar", "title", "pager", "footer", "toc"}
	tests := []struct {
		page, layout string
		parts        []string
	}{
		{"none", "layout", all},
		{"default", "layout", all},
		{"odd", "layout", all},
		{"wide", "layout mode-wide", []string{"menu", "sidebar", "title", "pager", "footer"}},
		{"custom", "layout mode-custom", []string{"footer"}},
		{"center", "layout mode-center", []string{"title", "pager", "footer"}},
		{"frame", "layout mode-frame", []string{"menu", "sidebar", "footer"}},
	}
	for _, tt := range tests {
		layout, parts := frameParts(t, readOut(t, dir, tt.page+".html"))
		if layout != tt.layout || !slices.Equal(parts, tt.parts) {
			t.Errorf("%s.html: layout %q with %v, want %q with %v", tt.page, layout, parts, tt.layout, tt.parts)
		}
	}
	want := `odd.mdx: unknown page mode "sideways"; the page is shown in the default mode`
	if !slices.Contains(warns, want) {
		t.Errorf("warnings %q lack %q", warns, want)
	}
	// The page's own content is there in every mode.
	for _, tt := range tests {
		if p := readOut(t, dir, tt.page+".html"); !strings.Contains(p, `<h2 id="part">`) {
			t.Errorf("%s.html lacks its content", tt.page)
		}
	}
}
