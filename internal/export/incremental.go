package export

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"sync"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/frame"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/machines"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/site"
)

// Incremental export: a page whose input key (pageKey) is the one the
// earlier export of the deployment recorded is not rendered again; its
// HTML is carried from the earlier archive (bundle.Spool.Carry) and its
// trace replayed (pageTrace). The key is derived from what the render
// reads, never from a list of what might matter:
//
//   - for the whole site (siteKey): the renderer (the running
//     executable's hash), the request (kind, domain, base path,
//     features, limits), every file docs.json's loading read, every path
//     of the source (links resolve against them), every page's key and
//     file, the frame's derived settings (CSP origins, custom CSS and
//     JavaScript), and the files the components read, which are shared
//     by every page;
//   - for the page: its source file, the snippets it read (recorded as
//     it rendered, checked against their content now), the specs' files
//     when it shows an API, and its navigation as the frame draws it
//     (the sidebar of its section and mode, its switchers, pager,
//     eyebrow, directory, footer and meta tags): a neighbour's title
//     changes the pages that show it and no others.
//
// A page is recorded only when nothing of its render escaped its trace
// (inflight), and not at all in an export whose highlighting ran out of
// time. What goes wrong with reuse costs speed, never bytes: a record
// that does not decode, or a key that does not match, means a render.

// rendererVersion is the hash of the running executable: any change to
// the renderer makes every key new.
var rendererVersion = sync.OnceValue(func() string {
	exe, err := os.Executable()
	if err == nil {
		var f *os.File
		if f, err = os.Open(exe); err == nil {
			defer func() { _ = f.Close() }() // read-only: nothing to lose
			h := sha256.New()
			if _, err = io.Copy(h, f); err == nil {
				return hex.EncodeToString(h.Sum(nil))
			}
		}
	}
	// Unknown: a key no other process makes, so nothing is reused.
	return fmt.Sprintf("unknown %d %p", os.Getpid(), &err)
})

// readLog is an fs.FS that notes the files opened through it.
type readLog struct {
	fs.FS
	mu    sync.Mutex
	files map[string]bool
}

func (r *readLog) Open(name string) (fs.File, error) {
	f, err := r.FS.Open(name)
	if err == nil {
		if st, serr := f.Stat(); serr == nil && !st.IsDir() {
			r.note(name)
		}
	}
	return f, err
}

func (r *readLog) note(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.files == nil {
		r.files = map[string]bool{}
	}
	r.files[name] = true
}

// names returns the files noted, with those of also.
func (r *readLog) names(also map[string]string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	set := map[string]bool{}
	for n := range r.files {
		set[n] = true
	}
	for n := range also {
		set[n] = true
	}
	return sortedKeys(set)
}

// incremental is an export's side of reuse: the earlier record, the
// keys of this export's pages, and what the record of this one needs.
type incremental struct {
	prev   *renderRecord // nil: nothing to reuse
	traces []*pageTrace  // by page index: rendered or replayed
	reused []bool        // by page index
	parts  *keyParts     // set by planReuse when there is a record
	// shared notes the files the components read; specs those the
	// specs' loader read.
	shared, specs readLog
	// config hashes the files docs.json's loading read, by name.
	configMu sync.Mutex
	config   map[string]string
}

// configRead notes a file docs.json's loading read.
func (in *incremental) configRead(name string, b []byte, err error) {
	in.configMu.Lock()
	defer in.configMu.Unlock()
	if in.config == nil {
		in.config = map[string]string{}
	}
	in.config[name] = contentHash(string(b), err)
}

// fileHashes hashes the current content of each file of names.
func (j *pipeline) fileHashes(names []string) map[string]string {
	out := make(map[string]string, len(names))
	for _, n := range names {
		b, err := fs.ReadFile(j.src, n)
		out[n] = contentHash(string(b), err)
	}
	return out
}

// writeHashes writes m in name order.
func writeHashes(h hash.Hash, what string, m map[string]string) {
	hashf(h, "%s %d\n", what, len(m))
	for _, k := range sortedKeys(m) {
		hashf(h, "%q %s\n", k, m[k])
	}
}

