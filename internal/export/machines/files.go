package machines

import (
	"context"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/site"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/uitext"
)

// The files machines read: a Markdown copy of every page next to its
// HTML (guides/intro.md beside guides/intro.html), llms.txt (an index of
// those copies by navigation group) and llms-full.txt (all of them in
// reading order), as the platform publishes them. Links in them are
// relative, so they work from file:// as from a server.

// Files writes the files machines read and decides which pages
// they and search engines leave out (seo.go): each page's Markdown copy
// and its actions, llms.txt, llms-full.txt, robots.txt and sitemap.xml.
// It holds what those need from the plan; llms-full.txt joins the
// Markdown copies the render workers wrote (the facade's llmsfull.go). Its receiver is
// named j, as these methods were the pipeline's, so their bodies stay as
// they were.
type Files struct {
	cfg   *docsjson.Config
	tree  *site.Tree
	pages []*site.Page // sorted by key
	byKey map[string]*site.Page
	// target, canonical and canonicalURL resolve references as the
	// facade's linker does; snippet reads a snippet file of the source.
	target       func(from, ref string) (markup.URL, bool)
	canonical    func(key string) string
	canonicalURL func(key, rest string) markup.URL
	snippet      func(file string) (string, error)
	airGapped    bool
	src          fs.FS                          // the source confined to its root
	ui           func(p *site.Page) uitext.Text // the interface language of p (frame.Frame.PageUI)
}

// Options are what Files needs of the plan of one export.
type Options struct {
	Config *docsjson.Config
	Tree   *site.Tree
	Pages  []*site.Page // sorted by key
	ByKey  map[string]*site.Page
	// Target resolves a reference written in page from to a bundle path
	// or an absolute URL (false: left as written); Canonical and
	// CanonicalURL are a page's address on the live site.
	Target       func(from, ref string) (markup.URL, bool)
	Canonical    func(key string) string
	CanonicalURL func(key, rest string) markup.URL
	Snippet      func(file string) (string, error) // a snippet file of the source
	AirGapped    bool                              // the copies keep no remote image either
	Source       fs.FS                             // the source confined to its root
	UI           func(p *site.Page) uitext.Text    // the interface language of p
}

// NewFiles returns the writer of the machine files of the plan o.
func NewFiles(o Options) *Files {
	return &Files{cfg: o.Config, tree: o.Tree, pages: o.Pages, byKey: o.ByKey, target: o.Target, canonical: o.Canonical,
		canonicalURL: o.CanonicalURL, snippet: o.Snippet, airGapped: o.AirGapped, src: o.Source, ui: o.UI}
}

// MachineStrings are the group names of llms.txt for pages outside a
// named group. llms.txt is one file for the whole site, whatever its
// languages, and read by machines, so they stay English; the page's
// Markdown actions are interface text and come from the translation
// table (copyPage, copied, viewMarkdown).
var MachineStrings = map[string]string{
	"llmsOtherPages": "Other pages",
	"llmsDocs":       "Docs",
}

// MDOut is the bundle path of a page's Markdown copy.
func MDOut(htmlOut string) string { return strings.TrimSuffix(htmlOut, ".html") + ".md" }

// PageMarkdown is the Markdown copy of page p: the title as a heading,
// the description as a quote, then the source with its components made
// readable (mdx.ToMarkdown) and links to pages and files of the bundle
// made relative to the copy, or for an endpoint page the reference in
// Markdown. It reads p.body, so it runs before the body is freed.
func (j *Files) PageMarkdown(ctx context.Context, p *site.Page) string {
	return j.PageMarkdownWith(ctx, p, j.snippet)
}

