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

// TestIndexFiles_skipsUnindexedAndEscapes: pages kept out of the index
// (an empty entry) are left out, sections are named, and page text
// cannot close the script element it is loaded in.
func TestIndexFiles_skipsUnindexedAndEscapes(t *testing.T) {
	all := []SearchEntry{
		{Title: "A", URL: "a.html", Parts: [][3]string{{"", "", "see </script><script>alert(1)</script>"}}},
		{}, // a noindex page
		{Title: "B", URL: "b.html", Parts: [][3]string{{"", "", "Beta words"}}},
	}
	x := NewSearchIndex(len(all))
	for i, e := range all {
		if e.URL == "" {
			continue // noindex pages
		}
		section := ""
		if i == 2 {
			section = "Guides"
		}
		if err := x.Add(i, e, section, false); err != nil {
			t.Fatal(err)
		}
	}
	files, err := x.Files()
	if err != nil {
		t.Fatal(err)
	}
	var s strings.Builder
	for _, f := range files {
		if strings.Contains(string(f.Data), "</script>") {
			t.Errorf("page text closes the script in %s: %s", f.Path, f.Data)
		}
		s.Write(f.Data)
	}
	m := string(files[0].Data)
	if !strings.Contains(m, `"pages":[["A","a.html",""],["B","b.html","Guides"]]`) {
		t.Errorf("pages or sections wrong: %s", m)
	}
	if !strings.Contains(m, `"words":"1 a alert b beta script see words"`) {
		t.Errorf("vocabulary wrong (no stems on a page that is not English): %s", m)
	}
	if !strings.Contains(s.String(), `"words":[1,2]`) {
		t.Errorf("the second indexed page is not page 1: %s", s.String())
	}
}
