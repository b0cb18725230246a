package export

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/frame"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/machines"
)

// pageTrace is the recorder of one page's render: everything the render
// did to the export besides writing the page's two files, so that a
// later export whose inputs for the page are the same (inputKey) can
// take the page's HTML from the earlier archive and replay the rest
// (replay), and the site-level files come out as a render would make
// them. A render writes into its trace only; apply hands the trace to
// the export. Fields are exported for the record's encoding (record.go).
type pageTrace struct {
	HTML bundle.File // the page as the manifest lists it
	MD   string      // the page's Markdown copy, which llms-full.txt reads back
	// Feed is the page's RSS feed (a changelog's, machines.Feed), "" for
	// a page without one.
	Feed string
	// Warnings are those of the page's content (components, limits,
	// remote content, cards).
	Warnings []Warning
	// Classes are the class names the page wrote in className, for the
	// site's Tailwind stylesheet.
	Classes []string
	// Search is the page's entry of the offline search index, cut into
	// terms, nil when the page is not indexed.
	Search *machines.CutPage
	// Diagram, Math and Card say the page loads Mermaid, KaTeX or the
	// GitHub card's script, which the bundle then carries.
	Diagram, Math, Card bool
	// Links are the files the page's links name and its references to
	// nothing.
	Links []linkRef
	// Icons are the icon slots the page's frame and content filled, in
	// order: the stylesheet draws each icon used, and warnings count
	// them.
	Icons []frame.IconUse
	// Snippets are the snippet files the page read, with the hash of
	// what each held ("" for one that could not be read).
	Snippets map[string]string
	// Components says the page used custom components, whose modules
	// (the components' files, read once for every page) shape it.
	Components bool

	mu sync.Mutex // Links and tainted are also written by other pages' workers
	// tainted says the render had an effect the trace could not tell
	// apart from other pages' (a warning through a part of the export
	// shared by every page): the page is not recorded, and so always
	// rendered.
	tainted bool
	// raw is the trace encoded for the record (encodeTrace), made once
	// the page is done; nil for a page not to be recorded.
	raw []byte
}

// warn records a warning of the page.
func (t *pageTrace) warn(kind, format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.Warnings = append(t.Warnings, Warning{Kind: kind, Message: fmt.Sprintf(format, args...)})
}

// snippetLoader wraps load so that t records each snippet it reads.
func (t *pageTrace) snippetLoader(load func(string) (string, error)) func(string) (string, error) {
	return func(file string) (string, error) {
		s, err := load(file)
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.Snippets == nil {
			t.Snippets = map[string]string{}
		}
		t.Snippets[file] = contentHash(s, err)
		return s, err
	}
}

// contentHash is how a trace remembers what a file held: the hex SHA-256
// of s, or "" when it could not be read.
func contentHash(s string, err error) string {
	if err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// link records a file or broken reference resolved for the page.
func (t *pageTrace) link(r linkRef) {
	t.mu.Lock()
	t.Links = append(t.Links, r)
	t.mu.Unlock()
}

func (t *pageTrace) taint() {
	t.mu.Lock()
	t.tainted = true
	t.mu.Unlock()
}

// reusable reports whether a later export may replay the trace instead
// of rendering the page: nothing of the render escaped it, and no limit
// made its output depend on the time it took.
func (t *pageTrace) reusable() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.tainted {
		return false
	}
	for _, w := range t.Warnings {
		if w.Kind == WarnLimit {
			return false
		}
	}
	return true
}

// inflight are the traces of the pages being rendered, by page key: an
// effect that reaches the export through a part shared by every page
// goes to all of them (a docs.json link resolved while drawing a frame)
// or taints them all (a warning of unknown origin).
type inflight struct {
	mu    sync.Mutex
	pages map[string]*pageTrace
}

func (f *inflight) begin(key string, t *pageTrace) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.pages == nil {
		f.pages = map[string]*pageTrace{}
	}
	f.pages[key] = t
}

func (f *inflight) end(key string) {
	f.mu.Lock()
	delete(f.pages, key)
	f.mu.Unlock()
}

// taint marks every page being rendered as not reusable.
func (f *inflight) taint() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, t := range f.pages {
		t.taint()
	}
}

// noted routes a reference the linker recorded: to the page it is from
// when that page is being rendered; a docs.json link ("index") to every
// page being rendered, since any of them may have drawn it and all
// share the settings it comes from (their input keys hold docs.json);
// anything else taints the pages being rendered.
func (f *inflight) noted(from string, r linkRef) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if t, ok := f.pages[from]; ok {
		t.link(r)
		return
	}
	for _, t := range f.pages {
		if from == "index" {
			t.link(r)
		} else {
			t.taint()
		}
	}
}

// apply hands a page's trace to the export: its warnings, classes,
// search entry and the assets it needs. A rendered page's links and
// icons already reached the linker and the frame as it was drawn.
func (j *pipeline) apply(i int, t *pageTrace) error {
	for _, w := range t.Warnings {
		j.warnings.put(w.Kind, w.Message)
	}
	j.classes.add(t.Classes)
	if t.Diagram {
		j.diag.any.Store(true)
	}
	if t.Math {
		j.math.any.Store(true)
	}
	if t.Card {
		j.cards.any.Store(true)
	}
	if t.Search != nil {
		if err := j.search.AddCut(i, *t.Search); err != nil {
			return fmt.Errorf("%s: search index: %w", j.pages[i].File, err)
		}
	} else if err := j.search.Skip(i); err != nil { // noindex: out of the index, but done
		return fmt.Errorf("%s: search index: %w", j.pages[i].File, err)
	}
	return nil
}

// settle drops, once t has been applied, what only applying it needed:
// the Markdown copy, the feed, the search entry, warnings, classes,
// links and icons, which the encoded trace (raw) still holds. What is
// kept is what the record's key and the archive's check read later (the
// page's HTML entry, its snippets and component use). Without this, an
// export held every page's Markdown copy and search terms to its end.
func (t *pageTrace) settle() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.MD, t.Feed, t.Search = "", "", nil
	t.Warnings, t.Classes, t.Links, t.Icons = nil, nil, nil, nil
}

// replay is apply for a page taken from the earlier export, with what
// drawing it would have done: its links resolved, its icons drawn and
// its section's sidebar drawn.
func (j *pipeline) replay(i int, t *pageTrace) error {
	p := j.pages[i]
	for _, r := range t.Links {
		j.link.add(r)
	}
	for _, u := range t.Icons {
		j.frame.ReplayIcon(u, p.File)
	}
	j.frame.TouchNav(j.frame.Section(p))
	return j.apply(i, t)
}
