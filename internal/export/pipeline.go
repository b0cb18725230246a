package export

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/apipages"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/components"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/csp"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/frame"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/machines"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/openapi"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/site"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/source"
)

// pipeline is one export from start to manifest: it plans the pages from
// docs.json and the source, renders them with a pool of workers, and
// writes the shared files and the manifest. What a page is made of comes
// from the values it holds: the reader (source files), the frame (what
// surrounds a page), the API page writer and the link resolver; the
// bundle directory records what is written.
type pipeline struct {
	e        *Engine
	req      Request
	src      fs.FS // req.Source confined to its root (see confine)
	budget   source.Budget
	read     *reader
	warnings warnings
	kind     Kind
	domain   string
	base     string // the base path of the live site (Request.BasePath), or ""
	// specFiles are the specs written to api-specs.zip (planSpecDownload).
	specFiles []string
	features  map[string]bool
	out       *bundleOut
	progress  func(Progress)

	progMu              sync.Mutex
	done, total, reused int

	cfg   *docsjson.Config
	api   *apipages.Pages // writes the generated parts of API pages
	tree  *site.Tree
	pages []*page // sorted by key
	byKey map[string]*page
	link  *linker
	frame *frame.Frame    // writes the page frame
	comps *mdx.Components // the custom components of the source's pages
	diag  diagrams        // whether a page has a Mermaid diagram (diagrams.go)
	cards githubCards     // whether a page loads github.js (github.go)
	math  formulas        // whether a page has a typeset formula (diagrams.go)
	// classes are the class names pages write in className
	// (tailwindcss.go).
	classes utilityClasses
	// hl is the export's highlighting budget (Limits.HighlightTime).
	hl *mdx.HighlightBudget

	search *machines.SearchIndex // filled by the workers, page by page
	mach   *machines.Files       // page.md, llms.txt, robots.txt, sitemap.xml (package machines)
	// gap takes remote content out of an air-gapped bundle (airgap.go);
	// untrusted renders docs.json's and specs' Markdown (links.go).
	gap       *offliner
	untrusted *untrusted

	// inc is the export's reuse of an earlier one (incremental.go);
	// flight the traces of the pages being rendered (trace.go).
	inc    incremental
	flight inflight
}

// renderBuffers are reused by one worker across pages.
type renderBuffers struct {
	html bytes.Buffer
	page markup.Builder
	// out holds the finished page and its Markdown copy while they are
	// written: a page of a large section is a few hundred KB, and a new
	// slice per page was as much garbage again for the collector.
	out []byte
}

// planStatic settles the reading order and the logo and favicon paths.
func (j *pipeline) planStatic() error {
	// Pages hidden by their frontmatter keep their URL but leave the
	// reading order, as they leave the sidebar.
	order := j.tree.Order[:0]
	for _, k := range j.tree.Order {
		if !j.byKey[k].FM.Hidden {
			order = append(order, k)
		}
	}
	j.tree.Order = order
	j.frame.Order = make(map[string]int, len(j.tree.Order))
	for i, k := range j.tree.Order {
		j.frame.Order[k] = i
	}
	for _, f := range []struct {
		field, ref string
		to         *markup.URL
	}{{"logo", j.cfg.Logo.Light, &j.frame.LogoLight}, {"logo", j.cfg.Logo.Dark, &j.frame.LogoDark}, {"favicon", string(j.cfg.Favicon), &j.frame.Favicon}} {
		if f.ref == "" {
			continue
		}
		if t, ok := j.brandURL(f.field, f.ref); ok {
			*f.to = t
		}
	}
	if f := j.frame; f.LogoLight.Empty() {
		f.LogoLight = f.LogoDark
	}
	if f := j.frame; f.LogoDark.Empty() {
		f.LogoDark = f.LogoLight
	}
	return nil
}

