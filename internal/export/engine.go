package export

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/yuin/goldmark"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/apipages"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/csp"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/deploy"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/frame"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/machines"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/site"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/source"
)

// Options configures an Engine.
type Options struct {
	// Workers is how many pages render at once; 0 means GOMAXPROCS.
	Workers int
	// Logger receives warnings about skipped navigation entries and broken
	// references; nil discards them.
	Logger hclog.Logger
	// Limits bound what one export reads; zero fields take DefaultLimits.
	Limits Limits
}

// Engine exports docs sources to static sites. It is safe for concurrent
// use: each export keeps its state in its own pipeline.
type Engine struct {
	workers int
	log     hclog.Logger
	md      goldmark.Markdown
	limits  Limits
	// evaluators run custom components, in processes kept between
	// exports (an idle one ends on its own).
	evaluators *mdx.Evaluators
	// rendered, when set (by tests), is told of each page rendered
	// rather than reused.
	rendered func(key string)
}

// New returns an Engine.
func New(opts Options) *Engine {
	e := &Engine{workers: opts.Workers, log: opts.Logger, md: mdx.NewMarkdown(), limits: opts.Limits.WithDefaults()}
	if e.workers <= 0 {
		e.workers = runtime.GOMAXPROCS(0)
	}
	e.evaluators = mdx.NewEvaluators(e.limits.ComponentMemory, e.workers)
	if e.log == nil {
		e.log = hclog.NewNullLogger()
	}
	return e
}

// Close ends the engine's component evaluator processes; exports still
// running fail their remaining components. An engine that is not closed
// leaves its idle processes to end on their own (jsx.DefaultIdle).
func (e *Engine) Close() { e.evaluators.Close() }

// features decides what a bundle of this kind may use. Offline search is
// built into every bundle; the network-reaching features follow the kind.
// The API playground sends only what the reader asks for, to the spec's
// own servers, so an air-gapped deployment may opt in to it alone.
func features(k Kind, requested []string) (map[string]bool, error) {
	f := map[string]bool{"search": true, "assistant": false, "analytics": false, "playground": k != KindAirGapped}
	if err := deploy.CheckKnown(requested); err != nil {
		return nil, &docsjson.InputError{Msg: err.Error()}
	}
	switch k {
	case KindCloud:
		f["assistant"], f["analytics"] = true, true
	case KindClientHosted:
		for _, name := range requested {
			f[name] = true
		}
	case KindAirGapped:
		f["playground"] = slices.Contains(requested, "playground")
	}
	return f, nil
}

// cleanDomain accepts a bare host or a URL and returns the host, since the
// domain only ever builds https://<domain>/<path> canonical URLs.
func cleanDomain(d string) (string, error) {
	d = strings.TrimSpace(d)
	d = strings.TrimPrefix(strings.TrimPrefix(d, "https://"), "http://")
	d = strings.TrimSuffix(d, "/")
	if d == "" || strings.ContainsAny(d, " /\\\"'<>?#") {
		return "", &docsjson.InputError{Msg: fmt.Sprintf("invalid domain %q: want a host name such as docs.example.com", d)}
	}
	return d, nil
}

// CleanBasePath is deploy.CleanBasePath: the path a deployment is served
// under, as "/a/b" or "" for the root.
func CleanBasePath(p string) (string, error) { return deploy.CleanBasePath(p) }

// Export renders req into outDir, which must exist and be empty, writes
// manifest.json there and returns the manifest. progress, if not nil, is
// called as pages finish, never concurrently and with Done increasing. An
// error means the export failed; its message is meant for the docs author.
func (e *Engine) Export(ctx context.Context, req Request, outDir string, progress func(Progress)) (*bundle.Manifest, error) {
	return e.ExportTo(ctx, req, DirOutput(outDir), progress)
}

