package machines

import (
	"fmt"
	"sync"
	"testing"
)

// TestSearchIndex_pagesInAnyOrder: pages added concurrently and in any
// order give the scripts of the pages in page order, byte for byte, with
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
		if err := want.Add(i, entry(i), "Guides", i%2 == 0); err != nil {
			t.Fatal(err)
		}
	}
	wantJS, err := want.Files()
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
				if err := got.Add(i, entry(i), "Guides", i%2 == 0); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	gotJS, err := got.Files()
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(gotJS) != fmt.Sprint(wantJS) {
		t.Fatalf("concurrent adds differ:\n%s\nwant\n%s", gotJS, wantJS)
	}
}

// TestSearchIndex_files pins the scripts of a small index: the manifest
// with titles, addresses, sections, the shard names and the sorted
// vocabulary; term shards by a term's first two letters, with English
// words under their stems and page numbers as deltas; text shards with
// the sections. HTML-significant characters are escaped everywhere.
func TestSearchIndex_files(t *testing.T) {
	x := NewSearchIndex(3)
	if err := x.Add(2, SearchEntry{Title: "B", URL: "b.html", Parts: [][3]string{{"", "", "Beta <x>"}}}, "Guides", true); err != nil {
		t.Fatal(err)
	}
	if err := x.Add(0, SearchEntry{Title: "A", URL: "a.html", Parts: [][3]string{{"Going", "go", "alpha & betas"}}}, "", true); err != nil {
		t.Fatal(err)
	}
	files, err := x.Files()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	var order []string
	for _, f := range files {
		got[f.Path] = string(f.Data)
		order = append(order, f.Path)
	}
	want := map[string]string{
		"_static/search-index.js": `(window.__docsSearchShards=window.__docsSearchShards||{})["manifest"]={"v":2,"docs":16,"shards":["a","al","b","be","go","x"],"words":"a alpha b beta betas going x","pages":[["A","a.html",""],["B","b.html","Guides"]]};` + "\n",
		"_static/search/t-a.js":   `(window.__docsSearchShards=window.__docsSearchShards||{})["t-a"]={"a":[0,0]};` + "\n",
		"_static/search/t-al.js":  `(window.__docsSearchShards=window.__docsSearchShards||{})["t-al"]={"alpha":[0,2]};` + "\n",
		"_static/search/t-b.js":   `(window.__docsSearchShards=window.__docsSearchShards||{})["t-b"]={"b":[1,0]};` + "\n",
		"_static/search/t-be.js":  `(window.__docsSearchShards=window.__docsSearchShards||{})["t-be"]={"beta":[0,2,1,2]};` + "\n",
		"_static/search/t-go.js":  `(window.__docsSearchShards=window.__docsSearchShards||{})["t-go"]={"go":[0,1]};` + "\n",
		"_static/search/t-x.js":   `(window.__docsSearchShards=window.__docsSearchShards||{})["t-x"]={"x":[1,2]};` + "\n",
		"_static/search/d-0.js":   `(window.__docsSearchShards=window.__docsSearchShards||{})["d-0"]=[[["Going","go","alpha \u0026 betas"]],[["","","Beta \u003cx\u003e"]]];` + "\n",
	}
	if order[0] != "_static/search-index.js" {
		t.Errorf("the manifest is not first: %q", order)
	}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s =\n%s\nwant\n%s", p, got[p], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("files %q, want %d", order, len(want))
	}

	empty, err := NewSearchIndex(2).Files()
	if err != nil {
		t.Fatal(err)
	}
	if len(empty) != 1 || string(empty[0].Data) != `(window.__docsSearchShards=window.__docsSearchShards||{})["manifest"]={"v":2,"docs":16,"shards":[],"words":"","pages":[]};`+"\n" {
		t.Errorf("empty index = %q", empty)
	}
}
