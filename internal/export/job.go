package export

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/apipages"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
)

// job is the state of one export.
type job struct {
	e        *Engine
	req      Request
	src      fs.FS // req.Source confined to its root (see confine)
	budget   budget
	warnings warnings
	kind     Kind
	domain   string
	features map[string]bool
	outDir   string
	progress func(Progress)

	progMu      sync.Mutex
	done, total int

	cfg   *config
	api   *apipages.Pages // writes the generated parts of API pages
	tree  *navTree
	pages []*page // sorted by key
	byKey map[string]*page
	link  *linker
	order map[string]int // position in reading order

	chromes  sync.Map // chromeKey -> string
	dirs     sync.Map // output directories already created
	snippets sync.Map // snippet file -> contents

	logoLight, logoDark, favicon markup.URL // bundle paths relative to the root, empty when absent

	// cspConnect are origins air-gapped pages may send requests to beyond
	// the bundle: the API playground's servers, when it is enabled. Set
	// it before pages render; ContentSecurityPolicy takes it.
	cspConnect []string

	filesMu sync.Mutex
	files   []bundle.File
	entries []searchEntry // one per page, filled by the workers
}

// renderBuffers are reused by one worker across pages.
type renderBuffers struct {
	html bytes.Buffer
	page markup.Builder
}

// readAll loads the selected pages in parallel, keeping the order of keys.
func (j *job) readAll(keys []string, all map[string]string) ([]*page, error) {
	pages := make([]*page, len(keys))
	errs := make([]error, len(keys))
	// Every page is read so that the error reported is the first in key
	// order, the same on every run.
	_ = parallel(context.Background(), len(keys), j.e.workers, func(i int) error {
		pages[i], errs[i] = j.readPage(keys[i], all[keys[i]])
		return nil
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return pages, nil
}

// planStatic settles the reading order and the logo and favicon paths.
func (j *job) planStatic() error {
	// Pages hidden by their frontmatter keep their URL but leave the
	// reading order, as they leave the sidebar.
	order := j.tree.order[:0]
	for _, k := range j.tree.order {
		if !j.byKey[k].fm.Hidden {
			order = append(order, k)
		}
	}
	j.tree.order = order
	j.order = make(map[string]int, len(j.tree.order))
	for i, k := range j.tree.order {
		j.order[k] = i
	}
	for _, f := range []struct {
		ref string
		to  *markup.URL
	}{{j.cfg.Logo.Light, &j.logoLight}, {j.cfg.Logo.Dark, &j.logoDark}, {string(j.cfg.Favicon), &j.favicon}} {
		if f.ref == "" {
			continue
		}
		t, ok := j.link.target("index", f.ref)
		if !ok || hasScheme(t.String()) {
			j.warn("docs.json: the logo or favicon %q is not a file of the source; left out", f.ref)
			continue
		}
		*f.to = t
	}
	if j.logoLight.Empty() {
		j.logoLight = j.logoDark
	}
	if j.logoDark.Empty() {
		j.logoDark = j.logoLight
	}
	return nil
}

func (j *job) loadSnippet(file string) (string, error) {
	if v, ok := j.snippets.Load(file); ok {
		return v.(string), nil
	}
	b, err := j.readSource(file, "snippet", j.e.limits.MaxPageBytes)
	if err != nil {
		var ie *InputError
		if errors.As(err, &ie) {
			j.warn("%s", ie.Msg)
		}
		return "", fmt.Errorf("snippet %s: %w", file, err)
	}
	j.snippets.Store(file, string(b))
	return string(b), nil
}

// section is the navigation section a page lives in; pages outside the
// navigation borrow the first section so they still offer a way around.
func (j *job) section(p *page) *division {
	if s, ok := j.tree.sectOf[p.key]; ok {
		return s
	}
	return j.firstSection()
}

func (j *job) renderPage(i int, buf *renderBuffers) (err error) {
	p := j.pages[i]
	defer func() {
		// A parser bug on odd input must fail one export, not the server.
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: render failed: %v", p.file, r)
		}
	}()
	prefix := markup.RootPrefix(p.out)
	ap := j.apiPage(p)
	var mdxPanel markup.HTML
	if p.api == nil && p.fm.API != "" {
		// Reads the source before it is freed.
		mdxPanel = j.api.MDXPanel(ap, mdx.ParamFields(string(p.body), j.loadSnippet))
	}
	md := mdx.Bound(mdx.Preprocess(string(p.body), j.loadSnippet))
	p.body = nil // the source is no longer needed; large sites free it as they go
	buf.html.Reset()
	hs, err := mdx.ToHTML(j.e.md, []byte(md), &buf.html)
	if err != nil {
		return fmt.Errorf("%s: render: %w", p.file, err)
	}
	content := j.link.rewrite(buf.html.Bytes(), p.key, prefix)
	var apiTop, apiRest markup.HTML
	if p.api != nil {
		var apiHs []mdx.Heading
		apiTop, apiRest, apiHs = j.api.Endpoint(p.api, ap)
		hs = append(hs, apiHs...)
	} else if p.schema != nil {
		var apiHs []mdx.Heading
		apiTop, apiRest, apiHs = j.api.Schema(p.schema, ap)
		hs = append(hs, apiHs...)
	}
	if !p.fm.Noindex {
		j.entries[i] = newSearchEntry(p, hs, content)
	}
	if j.kind == KindAirGapped {
		content = j.offlineBytes(p.file, content)
		// Spec descriptions are Markdown too: an image or embed in them
		// must not load from outside the bundle either.
		apiTop = j.offline(p.file, apiTop)
		apiRest = j.offline(p.file, apiRest)
	}
	b := &buf.page
	b.Reset()
	b.Grow(len(content) + 32<<10)
	desc := p.fm.Description
	if desc == "" {
		desc = j.cfg.Description
	}
	j.head(b, p.title+" - "+j.cfg.Name, desc, j.link.canonicalURL(p.key, ""), prefix, p.fm.Noindex, p.fm.metaTags())
	b.HTML(markCurrent(j.chrome(j.section(p), prefix), prefix, p.out))
	b.Markup(`<main id="content" class="main"><article class="page"><header class="page-head">`)
	j.eyebrow(b, p)
	b.Markup(`<h1>`)
	b.Text(p.title)
	b.Markup(`</h1>`)
	if p.fm.Description != "" {
		b.Markup(`<p class="lead">`)
		b.Text(p.fm.Description)
		b.Markup(`</p>`)
	}
	b.Markup(`</header>`)
	if p.api == nil {
		apiEndpoint(b, p.fm, j.cfg.API.MDX.Server)
		j.api.MDXAuth(b, ap)
	}
	b.HTML(apiTop)
	b.Markup(`<div class="prose">`)
	// The page's own content: goldmark's output of the author's MDX,
	// with links rewritten (and remote content replaced when air-gapped).
	b.HTML(markup.Rendered(string(content)))
	b.Markup(`</div>`)
	b.HTML(mdxPanel)
	j.directory(b, p, prefix)
	b.HTML(apiRest)
	j.pager(b, p, prefix)
	b.Markup(`</article>`)
	j.footer(b, j.section(p), prefix)
	b.Markup(`</main>`)
	toc(b, hs)
	tail(b, prefix)
	return j.writeFile(p.out, []byte(b.String()))
}

// apiEndpoint shows the method and path of an API reference page; a
// path of an "api" page gets the api.mdx.server base URL in front.
func apiEndpoint(b *markup.Builder, fm frontmatter, server apipages.ServerList) {
	spec := fm.API
	if spec == "" {
		spec = fm.OpenAPI
	}
	method, route, ok := strings.Cut(strings.TrimSpace(spec), " ")
	if !ok {
		return
	}
	route = strings.TrimSpace(route)
	if fm.API != "" && len(server) > 0 && strings.HasPrefix(route, "/") {
		route = openapi.JoinURL(server[0], route)
	}
	m := strings.ToUpper(method)
	b.Markup(`<div class="endpoint"><span`)
	b.Attr("class", "method method-"+strings.ToLower(m))
	b.Markup(`>`)
	b.Text(m)
	b.Markup(`</span><code>`)
	b.Text(strings.TrimSpace(route))
	b.Markup(`</code></div>`)
}

func (j *job) pager(b *markup.Builder, p *page, prefix markup.Prefix) {
	i, ok := j.order[p.key]
	if !ok {
		return
	}
	b.Markup(`<nav class="pager" aria-label="Previous and next">`)
	if i > 0 {
		q := j.byKey[j.tree.order[i-1]]
		b.Markup(`<a class="prev" rel="prev" href="`)
		b.URL(markup.Path(prefix, q.out, ""))
		b.Markup(`"><span>Previous</span>`)
		b.Text(q.navTitle())
		b.Markup(`</a>`)
	}
	if i+1 < len(j.tree.order) {
		q := j.byKey[j.tree.order[i+1]]
		b.Markup(`<a class="next" rel="next" href="`)
		b.URL(markup.Path(prefix, q.out, ""))
		b.Markup(`"><span>Next</span>`)
		b.Text(q.navTitle())
		b.Markup(`</a>`)
	}
	b.Markup(`</nav>`)
}

// writeFile writes one bundle file and records it for the manifest.
func (j *job) writeFile(rel string, data []byte) error {
	if err := j.mkdirFor(rel); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(j.outDir, filepath.FromSlash(rel)), data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	sum := sha256.Sum256(data)
	j.record(bundle.File{Path: rel, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])})
	return nil
}

