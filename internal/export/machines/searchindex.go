package machines

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
)

// SearchIndex is the offline search index built while the pages render:
// the worker that renders a page encodes its entry and adds its words to
// the vocabulary, so that what is left once every page is done is to
// join the pieces. Encoding the entries and cutting all of their text
// into words after the last page was one single-threaded step at the end
// of every export, and it held each entry's text twice, as strings and
// in the encoding buffer, at the export's memory peak.
type SearchIndex struct {
	entries [][]byte // per page, as JS writes it; nil for a page kept out

	mu    sync.Mutex
	words map[string]struct{} // the distinct lower-case words of every entry
}

// NewSearchIndex returns an empty index of pages pages.
func NewSearchIndex(pages int) *SearchIndex {
	return &SearchIndex{entries: make([][]byte, pages), words: map[string]struct{}{}}
}

// Add sets the entry of page i, under section (the navigation section of
// the page, or ""). Pages may be added concurrently, each once; a page
// never added (noindex) stays out of the index.
func (x *SearchIndex) Add(i int, e SearchEntry, section string) error {
	if section != "" {
		e.Section = section
	}
	// json.Marshal escapes <, > and &, so "</script>" in page text stays
	// harmless.
	enc, err := json.Marshal(e)
	if err != nil {
		return err
	}
	own := map[string]struct{}{}
	add := func(s string) {
		for _, w := range searchWord.FindAllString(strings.ToLower(s), -1) {
			own[w] = struct{}{}
		}
	}
	add(e.Title)
	for _, p := range e.Parts {
		add(p[0])
		add(p[2])
	}
	x.entries[i] = enc
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

// JS renders the index as a script that assigns two globals; a script,
// unlike fetch or XHR, loads from file:// in every browser. The first is
// the entries, the second the vocabulary: every distinct lower-case word
// of the index, sorted and space-separated. app.js matches a query's
// words against it (exactly, by prefix, with a typo) and then looks for
// the words it found in the text, so the browser never has to cut all
// the text into words itself before the first result. Call it once every
// page was added.
func (x *SearchIndex) JS() ([]byte, error) {
	words := make([]string, 0, len(x.words))
	for w := range x.words {
		words = append(words, w)
	}
	slices.Sort(words)
	vocab, err := json.Marshal(strings.Join(words, " "))
	if err != nil {
		return nil, err
	}
	const head, mid, tail = "window.__docsSearchIndex=[", "]\n;\nwindow.__docsSearchWords=", "\n;\n"
	size := len(head) + len(mid) + len(vocab) + len(tail)
	for _, e := range x.entries {
		size += len(e) + 1
	}
	b := make([]byte, 0, size)
	b = append(b, head...)
	first := true
	for _, e := range x.entries {
		if e == nil {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, e...)
	}
	b = append(b, mid...)
	b = append(b, vocab...)
	return append(b, tail...), nil
}
