package machines

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// SearchIndex is the offline search index, built while the pages render
// and written as scripts split so that a reader's first query loads only
// what it needs (a script, unlike fetch or XHR, loads from file:// in
// every browser):
//
//   - _static/search-index.js, loaded first: the pages' titles,
//     addresses and sections, and the vocabulary (every distinct word,
//     sorted), which search.js matches a query's words against: exactly,
//     by prefix while typing, with one typo;
//   - _static/search/t-<key>.js, the term shards: for each term (a
//     word's stem) whose first characters are key, where it occurs: page,
//     section and field (title, heading, body), which ranks the results
//     without any text;
//   - _static/search/d-<n>.js, the text shards: the sections (heading,
//     anchor, text) of docsPerShard pages, loaded only for the pages
//     shown, for their section links and snippets.
//
// The worker that renders a page cuts its text into terms here, so what
// is left once every page is done is to join the pieces.
type SearchIndex struct {
	pages []indexedPage // per page; in is false for a page kept out

	mu    sync.Mutex
	words map[string]struct{} // the distinct lower-case words of every page
}

// indexedPage is one page's share of the index, encoded by its worker.
type indexedPage struct {
	in    bool
	meta  []byte    // [title, url, section]
	doc   []byte    // its sections: [[heading, anchor, text], ...]
	terms []posting // its distinct (term, place) pairs, in order of first use
}

// posting is a term at a place of a page: section*3 + field, where field
// is 0 for the title (section 0), 1 for a heading and 2 for body text.
type posting struct {
	term  string
	place int
}

// docsPerShard is how many pages share a text shard: the ten results a
// query shows load at most ten shards, small enough to load at once.
const docsPerShard = 16

// SearchFile is one script of the index and where it goes in the bundle.
type SearchFile struct {
	Path string
	Data []byte
}

// NewSearchIndex returns an empty index of pages pages.
func NewSearchIndex(pages int) *SearchIndex {
	return &SearchIndex{pages: make([]indexedPage, pages), words: map[string]struct{}{}}
}

// Add sets the entry of page i, under section (the navigation section of
// the page, or ""); stem says the page is in English, whose words are
// indexed under their stems. Pages may be added concurrently, each once;
// a page never added (noindex) stays out of the index.
func (x *SearchIndex) Add(i int, e SearchEntry, section string, stem bool) error {
	if section != "" {
		e.Section = section
	}
	// json.Marshal escapes <, > and &, so "</script>" in page text stays
	// harmless.
	meta, err := json.Marshal([3]string{e.Title, e.URL, e.Section})
	if err != nil {
		return err
	}
	doc, err := json.Marshal(e.Parts)
	if err != nil {
		return err
	}
	own := map[string]struct{}{}
	seen := map[posting]bool{}
	var terms []posting
	add := func(s string, place int) {
		searchTerms(s, stem, func(w, t string) {
			own[w] = struct{}{}
			if p := (posting{t, place}); !seen[p] {
				seen[p] = true
				terms = append(terms, p)
			}
		})
	}
	add(e.Title, 0)
	for j, p := range e.Parts {
		add(p[0], j*3+1)
		add(p[2], j*3+2)
	}
	x.pages[i] = indexedPage{in: true, meta: meta, doc: doc, terms: terms}
	x.mu.Lock()
	defer x.mu.Unlock()
	for w := range own {
		if _, ok := x.words[w]; !ok {
			// A word is a piece of its page's lower-cased text: a copy
			// keeps that text from living as long as the index.
			x.words[strings.Clone(w)] = struct{}{}
		}
	}
	return nil
}

// Files renders the index as its scripts (see SearchIndex), the
// manifest first. Call it once every page was added.
func (x *SearchIndex) Files() ([]SearchFile, error) {
	var metas [][]byte
	var docs [][]byte
	shards := map[string]map[string][]int{} // key -> term -> [page delta, place, ...]
	last := map[string]int{}                // term -> the last page it was seen on
	for _, p := range x.pages {
		if !p.in {
			continue
		}
		n := len(metas)
		metas = append(metas, p.meta)
		docs = append(docs, p.doc)
		for _, t := range p.terms {
			k := shardKey(t.term)
			if shards[k] == nil {
				shards[k] = map[string][]int{}
			}
			prev, ok := last[t.term]
			if !ok {
				prev = 0
			}
			last[t.term] = n
			shards[k][t.term] = append(shards[k][t.term], n-prev, t.place)
		}
	}
	words := make([]string, 0, len(x.words))
	for w := range x.words {
		words = append(words, w)
	}
	slices.Sort(words)
	vocab, err := json.Marshal(strings.Join(words, " "))
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(shards))
	for k := range shards {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	keyList, err := json.Marshal(keys)
	if err != nil {
		return nil, err
	}
	var m strings.Builder
	m.WriteString(`{"v":2,"docs":` + strconv.Itoa(docsPerShard) + `,"shards":`)
	m.Write(keyList)
	m.WriteString(`,"words":`)
	m.Write(vocab)
	m.WriteString(`,"pages":[`)
	for i, meta := range metas {
		if i > 0 {
			m.WriteByte(',')
		}
		m.Write(meta)
	}
	m.WriteString("]}")
	manifest := shardFile("manifest", []byte(m.String()))
	manifest.Path = "_static/search-index.js" // app.js starts loading it with search.js
	files := []SearchFile{manifest}
	for _, k := range keys {
		data, err := json.Marshal(shards[k])
		if err != nil {
			return nil, err
		}
		files = append(files, shardFile("t-"+k, data))
	}
	for n := 0; n*docsPerShard < len(docs); n++ {
		part := docs[n*docsPerShard : min(len(docs), (n+1)*docsPerShard)]
		data := []byte{'['}
		for i, d := range part {
			if i > 0 {
				data = append(data, ',')
			}
			data = append(data, d...)
		}
		files = append(files, shardFile("d-"+strconv.Itoa(n), append(data, ']')))
	}
	return files, nil
}

// shardFile is the script that registers shard name's data with
// search.js, whichever of the two loads first.
func shardFile(name string, data []byte) SearchFile {
	head := fmt.Sprintf("(window.__docsSearchShards=window.__docsSearchShards||{})[%q]=", name)
	b := make([]byte, 0, len(head)+len(data)+3)
	b = append(append(append(b, head...), data...), ";\n"...)
	return SearchFile{Path: "_static/search/" + name + ".js", Data: b}
}