// siteKey is the part of every page's key the whole site shares. The
// components' and specs' files are not part of it: only pages that use
// components or show an API read them (keyParts), and what specs give
// every page (navigation, CSP origins) is in the key as drawn.
func (j *pipeline) siteKey() ([]byte, error) {
	h := sha256.New()
	hashf(h, "renderer %s\nformat %d\n", rendererVersion(), recordFormat)
	feats := sortedKeys(j.features)
	for i, f := range feats {
		feats[i] = fmt.Sprintf("%s=%v", f, j.features[f])
	}
	hashf(h, "kind %q domain %q base %q features %q paths %q limits %+v\n", j.kind, j.domain, j.base, feats, j.req.Paths, j.e.limits)
	j.inc.configMu.Lock()
	writeHashes(h, "config", j.inc.config)
	j.inc.configMu.Unlock()
	hashf(h, "csp %q css %q js %q\n", j.frame.CSPConnect, j.frame.CustomCSS, j.frame.CustomJS)
	for _, p := range j.pages {
		hashf(h, "page %q %q %q %v\n", p.Key, p.File, p.Out, p.Unlisted)
	}
	err := fs.WalkDir(j.src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		hashf(h, "path %q %v\n", p, d.IsDir())
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list the source: %w", err)
	}
	return h.Sum(nil), nil
}

// pageKeys returns the part of each page's key that is its own but for
// the snippets it reads (pageKey makes the key of it, the site's part,
// the specs' and the snippets'), and whether the page shows an API,
// which makes the specs' files part of its key.
func (j *pipeline) pageKeys() ([]string, []bool) {
	chromes := map[chromeKey]string{}
	chrome := func(s *site.Division, prefix markup.Prefix, m site.Mode) string {
		k := chromeKey{s, prefix, m}
		if c, ok := chromes[k]; ok {
			return c
		}
		sum := sha256.Sum256([]byte(j.frame.Chrome(s, prefix, m).String()))
		chromes[k] = hex.EncodeToString(sum[:])
		return chromes[k]
	}
	out, api := make([]string, len(j.pages)), make([]bool, len(j.pages))
	for i, p := range j.pages {
		h := sha256.New()
		sum, _ := j.read.sums.Load(p.Key)
		hashf(h, "page %q %q %q source %x title %q mode %v line %d unlisted %v\n", p.Key, p.File, p.Out, sum, p.Title, p.Mode, p.BodyLine, p.Unlisted)
		hashf(h, "frontmatter %#v\n", p.FM)
		api[i] = p.API != nil || p.Schema != nil || p.FM.API != "" || p.FM.OpenAPI != "" || p.FM.OpenAPISchema != ""
		if api[i] {
			if p.API != nil {
				hashf(h, "operation %q %q %q\n", p.API.Spec.File, p.API.Method, p.API.Path)
			}
			if p.Schema != nil {
				hashf(h, "schema %q %q\n", p.Schema.Spec.File, p.Schema.Name)
			}
		}
		sec := j.frame.Section(p)
		prefix := markup.RootPrefix(p.Out)
		hashf(h, "chrome %s\n", chrome(sec, prefix, p.Mode))
		if frame.TwoColumns(p) {
			hashf(h, "wide %s\n", chrome(sec, prefix, site.ModeWide))
		}
		if sec != nil {
			hashf(h, "section %q %q %v\n", sec.Label, sec.Lang, englishUI(j.frame.UI(sec)))
		}
		var b markup.Builder
		b.HTML(j.frame.PageSwitchers(markup.Rendered(`<nav class="divisions"></nav>`), sec, prefix, p))
		j.frame.Eyebrow(&b, p)
		j.frame.DownloadSpecLink(&b, prefix, j.frame.UI(sec))
		j.frame.Directory(&b, p, prefix)
		j.frame.Pager(&b, p, prefix)
		j.frame.Footer(&b, sec, prefix)
		noindex := j.mach.Noindex(p)
		b.HTML(j.mach.MetaHTML(p, noindex))
		b.HTML(machines.MDAlternate(p))
		hashf(h, "noindex %v canonical %q\n%s", noindex, j.link.canonicalURL(p.Key, "").String(), b.String())
		out[i] = hex.EncodeToString(h.Sum(nil))
	}
	return out, api
}

