package machines

import (
	"fmt"
	"sync"
	"testing"
)

// TestSearchIndex_pagesInAnyOrder: pages added concurrently and in any
// order give the script of the pages in page order, byte for byte, with
// the vocabulary of all their words; a page never added stays out.
func TestSearchIndex_pagesInAnyOrder(t *testing.T) {
	const n = 200
	entry := func(i int) SearchEntry {
		return SearchEntry{Title: fmt.Sprintf("Page %d", i), URL: fmt.Sprintf("p%d.html", i),
			Parts: [][3]string{{"", "", fmt.Sprintf("Lead of w%d & <b>", i)}, {"Setup", "setup", "Run ÉTAPE"}}}
	}
	want := NewSearchIndex(n)
	for i := 0; i < n; i++ {
		if i%7 == 3 {
			continue // noindex
		}
		if err := want.Add(i, entry(i), "Guides"); err != nil {
			t.Fatal(err)
		}
	}
	wantJS, err := want.JS()
	if err != nil {
		t.Fatal(err)
	}
	got := NewSearchIndex(n)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := n - 1 - w; i >= 0; i -= 4 {
				if i%7 == 3 {
					continue
				}
				if err := got.Add(i, entry(i), "Guides"); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	gotJS, err := got.JS()
	if err != nil {
		t.Fatal(err)
	}
	if string(gotJS) != string(wantJS) {
		t.Fatalf("concurrent adds differ:\n%s\nwant\n%s", gotJS, wantJS)
	}
}

// TestSearchIndex_script pins the whole script of a small index: the
// entries in page order with HTML-significant characters escaped, then
// the sorted vocabulary, each value on its own line as app.js and the
// existing bundles have it.
func TestSearchIndex_script(t *testing.T) {
	x := NewSearchIndex(3)
	if err := x.Add(2, SearchEntry{Title: "B", URL: "b.html", Parts: [][3]string{{"", "", "Beta <x>"}}}, "Guides"); err != nil {
		t.Fatal(err)
	}
	if err := x.Add(0, SearchEntry{Title: "A", URL: "a.html", Parts: [][3]string{{"Go", "go", "alpha & beta"}}}, ""); err != nil {
		t.Fatal(err)
	}
	js, err := x.JS()
	if err != nil {
		t.Fatal(err)
	}
	want := `window.__docsSearchIndex=[{"t":"A","u":"a.html","x":[["Go","go","alpha \u0026 beta"]]},{"t":"B","u":"b.html","s":"Guides","x":[["","","Beta \u003cx\u003e"]]}]` +
		"\n;\nwindow.__docsSearchWords=\"a alpha b beta go x\"\n;\n"
	if string(js) != want {
		t.Errorf("script:\n%s\nwant\n%s", js, want)
	}
	empty, err := NewSearchIndex(2).JS()
	if err != nil {
		t.Fatal(err)
	}
	if want := "window.__docsSearchIndex=[]\n;\nwindow.__docsSearchWords=\"\"\n;\n"; string(empty) != want {
		t.Errorf("empty index: %q, want %q", empty, want)
	}
}