// ExportTo is Export into any Output: the bundle's files, then its
// manifest, go to out.
func (e *Engine) ExportTo(ctx context.Context, req Request, out Output, progress func(Progress)) (*bundle.Manifest, error) {
	if req.Source == nil {
		return nil, errors.New("export: no docs source")
	}
	kind, err := deploy.ParseKind(string(req.Kind))
	if err != nil {
		return nil, &docsjson.InputError{Msg: err.Error()}
	}
	feats, err := features(kind, req.Features)
	if err != nil {
		return nil, err
	}
	domain, err := cleanDomain(req.Domain)
	if err != nil {
		return nil, err
	}
	base, err := CleanBasePath(req.BasePath)
	if err != nil {
		return nil, &docsjson.InputError{Msg: err.Error()}
	}
	if progress == nil {
		progress = func(Progress) {}
	}
	src, closeSrc, err := source.Confine(req.Source)
	if err != nil {
		return nil, err
	}
	defer closeSrc()
	src = source.WithIgnore(src)
	j := &pipeline{e: e, req: req, src: src, kind: kind, domain: domain, base: base, features: feats, out: &bundleOut{to: out}, progress: progress}
	j.warnings.sink, j.warnings.log = req.Warn, e.log
	j.budget.Limits = e.limits
	j.hl = mdx.NewHighlightBudget(e.limits.HighlightTime)
	j.gap = &offliner{base: base, warn: j.warnings.as(WarnRemote), budget: &j.budget, out: j.out}
	j.read = &reader{src: src, limits: e.limits, budget: &j.budget, workers: e.workers, warn: j.warnings.as(WarnConfig), configRead: j.inc.configRead}
	// The components' modules are kept for every page once read: what
	// they read is part of every page's key.
	j.comps = mdx.NewComponents(func(file string) (string, error) {
		j.inc.shared.note(file)
		return j.read.loadSnippet(file)
	}, e.limits.ComponentTime, e.evaluators)
	j.warnings.untraced = j.flight.taint
	defer j.comps.Close()
	start := time.Now()
	if err := j.plan(ctx); err != nil {
		return nil, err
	}
	// An air-gapped playground sends only to the specs' own servers; the
	// pages' CSP admits exactly those.
	j.frame.CSPConnect = j.playgroundConnectOrigins(ctx)
	j.frame.CustomCSS, j.frame.CustomJS = j.customCSS(), j.customJS()
	if j.features["analytics"] {
		j.frame.CSPConnect = append(j.frame.CSPConnect, csp.WebOrigin("https://"+j.domain))
	}
	if err := j.planReuse(); err != nil {
		return nil, err
	}
	planned := time.Now()
	if err := j.run(ctx); err != nil {
		return nil, err
	}
	if n := j.hl.Plain(); n > 0 {
		j.warnings.add(WarnLimit, "%d code blocks are shown without syntax highlighting: highlighting this export would take more than its limit of %s (limits.highlightTime), counted as work (rule runs), not time",
			n, e.limits.HighlightTime)
	}
	rendered := time.Now()
	m, err := j.finish(ctx)
	if err != nil {
		return nil, err
	}
	e.log.Debug("export done", "pages", m.PageCount, "reused", j.inc.reusedCount(), "files", len(m.Files), "plan", planned.Sub(start),
		"render", rendered.Sub(planned), "finish", time.Since(rendered))
	return m, nil
}

// plan reads docs.json and the pages and decides what to export.
func (j *pipeline) plan(ctx context.Context) error {
	cfg, err := j.read.loadConfig(ctx)
	if err != nil {
		return err
	}
	j.cfg = cfg
	j.api = apipages.NewPages(&cfg.API.Settings, j.features["playground"], j.kind == KindAirGapped, j.warnings.as(WarnAPI))
	j.api.Highlight = j.hl
	all, err := site.ListPages(j.src, j.e.limits.MaxFiles, j.warnings.as(WarnContent))
	if err != nil {
		return err
	}
	onDisk := func(k string) bool { _, ok := all[k]; return ok }
	// What the specs' loader reads is part of the key of every page
	// that shows an API.
	j.inc.specs.FS = j.src
	gen := newAPIGen(openapi.NewSpecs(&j.inc.specs, site.SkipDir), onDisk, j.warnings.detail)
	j.tree = site.Build(cfg, onDisk, gen)
	gen.Load(cfg.API.OpenAPI) // a spec of api.openapi that does not parse is reported even if unused
	if len(j.tree.Sections) == 0 {
		j.tree.ListAll(sortedKeys(all))
	}
	if len(j.tree.BadIcons) > 0 {
		j.warnings.add(WarnNavigation, "docs.json: %d navigation entries have an icon or tag of no documented form (an icon is a name or {\"name\", \"style\"}, a tag a text); shown without it: %s",
			len(j.tree.BadIcons), listSome(j.tree.BadIcons))
	}
	if len(j.tree.Missing) > 0 {
		j.warnings.add(WarnNavigation, "docs.json: %d navigation entries name missing files and are skipped: %s", len(j.tree.Missing), strings.Join(j.tree.Missing, ", "))
	}
	keys, err := j.selectPages(all, gen)
	if err != nil {
		return err
	}
	j.byKey = make(map[string]*page, len(keys))
	pages, err := j.read.readAll(keys, all)
	if err != nil {
		return err
	}
	pages = j.addAPIPages(pages, gen)
	j.pages = pages
	for _, p := range pages {
		j.byKey[p.Key] = p
		_, listed := j.tree.SectionOf[p.Key]
		p.Unlisted = !listed
	}
	j.tree.Prune(func(k string) bool { _, ok := j.byKey[k]; return ok })
	j.link = newLinker(j.src, j.domain, j.byKey, all)
	j.link.base = j.base
	j.link.redirects = redirectSources(j.cfg.Redirects, j.base)
	j.link.patterns = redirectPatterns(j.cfg.Redirects, j.base, j.warnings.as(WarnRedirect))
	j.link.warn = j.warnings.as(WarnLink)
	j.link.noted = j.flight.noted
	j.untrusted = &untrusted{md: j.e.md, link: j.link, warn: j.warnings.as(WarnRemote), mdFor: func(key string) goldmark.Markdown {
		if p := j.byKey[key]; p != nil {
			return j.e.markdownIn(j.frame.PageUI(p))
		}
		return j.e.md
	}}
	j.frame = frame.New(frame.Options{Config: j.cfg, Tree: j.tree, ByKey: j.byKey, Target: j.link.target, Features: j.features,
		AirGapped: j.kind == KindAirGapped, Domain: j.domain, Warn: j.warnings.as(WarnConfig), Markdown: j.untrusted.mdHTML, Offline: j.gap.offline})
	j.mach = machines.NewFiles(machines.Options{Config: j.cfg, Tree: j.tree, Pages: j.pages, ByKey: j.byKey, Target: j.link.target,
		Canonical: j.link.canonical, CanonicalURL: j.link.canonicalURL, Snippet: j.read.loadSnippet, AirGapped: j.kind == KindAirGapped,
		Source: j.src, UI: j.frame.PageUI})
	j.planSpecDownload(gen.named)
	return j.planStatic()
}

