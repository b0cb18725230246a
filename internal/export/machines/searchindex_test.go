package machines

import (
	"fmt"
	"slices"
	"strings"
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

	// Streamed, the same scripts: the text shards come from the adds and
	// skips, the rest from Write.
	streamed := NewSearchIndex(n)
	var mu sync.Mutex
	var early []SearchFile
	streamed.StreamText(func(f SearchFile) error {
		mu.Lock()
		defer mu.Unlock()
		early = append(early, f)
		return nil
	})
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += 4 {
				var err error
				if i%7 == 3 {
					err = streamed.Skip(i)
				} else {
					err = streamed.Add(i, entry(i), "Guides", i%2 == 0)
				}
				if err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	rest, err := streamed.Files()
	if err != nil {
		t.Fatal(err)
	}
	byPath := func(a, b SearchFile) int { return strings.Compare(a.Path, b.Path) }
	all := slices.SortedFunc(slices.Values(append(early, rest...)), byPath)
	if want := slices.SortedFunc(slices.Values(wantJS), byPath); fmt.Sprint(all) != fmt.Sprint(want) {
		t.Fatalf("streamed scripts differ:\n%s\nwant\n%s", all, want)
	}
	// Every page was in before Write: only Write's own scripts are left
	// for it, and no text shard.
	for _, f := range rest {
		if strings.Contains(f.Path, "/d-") {
			t.Errorf("%s waited for Write", f.Path)
		}
	}
}

// TestSearchIndex_streamTextInOrder: a text shard is handed out as soon
// as its pages and every page before them are in, and an error from
// where it goes is Add's.
func TestSearchIndex_streamTextInOrder(t *testing.T) {
	x := NewSearchIndex(100)
	var got []string
	fail := false
	x.StreamText(func(f SearchFile) error {
		if fail {
			return fmt.Errorf("disk full")
		}
		got = append(got, f.Path)
		return nil
	})
	add := func(i int) error {
		return x.Add(i, SearchEntry{Title: fmt.Sprint(i), URL: fmt.Sprint(i), Parts: [][3]string{{"", "", "text"}}}, "", true)
	}
	// Pages 1 to 16 are in, and page 20 is skipped: page 0 holds them up.
	for i := 1; i <= docsPerShard; i++ {
		if err := add(i); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.Skip(20); err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Fatalf("shards %q before page 0 is in", got)
	}
	if err := add(0); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{"_static/search/d-0.js"}) {
		t.Fatalf("after page 0: %q, want d-0", got)
	}
	for i := docsPerShard + 1; i < 2*docsPerShard; i++ {
		if i == 20 {
			continue
		}
		if err := add(i); err != nil {
			t.Fatal(err)
		}
	}
	if len(got) != 1 {
		t.Fatalf("a shard of 15 pages handed out: %q", got)
	}
	fail = true
	if err := add(2 * docsPerShard); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("Add with a failing shard: %v", err)
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