type chromeKey struct {
	s      *site.Division
	prefix markup.Prefix
	m      site.Mode
}

// snippetHashes hashes the snippets of read as they are now.
func (j *pipeline) snippetHashes(read map[string]string) map[string]string {
	out := make(map[string]string, len(read))
	for f := range read {
		s, err := j.read.loadSnippet(f)
		out[f] = contentHash(s, err)
	}
	return out
}

// pageKey is the input key of a page: the site's part, the page's own,
// the specs' files' when it shows an API and the components' files'
// when it uses components ("" otherwise), and the snippets it reads with
// their contents' hashes.
func pageKey(site []byte, own, specs, shared string, snippets map[string]string) string {
	h := sha256.New()
	hashf(h, "%x %s %s %s\n", site, own, specs, shared)
	writeHashes(h, "snippets", snippets)
	return hex.EncodeToString(h.Sum(nil))
}

// keyParts are what a page's key is made of besides what its render
// read (pageTrace).
type keyParts struct {
	site          []byte
	own           []string
	api           []bool
	specs, shared string
}

// key is page i's key, for a render that read snippets and used
// components (or not). Both come from the earlier render when a page is
// checked for reuse: reading another snippet, or starting to use
// components, takes a change to the page's source or to a snippet it
// read, which changes the key anyway.
func (k *keyParts) key(i int, t *pageTrace) string {
	specs, shared := "", ""
	if k.api[i] {
		specs = k.specs
	}
	if t.Components {
		shared = k.shared
	}
	return pageKey(k.site, k.own[i], specs, shared, t.Snippets)
}

// keyParts computes the parts of the keys, with the shared files and
// specs' files of prev (if not nil) besides those read so far.
func (j *pipeline) keyParts(prev *renderRecord, own []string, api []bool) (*keyParts, map[string]string, map[string]string, error) {
	var prevShared, prevSpecs map[string]string
	if prev != nil {
		prevShared, prevSpecs = prev.Shared, prev.Specs
	}
	shared := j.fileHashes(j.inc.shared.names(prevShared))
	specs := j.fileHashes(j.inc.specs.names(prevSpecs))
	site, err := j.siteKey()
	if err != nil {
		return nil, nil, nil, err
	}
	return &keyParts{site: site, own: own, api: api, specs: filesDigest(specs), shared: filesDigest(shared)}, shared, specs, nil
}

// planReuse computes every page's input key and decides which pages the
// earlier export's record lets this one reuse: those whose key, with
// the snippets they read last time as they are now, is the one
// recorded. A snippet the page did not read then could only be read now
// through a change to its source or to a snippet it read. It runs after
// plan, before any page is rendered.
func (j *pipeline) planReuse() error {
	in := &j.inc
	in.traces = make([]*pageTrace, len(j.pages))
	in.reused = make([]bool, len(j.pages))
	if len(j.req.Previous) > 0 {
		if _, ok := j.out.to.(carrier); ok {
			prev, err := decodeRecord(j.req.Previous)
			if err != nil {
				j.e.log.Debug("earlier render record not used", "error", err)
			}
			in.prev = prev
		}
	}
	if in.prev == nil {
		return nil // the keys are made with the record (writeRecord)
	}
	own, api := j.pageKeys()
	k, _, _, err := j.keyParts(in.prev, own, api)
	if err != nil {
		return err
	}
	in.parts = k
	for i, p := range j.pages {
		raw, ok := in.prev.Pages[p.Key]
		if !ok {
			continue
		}
		t, err := decodeTrace(raw)
		if err != nil {
			j.e.log.Debug("earlier render of a page not used", "page", p.File, "error", err)
			continue
		}
		now := &pageTrace{Snippets: j.snippetHashes(t.Snippets), Components: t.Components} // what it read, as it is now
		if t.HTML.Path == p.Out && in.prev.Keys[p.Key] == k.key(i, now) {
			in.reused[i], in.traces[i] = true, t
		}
	}
	return nil
}