// selectPages returns the keys to export: the requested paths, or every
// page of the navigation plus the pages that exist only on disk.
func (j *pipeline) selectPages(all map[string]string, gen *apiGen) ([]string, error) {
	if len(j.req.Paths) > 0 {
		if err := j.e.checkPaths(j.src, j.req.Paths); err != nil {
			return nil, err
		}
		set := map[string]bool{}
		for _, p := range j.req.Paths {
			k, _ := docsjson.CleanPagePath(p)
			set[k] = true
		}
		return sortedKeys(set), nil
	}
	if len(all) == 0 && len(gen.pages) == 0 {
		msg := "no pages to export: the source has no .mdx or .md pages"
		if n := len(j.tree.Missing); n > 0 {
			msg = fmt.Sprintf("no pages to export: %d navigation entries name missing files: %s", n, strings.Join(j.tree.Missing, ", "))
		}
		return nil, &docsjson.InputError{Msg: msg}
	}
	return sortedKeys(all), nil
}

// run renders every page with a pool of workers.
func (j *pipeline) run(ctx context.Context) error {
	// Done and Total count pages, which callers show as the page count;
	// the shared files written afterwards take a fraction of the time.
	j.total = len(j.pages)
	j.search = machines.NewSearchIndex(len(j.pages))
	// The pages' text leaves memory shard by shard as the pages render.
	j.search.StreamText(func(f machines.SearchFile) error { return j.out.write(f.Path, f.Data) })
	bufs := sync.Pool{New: func() any { return new(renderBuffers) }}
	err := parallel(ctx, len(j.pages), j.e.workers, func(i int) error {
		if j.inc.reused[i] {
			if err := j.reuse(i); err != nil {
				return err
			}
			j.step(1)
			return nil
		}
		buf := bufs.Get().(*renderBuffers)
		defer bufs.Put(buf)
		t := &pageTrace{}
		key := j.pages[i].Key
		j.flight.begin(key, t)
		html, err := j.renderPage(ctx, i, buf, t, false)
		j.flight.end(key)
		if err != nil {
			return err
		}
		t.HTML = html
		j.inc.traces[i] = t
		if j.recording() && t.reusable() {
			// Encoded here, on the worker: a re-export encodes only
			// the pages it renders, and on every core.
			if t.raw, err = encodeTrace(t); err != nil {
				return err
			}
		}
		if j.e.rendered != nil {
			j.e.rendered(key)
		}
		if err := j.apply(i, t); err != nil {
			return err
		}
		if j.recording() {
			t.settle()
		} else {
			j.inc.traces[i] = nil // no record to write: nothing reads it again
		}
		j.step(0)
		return nil
	})
	if err != nil && ctx.Err() != nil {
		return fmt.Errorf("export cancelled: %w", ctx.Err())
	}
	return err
}

// parallel calls fn for 0..n-1 on up to workers goroutines and returns the
// first error. After an error or cancellation no further call starts.
func parallel(ctx context.Context, n, workers int, fn func(i int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan int)
	var wg sync.WaitGroup
	var once sync.Once
	var firstErr error
	for w := 0; w < min(workers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := fn(i); err != nil {
					once.Do(func() { firstErr = err; cancel() })
				}
			}
		}()
	}
feed:
	for i := 0; i < n; i++ {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// step reports one more finished page, reused (1) or rendered (0). The lock keeps calls
// ordered, so a poller never sees progress go backwards.
func (j *pipeline) step(reused int) {
	j.progMu.Lock()
	defer j.progMu.Unlock()
	j.done++
	j.reused += reused
	j.progress(Progress{Done: j.done, Total: j.total, Reused: j.reused})
}

func (j *pipeline) logBroken() {
	if len(j.link.broken) == 0 {
		return
	}
	refs := sortedKeys(j.link.broken)
	if len(refs) > 20 {
		refs = append(refs[:20], fmt.Sprintf("and %d more", len(j.link.broken)-20))
	}
	j.warnings.add(WarnLink, "%d references resolve to no page or file and are left as written: %s", len(j.link.broken), strings.Join(refs, "; "))
}
