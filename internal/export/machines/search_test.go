package machines

import (
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
)

// TestNewSearchEntry_sectionsAtHeadings: the lead section holds the lead
// texts and the text before the first heading; each heading gets the
// text up to the next one, found by its id.
func TestNewSearchEntry_sectionsAtHeadings(t *testing.T) {
	content := []byte(`<p>Intro <b>text</b>.</p><h2 id="install">Install</h2><p>Run &amp; go.</p><h2 id="use">Use</h2><p>Call it.</p>`)
	hs := []mdx.Heading{{Level: 2, ID: "install", Text: "Install"}, {Level: 2, ID: "use", Text: "Use"}}
	e := NewSearchEntry("Start", "guides/start.html", []string{"GET /runs"}, hs, content)
	if e.Title != "Start" || e.URL != "guides/start.html" {
		t.Fatalf("entry = %+v", e)
	}
	want := [][3]string{{"", "", "GET /runs Intro text ."}, {"Install", "install", "Run & go."}, {"Use", "use", "Call it."}}
	if len(e.Parts) != len(want) {
		t.Fatalf("parts = %q, want %q", e.Parts, want)
	}
	for i := range want {
		if e.Parts[i] != want[i] {
			t.Errorf("part %d = %q, want %q", i, e.Parts[i], want[i])
		}
	}
}

// TestIndexJS_skipsUnindexedAndEscapes: pages kept out of the index (an
// empty entry) are left out, sections are named, and page text cannot
// close the script element it is loaded in.
func TestIndexJS_skipsUnindexedAndEscapes(t *testing.T) {
	all := []SearchEntry{
		{Title: "A", URL: "a.html", Parts: [][3]string{{"", "", "see </script><script>alert(1)</script>"}}},
		{}, // a noindex page
		{Title: "B", URL: "b.html", Parts: [][3]string{{"", "", "Beta words"}}},
	}
	js, err := indexJS(all, func(i int) string {
		if i == 2 {
			return "Guides"
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	s := string(js)
	if !strings.HasPrefix(s, "window.__docsSearchIndex=[") || !strings.Contains(s, ";\nwindow.__docsSearchWords=") {
		t.Fatalf("index script shape: %s", s)
	}
	if strings.Contains(s, "</script>") {
		t.Errorf("page text closes the script: %s", s)
	}
	if strings.Count(s, `"u":`) != 2 || !strings.Contains(s, `"u":"b.html","s":"Guides"`) {
		t.Errorf("entries or sections wrong: %s", s)
	}
	if !strings.Contains(s, `"1 a alert b beta script see words"`) {
		t.Errorf("vocabulary wrong: %s", s)
	}
}

// indexJS is the script of the entries all, one per page, with an empty
// entry for a page kept out of the index; section names the navigation
// section of page i, or "". It adds them to a SearchIndex as an export's
// workers do.
func indexJS(all []SearchEntry, section func(i int) string) ([]byte, error) {
	x := NewSearchIndex(len(all))
	for i, e := range all {
		if e.URL == "" {
			continue // noindex pages
		}
		if err := x.Add(i, e, section(i)); err != nil {
			return nil, err
		}
	}
	return x.JS()
}
