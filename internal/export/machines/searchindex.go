package machines

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"maps"
	"math"
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
// is left once every page is done is to join the pieces. With StreamText
// a text shard is handed out as soon as its pages are in, so the pages'
// text (on a site of 25,000 pages, about 40 MB) does not wait for Write.
type SearchIndex struct {
	pages []indexedPage // per page; in is false for a page kept out

	mu    sync.Mutex
	words map[string]struct{} // the distinct lower-case words of every page
	// terms numbers the distinct terms of every page, and names holds
	// them by number: a page keeps numbers, so that neither a copy of
	// each term per page nor the page's lower-cased text (which a term
	// cut from it would hold) lives until Files. On a site of 25,000
	// pages that was most of the export's live heap.
	terms map[string]int32
	names []string

	// put receives the text shards as they fill (StreamText), or nil.
	put func(SearchFile) error
	// settled counts the pages, from the first, that are added or
	// skipped and whose text is in a shard handed out or in pending;
	// shards counts the text shards made.
	settled, shards int
	pending         [][]byte // the texts of the shard being filled
}

// indexedPage is one page's share of the index, encoded by its worker.
type indexedPage struct {
	done  bool // added or skipped
	in    bool
	meta  []byte // [title, url, section]
	doc   []byte // its sections: [[heading, anchor, text], ...]; nil once in a shard
	terms postings
}

// postings are a page's distinct pairs of a term (its number in
// SearchIndex.names) and a place (section*3 + field, where field is 0 for
// the title, in section 0, 1 for a heading and 2 for body text), in order
// of first use, as varints: mostly three or four bytes a pair
// instead of two int32's eight. On a site of 25,000 pages they are what
// the index holds until Write.
type postings []byte

// all yields the pairs of ps.
func (ps postings) all() iter.Seq2[int32, int32] {
	return func(yield func(int32, int32) bool) {
		for len(ps) > 0 {
			term, n := binary.Varint(ps)
			place, m := binary.Varint(ps[n:])
			if n <= 0 || m <= 0 || term < 0 || term > math.MaxInt32 || place < 0 || place > math.MaxInt32 {
				return // never: Add wrote them
			}
			ps = ps[n+m:]
			if !yield(int32(term), int32(place)) {
				return
			}
		}
	}
}

// errIndexTooLarge is an index past what its 32-bit numbers hold; an
// export's limits stop far below.
var errIndexTooLarge = errors.New("search index: more than 2^31 pages, terms or sections")

// num32 is n as one of the index's 32-bit numbers.
func num32(n int) (int32, error) {
	if n < 0 || n > math.MaxInt32 {
		return 0, errIndexTooLarge
	}
	return int32(n), nil
}

// pagePosting is a posting while its page is cut into terms, before the
// term has its number.
type pagePosting struct {
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
	return &SearchIndex{pages: make([]indexedPage, pages), words: map[string]struct{}{}, terms: map[string]int32{}}
}

// StreamText makes the index hand each text shard (d-<n>.js) to put as
// soon as the pages it holds, and every page before them, are added or
// skipped, instead of keeping the text for Write, which then writes only
// the last one. Pages render about in order, so little text waits. Call
// it before the first Add; put may be called from Add's goroutines at
// once, and its error is Add's.
func (x *SearchIndex) StreamText(put func(SearchFile) error) { x.put = put }

// Skip says page i stays out of the index (noindex), so that the text
// shards after it need not wait for Write. A page neither added nor
// skipped stays out too.
func (x *SearchIndex) Skip(i int) error {
	x.mu.Lock()
	x.pages[i].done = true
	ready := x.settleLocked(false)
	x.mu.Unlock()
	return x.hand(ready)
}

// hand gives the shards to put, stopping at its first error.
func (x *SearchIndex) hand(files []SearchFile) error {
	for _, f := range files {
		if err := x.put(f); err != nil {
			return err
		}
	}
	return nil
}