// filesDigest is one hash of files' hashes.
func filesDigest(files map[string]string) string {
	h := sha256.New()
	writeHashes(h, "files", files)
	return hex.EncodeToString(h.Sum(nil))
}

// reuse puts the reused page i into the bundle: its HTML carried from
// the earlier archive, its Markdown copy and feed written, its trace
// replayed.
func (j *pipeline) reuse(i int) error {
	t := j.inc.traces[i]
	if err := j.out.to.(carrier).Carry(t.HTML); err != nil {
		return err
	}
	j.out.record(t.HTML)
	if err := j.out.write(machines.MDOut(j.pages[i].Out), []byte(t.MD)); err != nil {
		return err
	}
	if t.Feed != "" {
		if err := j.out.write(machines.FeedOut(j.pages[i].Out), []byte(t.Feed)); err != nil {
			return err
		}
	}
	if err := j.replay(i, t); err != nil {
		return err
	}
	t.settle()
	return nil
}

// settleCarried renders again, after the pages, each reused page whose
// archive group will not be copied from the earlier archive (a group
// with a changed file): the archive needs its bytes. A page's render is
// the same bytes as its earlier one, since its inputs are; one that is
// not fails the export rather than make an archive that differs from a
// full export's.
func (j *pipeline) settleCarried(ctx context.Context) error {
	in := &j.inc
	if in.prev == nil {
		return nil
	}
	copied := bundle.CopiedGroups(in.prev.Files, j.out.files)
	var redo []int
	for i, ok := range in.reused {
		if ok && !copied[j.pages[i].Out] {
			redo = append(redo, i)
		}
	}
	bufs := sync.Pool{New: func() any { return new(renderBuffers) }}
	return parallel(ctx, len(redo), j.e.workers, func(k int) error {
		i := redo[k]
		buf := bufs.Get().(*renderBuffers)
		defer bufs.Put(buf)
		html, err := j.renderPage(ctx, i, buf, &pageTrace{}, true)
		if err != nil {
			return err
		}
		if f := in.traces[i].HTML; html.SHA256 != f.SHA256 || html.Size != f.Size {
			return fmt.Errorf("%s: rendered again for the archive, the page differs from its earlier render with the same inputs", j.pages[i].File)
		}
		return nil
	})
}

// writeRecord hands the Output, if it keeps one, the record of this
// export for the next: files is the manifest's list.
func (j *pipeline) writeRecord(files []bundle.File) error {
	if !j.recording() {
		return nil
	}
	if j.hl.Plain() > 0 {
		return nil // some pages are plain for want of time: nothing is sure to be as a full render makes it
	}
	in := &j.inc
	own, api := j.pageKeys()
	if in.parts != nil {
		own, api = in.parts.own, in.parts.api
	}
	// Made again: the render may have read shared files and specs the
	// plan had not.
	k, shared, specs, err := j.keyParts(in.prev, own, api)
	if err != nil {
		return err
	}
	rec := &renderRecord{Format: recordFormat, Files: files, Keys: map[string]string{}, Pages: map[string][]byte{}, Shared: shared, Specs: specs}
	for i, t := range in.traces {
		if t == nil || t.raw == nil {
			continue
		}
		rec.Keys[j.pages[i].Key] = k.key(i, t)
		rec.Pages[j.pages[i].Key] = t.raw
	}
	data, err := encodeRecord(rec)
	if err != nil {
		return err
	}
	j.out.to.(Sidecarer).SetSidecar(data)
	return nil
}

// reusedCount is how many pages the export reused.
func (in *incremental) reusedCount() int {
	n := 0
	for _, r := range in.reused {
		if r {
			n++
		}
	}
	return n
}

// hashf writes a formatted line into h, which never fails to write.
func hashf(h hash.Hash, format string, args ...any) { _, _ = fmt.Fprintf(h, format, args...) }

// recording reports whether the export keeps a record for the next.
func (j *pipeline) recording() bool {
	_, ok := j.out.to.(Sidecarer)
	return ok
}