// PageMarkdownWith is PageMarkdown reading snippets with snippet, so
// that the caller knows which the page read.
func (j *Files) PageMarkdownWith(ctx context.Context, p *site.Page, snippet func(file string) (string, error)) string {
	var b strings.Builder
	b.WriteString("# " + oneLine(p.Title) + "\n\n")
	if d := strings.TrimSpace(p.FM.Description); d != "" {
		b.WriteString("> " + oneLine(d) + "\n\n")
	}
	body := mdx.ToMarkdown(string(p.Body), snippet)
	body = j.mdLinks(body, p)
	if j.airGapped {
		body = noRemoteImages(body)
	}
	if strings.TrimSpace(body) != "" {
		b.WriteString(body)
		b.WriteString("\n")
	}
	if p.API != nil {
		b.WriteString(noRemoteImages(APIMarkdown(ctx, p.API)))
	} else if p.Schema != nil {
		b.WriteString(noRemoteImages(SchemaMarkdown(ctx, p.Schema)))
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// remoteMDImage matches a Markdown image loaded from another server,
// htmlImage any HTML image and remoteRef a src or srcset that names
// another server.
var (
	remoteMDImage = regexp.MustCompile(`!\[([^\]]*)\]\(\s*<?(?:[a-zA-Z][a-zA-Z0-9+.-]*:)?//[^)]*\)`)
	htmlImage     = regexp.MustCompile(`(?i)<(?:img|script|iframe|source|video|audio|embed|object|track|input|link)\b[^>]*>`)
	remoteRef     = regexp.MustCompile(`(?i)\b(?:src|srcset|data|poster|href)\s*=\s*["']?[^"'>]*//`)
	styleBlock    = regexp.MustCompile(`(?is)<style\b.*?</style>`)
)

// noRemoteImages keeps only the alternative text of images that load
// from another server and drops HTML elements that would load anything
// from one (an embed, a script, a stylesheet, a style block). It is used
// where nothing may come from outside: spec descriptions (which would
// tell that server who reads the docs) and every page of an air-gapped
// bundle, whose copies a Markdown viewer may render.
func noRemoteImages(md string) string {
	md = remoteMDImage.ReplaceAllString(md, "$1")
	md = styleBlock.ReplaceAllString(md, "")
	return htmlImage.ReplaceAllStringFunc(md, func(m string) string {
		if remoteRef.MatchString(m) {
			return ""
		}
		return m
	})
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// mdLink finds inline link and image destinations: ](dest) and ](dest "title");
// htmlRef the src and href attributes of raw HTML in Markdown.
var (
	mdLink  = regexp.MustCompile(`\]\(([^()\s]+)((?:\s+"[^"]*")?)\)`)
	htmlRef = regexp.MustCompile(`\b(src|href)="([^"]+)"`)
)

// mdLinks rewrites, outside code, the destinations of links to pages of
// the bundle to their Markdown copies and those to files to the file,
// relative to p's copy; other links stay as written.
func (j *Files) mdLinks(md string, p *site.Page) string {
	prefix := markup.RootPrefix(p.Out)
	var out strings.Builder
	out.Grow(len(md))
	fence := false
	for line := range strings.Lines(md) {
		t := strings.TrimLeft(line, "> \t")
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = !fence
		}
		if fence || !strings.Contains(line, "](") && !strings.Contains(line, `="`) {
			out.WriteString(line)
			continue
		}
		out.WriteString(rewriteOutsideCode(line, func(s string) string {
			s = mdLink.ReplaceAllStringFunc(s, func(m string) string {
				sm := mdLink.FindStringSubmatch(m)
				return "](" + j.mdTarget(p, prefix, sm[1]) + sm[2] + ")"
			})
			return htmlRef.ReplaceAllStringFunc(s, func(m string) string {
				sm := htmlRef.FindStringSubmatch(m)
				return sm[1] + `="` + j.mdTarget(p, prefix, sm[2]) + `"`
			})
		}))
	}
	return out.String()
}

// mdTarget is where a reference of page p's Markdown copy leads: a page
// of the bundle's copy or a file of the bundle, relative to the copy; a
// reference the bundle cannot resolve stays as written.
func (j *Files) mdTarget(p *site.Page, prefix markup.Prefix, ref string) string {
	u, ok := j.target(p.Key, ref)
	if !ok || markup.Scheme(u.String()) != "" {
		return ref
	}
	dest, rest, _ := strings.Cut(u.String(), "#")
	if strings.HasSuffix(dest, ".html") {
		if _, page := j.byKey[strings.TrimSuffix(dest, ".html")]; page {
			dest = MDOut(dest)
		}
	}
	if rest != "" {
		dest += "#" + rest
	}
	return string(prefix) + dest
}

// rewriteOutsideCode applies f to the parts of line outside code spans.
func rewriteOutsideCode(line string, f func(string) string) string {
	parts := strings.Split(line, "`")
	for i := 0; i < len(parts); i += 2 {
		parts[i] = f(parts[i])
	}
	return strings.Join(parts, "`")
}

// LLMsListed are the pages llms.txt and llms-full.txt list, in reading
// order: the navigation's, then with seo.indexing "all" the pages
// outside it, by key.
func (j *Files) LLMsListed() []*site.Page {
	var out []*site.Page
	seen := map[string]bool{}
	for _, k := range j.tree.Order {
		if p := j.byKey[k]; p != nil && !seen[k] && !j.Noindex(p) {
			out = append(out, p)
			seen[k] = true
		}
	}
	for _, p := range j.pages {
		if !seen[p.Key] && !j.Noindex(p) {
			out = append(out, p)
			seen[p.Key] = true
		}
	}
	return out
}

// LLMsTxt is the index of the site for language models: its name as the
// title, its description as the summary, then a section per navigation
// group with a link to each page's Markdown copy and its description.
func (j *Files) LLMsTxt() ([]byte, error) {
	var b strings.Builder
	b.WriteString("# " + oneLine(j.cfg.Name) + "\n\n")
	if d := oneLine(j.cfg.Description); d != "" {
		b.WriteString("> " + d + "\n\n")
	}
	last := "\x00"
	for _, p := range j.LLMsListed() {
		group := strings.Join(j.tree.Crumbs[p.Key], " › ")
		if _, listed := j.tree.SectionOf[p.Key]; !listed || group == "" {
			group = MachineStrings["llmsOtherPages"]
			if listed {
				group = MachineStrings["llmsDocs"]
			}
		}
		if group != last {
			b.WriteString("\n## " + oneLine(group) + "\n\n")
			last = group
		}
		b.WriteString("- [" + escapeMDText(oneLine(p.Title)) + "](" + markup.Path("", MDOut(p.Out), "").String() + ")")
		if d := oneLine(p.FM.Description); d != "" {
			b.WriteString(": " + d)
		}
		b.WriteString("\n")
	}
	return []byte(strings.Replace(b.String(), "\n\n\n", "\n\n", 1)), nil
}

// escapeMDText keeps a title from ending a link's text early.
func escapeMDText(s string) string { return mdTextEscaper.Replace(s) }

// mdTextEscaper is built once: llms.txt escapes every page's title, and
// building a Replacer a call was most of the cost.
var mdTextEscaper = strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`)

// PageActions writes the page's Markdown actions under its title: copy
// the page as Markdown (the Markdown is embedded, so copying works from
// file://, where a script may not read other files) and open the copy.
func (j *Files) PageActions(b *markup.Builder, p *site.Page, md string) {
	copyPage, viewPage := j.cfg.MarkdownActions()
	if !copyPage && !viewPage {
		return
	}
	u := j.ui(p)
	b.Markup(`<div class="md-actions">`)
	if copyPage {
		b.Markup(`<button type="button" class="md-copy"`)
		b.Attr("data-copied", u.T("copied"))
		b.Markup(`>`)
		b.Text(u.T("copyPage"))
		b.Markup(`</button><textarea class="md-source" hidden readonly aria-hidden="true" tabindex="-1">`)
		b.Text(md)
		b.Markup(`</textarea>`)
	}
	if viewPage {
		b.Markup(`<a class="md-view" type="text/markdown" href="`)
		b.URL(markup.Path("", path.Base(MDOut(p.Out)), ""))
		b.Markup(`">`)
		b.Text(u.T("viewMarkdown"))
		b.Markup(`</a>`)
	}
	b.Markup(`</div>`)
}

// OwnMachineFile reports a file machines read that the source has at its
// root (a hand-written llms.txt, llms-full.txt or robots.txt): it is
// copied instead of the generated one.
func (j *Files) OwnMachineFile(name string) bool {
	switch name {
	case "llms.txt", "llms-full.txt", "robots.txt":
	default:
		return false
	}
	st, err := fs.Stat(j.src, name)
	return err == nil && st.Mode().IsRegular()
}

// MDAlternate links a page's head to its Markdown copy, where tools
// that read pages look for it.
func MDAlternate(p *site.Page) markup.HTML {
	var b markup.Builder
	b.Markup(`<link rel="alternate" type="text/markdown" href="`)
	b.URL(markup.Path("", path.Base(MDOut(p.Out)), ""))
	b.Markup(`">`)
	return b.Fragment()
}