// settleLocked moves the text of the settled pages, in page order, into
// pending and returns the shards it filled; once every page is settled
// (with all, a page not done counts as skipped) pending is made a shard
// even when short. It does nothing without put unless all.
func (x *SearchIndex) settleLocked(all bool) []SearchFile {
	if x.put == nil && !all {
		return nil
	}
	var ready []SearchFile
	for ; x.settled < len(x.pages) && (all || x.pages[x.settled].done); x.settled++ {
		p := &x.pages[x.settled]
		if !p.in {
			continue
		}
		x.pending = append(x.pending, p.doc)
		p.doc = nil
		if len(x.pending) == docsPerShard {
			ready = append(ready, x.textShardLocked())
		}
	}
	if (all || x.settled == len(x.pages)) && len(x.pending) > 0 {
		ready = append(ready, x.textShardLocked())
	}
	return ready
}

// textShardLocked makes pending the next text shard.
func (x *SearchIndex) textShardLocked() SearchFile {
	data := []byte{'['}
	for i, d := range x.pending {
		if i > 0 {
			data = append(data, ',')
		}
		data = append(data, d...)
	}
	f := shardFile("d-"+strconv.Itoa(x.shards), append(data, ']'))
	x.shards++
	x.pending = x.pending[:0]
	return f
}

// Add sets the entry of page i, under section (the navigation section of
// the page, or ""); stem says the page is in English, whose words are
// indexed under their stems. Pages may be added concurrently, each once;
// a page never added (noindex) stays out of the index.
func (x *SearchIndex) Add(i int, e SearchEntry, section string, stem bool) error {
	c, err := CutEntry(e, section, stem)
	if err != nil {
		return err
	}
	return x.AddCut(i, c)
}

// CutPage is a page's entry cut into what the index keeps of it, the
// costly part of Add (stemming), which depends on the page alone: an
// export that reuses a page keeps its CutPage rather than cut it again.
type CutPage struct {
	Meta, Doc []byte   // encoded as Add encodes them
	Words     []string // the page's distinct lower-case words
	Terms     []string // its distinct (term, place) pairs, in order of first use
	Places    []int
}

// CutEntry cuts e as Add would.
func CutEntry(e SearchEntry, section string, stem bool) (CutPage, error) {
	if section != "" {
		e.Section = section
	}
	// json.Marshal escapes <, > and &, so "</script>" in page text stays
	// harmless.
	meta, err := json.Marshal([3]string{e.Title, e.URL, e.Section})
	if err != nil {
		return CutPage{}, err
	}
	doc, err := json.Marshal(e.Parts)
	if err != nil {
		return CutPage{}, err
	}
	own := map[string]struct{}{}
	seen := map[pagePosting]bool{}
	c := CutPage{Meta: meta, Doc: doc}
	add := func(s string, place int) {
		searchTerms(s, stem, func(w, t string) {
			if _, ok := own[w]; !ok {
				own[w] = struct{}{}
				c.Words = append(c.Words, w)
			}
			if p := (pagePosting{t, place}); !seen[p] {
				seen[p] = true
				c.Terms, c.Places = append(c.Terms, t), append(c.Places, place)
			}
		})
	}
	add(e.Title, 0)
	for j, p := range e.Parts {
		add(p[0], j*3+1)
		add(p[2], j*3+2)
	}
	return c, nil
}

// AddCut sets the entry of page i as Add does, from its CutPage, and
// hands on the text shards that filled.
func (x *SearchIndex) AddCut(i int, c CutPage) error {
	x.mu.Lock()
	ready, err := x.addLocked(i, c)
	x.mu.Unlock()
	if err != nil {
		return err
	}
	return x.hand(ready)
}