// renderPage renders page i and writes its HTML and Markdown copy,
// recording in t everything else the render does to the export. again
// renders a page already in the bundle (carried, settleCarried): only
// its HTML is written, and not listed again. It returns the HTML's entry.
func (j *pipeline) renderPage(ctx context.Context, i int, buf *renderBuffers, t *pageTrace, again bool) (html bundle.File, err error) {
	p := j.pages[i]
	defer func() {
		// A parser bug on odd input must fail one export, not the server.
		if r := recover(); r != nil {
			html, err = bundle.File{}, fmt.Errorf("%s: render failed: %v", p.File, r)
		}
	}()
	work := openapi.NewWork(ctx, openapi.PageWork)
	ap := j.apiPage(p, work)
	load := t.snippetLoader(j.read.loadSnippet)
	prefix := ap.Prefix
	var mdxPanel markup.HTML
	if p.API == nil && p.FM.API != "" {
		// Reads the source before it is freed; the fields are scanned
		// only when the page shows a panel.
		mdxPanel = j.api.MDXPanel(ap, func() []*mdx.ParamField { return mdx.ParamFields(string(p.Body), load) })
	}
	sec := j.frame.Section(p)
	ui := j.frame.UI(sec)
	doc := mdx.PreprocessPageWith(string(p.Body), load, p.File, p.BodyLine,
		mdx.PageOptions{Labels: componentLabels(ui), NoMath: j.cfg.Styling.Latex != nil && !*j.cfg.Styling.Latex})
	// The copy is written next to the page; llms-full.txt reads it back.
	md := j.mach.PageMarkdownWith(ctx, p, load)
	p.Body = nil // the source is no longer needed; large sites free it as they go
	buf.html.Reset()
	hs, err := mdx.ToHTMLWithin(j.e.markdownIn(ui), []byte(mdx.Bound(doc.Markdown)), &buf.html, j.hl)
	if err != nil {
		return bundle.File{}, fmt.Errorf("%s: render: %w", p.File, err)
	}
	// Custom components: a page that uses none returns at once.
	rendered := j.comps.Expand(ctx, &doc, buf.html.Bytes(), func(kind, msg string) { t.warn(kind, "%s: %s", p.File, msg) })
	if err := ctx.Err(); err != nil {
		return bundle.File{}, fmt.Errorf("%s: %w", p.File, err)
	}
	t.Classes = slices.Clone(doc.Classes()) // after Expand: components' classes too
	t.Components = doc.HasComponents()
	if doc.NeedsIDPass(hs) {
		// Headings a component writes belong in the table of contents
		// too, and the ids made from titles must be the page's only ones.
		rendered, hs = mdx.WithComponentHeadings(rendered, hs, doc.AutoIDs())
	}
	content := j.link.rewrite(rendered, p.Key, prefix)
	t.Diagram = mdx.HasDiagram(content)
	content = j.diag.with(content, prefix)
	t.Math = mdx.HasMath(content)
	content = j.math.with(content, prefix)
	var apiTop, apiRest markup.HTML
	var ex mdx.Examples // the right-hand column of an API page
	if p.API != nil {
		ref := j.api.Endpoint(p.API, ap)
		apiTop, apiRest, ex.Request, ex.Response = ref.Top, ref.Rest, []byte(ref.Request.String()), []byte(ref.Response.String())
		hs = append(hs, ref.Headings...)
	} else if p.Schema != nil {
		var apiHs []mdx.Heading
		apiTop, apiRest, apiHs = j.api.Schema(p.Schema, ap)
		hs = append(hs, apiHs...)
	}
	if err := work.Err(); err != nil {
		return bundle.File{}, fmt.Errorf("%s: %w", p.File, err) // the export's time limit or a shutdown
	}
	if work.Cut > 0 {
		t.warn(WarnLimit, "%s: the schemas fan out past what one page may expand (%d steps); %d shown by name with \"…\"",
			p.APIName(), openapi.PageWork, work.Cut)
	}
	if work.Truncated > 0 {
		t.warn(WarnLimit, "%s: the schemas would make the page larger than it may be (%d KiB of fields and examples); %d fields and examples left out, with a note",
			p.APIName(), openapi.PageBytes>>10, work.Truncated)
	}
	noindex := j.mach.Noindex(p)
	if !noindex {
		section := ""
		if sec != nil {
			section = sec.Label
		}
		c, err := machines.CutEntry(newSearchEntry(p, hs, content), section, englishUI(j.frame.UI(sec)))
		if err != nil {
			return bundle.File{}, fmt.Errorf("%s: search index: %w", p.File, err)
		}
		t.Search = &c // a page left out of the index is skipped when the trace is applied
	}
	// A <Panel> takes the place of the contents list, as on the
	// platform; a mode without that column shows no panel either.
	panel, content := mdx.SplitPanel(content)
	cols := frame.TwoColumns(p)
	if cols {
		content, ex = frame.WithAuthorExamples(content, ex)
		// The platform wants a panel's page to keep its examples in it.
		panel, ex = frame.WithAuthorExamples(panel, ex)
		ex.Panel = panel
	}
	if j.kind == KindAirGapped {
		content = j.gap.offlineBytes(p.File, prefix, content)
		panel = j.gap.offlineBytes(p.File, prefix, panel)
		ex.Panel = j.gap.offlineBytes(p.File, prefix, ex.Panel)
		ex.Request, ex.Response = j.gap.offlineBytes(p.File, prefix, ex.Request), j.gap.offlineBytes(p.File, prefix, ex.Response)
		// Spec descriptions are Markdown too: an image or embed in them
		// must not load from outside the bundle either.
		apiTop = j.gap.offline(p.File, prefix, apiTop)
		apiRest = j.gap.offline(p.File, prefix, apiRest)
	}
	mode := p.Mode
	if cols = cols && len(ex.Request)+len(ex.Response)+len(ex.Panel) > 0; cols {
		mode = site.ModeWide // the examples column takes the place of the contents
	}
	chrome := j.frame.PageChrome(sec, prefix, mode, p)
	b := &buf.page
	b.Reset()
	// One allocation for the whole page: the sidebar can be much of a
	// page (up to the 64 KiB past which it moves to a script of its own),
	// and growing past it copies the page each time.
	b.Grow(len(chrome.String()) + len(content) + len(apiTop.String()) + len(apiRest.String()) + len(ex.Request) + len(ex.Response) + 32<<10)
	desc := p.FM.Description
	if desc == "" {
		desc = j.cfg.Description
	}
	var own csp.Policy
	if j.kind != KindAirGapped { // an air-gapped page keeps no inline or remote script
		own.Scripts = csp.PageScripts(content)
	}
	if hasCard(content) {
		// The platform's GitHub card reads the repository's description
		// and counts from GitHub's API as the page loads; a bundle that
		// stays offline shows the card without them.
		if j.kind == KindAirGapped {
			t.warn(WarnRemote, "%s: <GitHub.Repo> cards show no description or counts in an air-gapped bundle, which reads nothing from GitHub", p.File)
		} else {
			own.Connect = []string{components.GitHubAPI}
			content = j.cards.with(content, prefix)
			t.Card = true
		}
	}
	// A changelog's feed, from the updates as the page shows them.
	var feed []byte
	if machines.HasUpdates(content) {
		desc := p.FM.Description
		if desc == "" {
			desc = j.cfg.Name
		}
		feed = machines.Feed(content, p.Title, desc, j.link.canonical(p.Key))
	}
	meta := markup.Concat(j.mach.MetaHTML(p, noindex), machines.MDAlternate(p))
	j.frame.Head(b, ui, p.Title+" - "+j.cfg.Name, desc, j.link.canonicalURL(p.Key, ""), prefix, noindex, meta, own)
	b.HTML(chrome)
	if cols {
		b.Markup(`<main id="content" class="main"><article class="page page-cols">`)
	} else {
		b.Markup(`<main id="content" class="main"><article class="page">`)
	}
	if p.Mode.Header() {
		b.Markup(`<header class="page-head">`)
		j.frame.Eyebrow(b, p)
		b.Markup(`<h1>`)
		b.Text(p.Title)
		b.Markup(`</h1>`)
		if p.FM.Description != "" {
			b.Markup(`<p class="lead">`)
			b.Text(p.FM.Description)
			b.Markup(`</p>`)
		}
		j.frame.DownloadSpecLink(b, prefix, ui)
		if feed != nil && p.FM.RSS {
			feedLink(b, prefix, machines.FeedOut(p.Out))
		}
		j.mach.PageActions(b, p, md)
		b.Markup(`</header>`)
	}
	if cols {
		b.Markup(`<div class="cols-top">`)
	}
	if p.API == nil {
		apiEndpoint(b, p.FM, j.cfg.API.MDX.Server)
		j.api.MDXAuth(b, ap)
	}
	b.HTML(apiTop)
	if cols {
		b.Markup(`</div>`)
		frame.ExamplesColumn(b, prefix, ex, ui)
		b.Markup(`<div class="cols-body">`)
	}
	b.Markup(`<div class="prose">`)
	// The page's own content: goldmark's output of the author's MDX,
	// with links rewritten (and remote content replaced when air-gapped).
	b.HTML(markup.Rendered(string(content)))
	b.Markup(`</div>`)
	b.HTML(mdxPanel)
	j.frame.Directory(b, p, prefix)
	b.HTML(apiRest)
	if p.Mode.Header() {
		// A custom or frame page is the author's own design to its end.
		j.frame.Pager(b, p, prefix)
	}
	if cols {
		b.Markup(`</div>`)
	}
	b.Markup(`</article>`)
	j.frame.Footer(b, sec, prefix)
	b.Markup(`</main>`)
	switch {
	case mode.TOC() && len(panel) > 0:
		frame.PanelColumn(b, panel)
	case mode.TOC():
		frame.TOC(b, hs, ui)
	}
	frame.Tail(b, prefix)
	// Bytes, not String: the builder keeps its buffer for the worker's
	// next page (the writes copy what they keep).
	page := j.frame.FillIconsNoting(b.Bytes(), p.File, func(u frame.IconUse) { t.Icons = append(t.Icons, u) })
	if again {
		return fileOf(p.Out, page), j.out.to.WriteFile(p.Out, page)
	}
	t.MD = md
	buf.out = append(buf.out[:0], md...)
	if err := j.out.write(machines.MDOut(p.Out), buf.out); err != nil {
		return bundle.File{}, err
	}
	if feed != nil {
		t.Feed = string(feed)
		if err := j.out.write(machines.FeedOut(p.Out), feed); err != nil {
			return bundle.File{}, err
		}
	}
	html = fileOf(p.Out, page)
	if err := j.out.to.WriteFile(p.Out, page); err != nil {
		return bundle.File{}, err
	}
	j.out.record(html)
	return html, nil
}

// apiEndpoint shows the method and path of an API reference page; a
// path of an "api" page gets the api.mdx.server base URL in front.
func apiEndpoint(b *markup.Builder, fm frontmatter, server docsjson.ServerList) {
	spec := fm.API
	if spec == "" {
		// "[file] METHOD /path": the badge shows the method, not the file.
		if _, ref, ok := site.SplitEndpointRef(fm.OpenAPI); ok {
			spec = ref
		}
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

// feedLink writes the link to a changelog's RSS feed, out from the root
// of the bundle, shown by the page's title when its frontmatter says rss.
func feedLink(b *markup.Builder, prefix markup.Prefix, out string) {
	b.Markup(`<a class="rss-link" href="`)
	b.URL(markup.Path(prefix, out, ""))
	b.Markup(`" type="application/rss+xml">`)
	b.HTML(components.Icon("rss"))
	b.Markup(` RSS</a>`)
}