// copyFile streams a source file into the bundle, hashing on the way.
func (j *job) copyFile(rel string) error {
	in, err := j.src.Open(rel)
	if err != nil {
		return fmt.Errorf("copy %s: %w", rel, err)
	}
	defer in.Close()
	lim := j.e.limits.MaxAssetBytes
	if st, err := in.Stat(); err == nil && st.Size() > lim {
		return tooLarge(rel, "the file", st.Size(), lim)
	}
	if j.kind == KindAirGapped && strings.EqualFold(path.Ext(rel), ".css") {
		return j.copyOfflineCSS(rel, in, lim)
	}
	if err := j.mkdirFor(rel); err != nil {
		return err
	}
	out, err := os.OpenFile(filepath.Join(j.outDir, filepath.FromSlash(rel)), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("copy %s: %w", rel, err)
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(out, h), io.LimitReader(in, lim+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("copy %s: %w", rel, err)
	}
	if n > lim {
		return tooLarge(rel, "the file", n, lim)
	}
	if err := j.budget.take(rel, n); err != nil {
		return err
	}
	j.record(bundle.File{Path: rel, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))})
	return nil
}

func (j *job) record(f bundle.File) {
	j.filesMu.Lock()
	j.files = append(j.files, f)
	j.filesMu.Unlock()
}

func (j *job) mkdirFor(rel string) error {
	dir := path.Dir(rel)
	if dir == "." {
		return nil
	}
	if _, ok := j.dirs.Load(dir); ok {
		return nil
	}
	if err := os.MkdirAll(filepath.Join(j.outDir, filepath.FromSlash(dir)), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	j.dirs.Store(dir, true)
	return nil
}