// addLocked is AddCut's work under the lock: the page's words and terms
// numbered, its entry set, and the text shards that filled.
func (x *SearchIndex) addLocked(i int, c CutPage) ([]SearchFile, error) {
	for _, w := range c.Words {
		if _, ok := x.words[w]; !ok {
			// A word is a piece of its page's lower-cased text: a copy
			// keeps that text from living as long as the index.
			x.words[strings.Clone(w)] = struct{}{}
		}
	}
	terms := make([]byte, 0, 4*len(c.Terms))
	for k, t := range c.Terms {
		n, ok := x.terms[t]
		if !ok {
			var err error
			if n, err = num32(len(x.names)); err != nil {
				return nil, err
			}
			name := strings.Clone(t) // as the words above
			x.terms[name] = n
			x.names = append(x.names, name)
		}
		place, err := num32(c.Places[k])
		if err != nil {
			return nil, err
		}
		terms = binary.AppendVarint(binary.AppendVarint(terms, int64(n)), int64(place))
	}
	x.pages[i] = indexedPage{done: true, in: true, meta: c.Meta, doc: c.Doc, terms: bytes.Clone(terms)}
	return x.settleLocked(false), nil
}

// Files renders the index as its scripts (see SearchIndex), the
// manifest first. Call it once every page was added.
func (x *SearchIndex) Files() ([]SearchFile, error) {
	var files []SearchFile
	err := x.Write(func(f SearchFile) error {
		files = append(files, f)
		return nil
	})
	return files, err
}

// Write renders the index as Files does, handing each script to put as
// soon as it is made, so that the whole index never sits in memory as
// scripts besides the pages' postings. It stops at put's first error.
func (x *SearchIndex) Write(put func(SearchFile) error) error {
	// Each term's postings ([page delta, place, ...]) go into one flat
	// buffer, counted first so that it is allocated once at its size:
	// a slice per term grown by append would hold up to twice as much.
	count := make([]int, len(x.names)+1)
	pages := 0
	for _, p := range x.pages {
		if !p.in {
			continue
		}
		pages++
		for term := range p.terms.all() {
			count[term+1] += 2
		}
	}
	for i := 1; i < len(count); i++ {
		count[i] += count[i-1]
	}
	flat := make([]int32, count[len(count)-1])
	next := slices.Clone(count[:len(x.names)])
	last := make([]int32, len(x.names)) // term -> the last page it was seen on (0 before)
	metas := make([][]byte, 0, pages)
	for _, p := range x.pages {
		if !p.in {
			continue
		}
		n, err := num32(len(metas))
		if err != nil {
			return err
		}
		metas = append(metas, p.meta)
		for term, place := range p.terms.all() {
			flat[next[term]], flat[next[term]+1] = n-last[term], place
			next[term] += 2
			last[term] = n
		}
	}
	byKey := map[string][]int{} // shard key -> its terms
	for n, name := range x.names {
		if count[n] < count[n+1] {
			k := shardKey(name)
			byKey[k] = append(byKey[k], n)
		}
	}
	words := make([]string, 0, len(x.words))
	for w := range x.words {
		words = append(words, w)
	}
	slices.Sort(words)
	vocab, err := json.Marshal(strings.Join(words, " "))
	if err != nil {
		return err
	}
	keys := slices.AppendSeq(make([]string, 0, len(byKey)), maps.Keys(byKey)) // [], never null
	slices.Sort(keys)
	keyList, err := json.Marshal(keys)
	if err != nil {
		return err
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
	if err := put(manifest); err != nil {
		return err
	}
	for _, k := range keys {
		shard := make(map[string][]int32, len(byKey[k]))
		for _, t := range byKey[k] {
			shard[x.names[t]] = flat[count[t]:count[t+1]]
		}
		data, err := json.Marshal(shard) // sorted by term, as encoding/json writes maps
		if err != nil {
			return err
		}
		if err := put(shardFile("t-"+k, data)); err != nil {
			return err
		}
	}
	// The text shards StreamText has not handed out yet.
	x.mu.Lock()
	rest := x.settleLocked(true)
	x.mu.Unlock()
	for _, f := range rest {
		if err := put(f); err != nil {
			return err
		}
	}
	return nil
}

// shardFile is the script that registers shard name's data with
// search.js, whichever of the two loads first.
func shardFile(name string, data []byte) SearchFile {
	head := fmt.Sprintf("(window.__docsSearchShards=window.__docsSearchShards||{})[%q]=", name)
	b := make([]byte, 0, len(head)+len(data)+3)
	b = append(append(append(b, head...), data...), ";\n"...)
	return SearchFile{Path: "_static/search/" + name + ".js", Data: b}
}
