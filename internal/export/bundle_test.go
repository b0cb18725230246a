package export

import (
	"context"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/demosite"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"golang.org/x/net/html"
)

// htmlRefs lists the ids of an HTML file and its href/src references.
func htmlRefs(t *testing.T, file string) (ids map[string]bool, refs []string) {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ids = map[string]bool{}
	z := html.NewTokenizer(f)
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ids, refs
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			for _, a := range tok.Attr {
				switch a.Key {
				case "id":
					ids[a.Val] = true
				case "href", "src":
					refs = append(refs, a.Val)
				}
			}
		}
	}
}

// TestBundle_noBrokenLinks opens every page of the bundles and resolves
// every relative link and asset inside the bundle, anchors included.
func TestBundle_noBrokenLinks(t *testing.T) {
	for name, src := range map[string]fs.FS{"demosite": demosite.FS(), "fixture": fixture(), "docsrepo": docsRepo()} {
		for _, kind := range []Kind{KindCloud, KindAirGapped} {
			t.Run(name+"/"+string(kind), func(t *testing.T) { walkLinks(t, src, kind) })
		}
	}
}

// walkLinks exports src and resolves every relative href and src of
// every page to a file of the bundle, anchors included.
func walkLinks(t *testing.T, src fs.FS, kind Kind) {
	dir, m := exportTo(t, Request{Source: src, Kind: kind})
	ids := map[string]map[string]bool{}
	refs := map[string][]string{}
	for _, f := range m.Files {
		if strings.HasSuffix(f.Path, ".html") {
			ids[f.Path], refs[f.Path] = htmlRefs(t, filepath.Join(dir, f.Path))
		}
	}
	checked := 0
	for page, rs := range refs {
		for _, ref := range rs {
			u, err := url.Parse(ref)
			if err != nil || u.Scheme != "" || strings.HasPrefix(ref, "//") {
				continue // external links are not the bundle's to resolve
			}
			checked++
			if strings.HasPrefix(ref, "/") {
				t.Errorf("%s: root-absolute reference %q breaks under a sub-path", page, ref)
				continue
			}
			target, frag, _ := strings.Cut(ref, "#")
			target, _, _ = strings.Cut(target, "?")
			if target, err = url.PathUnescape(target); err != nil {
				t.Errorf("%s: %q is not a valid URL path: %v", page, ref, err)
				continue
			}
			resolved := page
			if target != "" {
				resolved = path.Join(path.Dir(page), target)
			}
			if strings.HasPrefix(resolved, "../") {
				t.Errorf("%s: %q leaves the bundle", page, ref)
				continue
			}
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(resolved))); err != nil {
				t.Errorf("%s: %q names no file of the bundle", page, ref)
				continue
			}
			if frag != "" && strings.HasSuffix(resolved, ".html") && !ids[resolved][frag] {
				t.Errorf("%s: %q names no anchor of %s", page, ref, resolved)
			}
		}
	}
	if checked < 50 {
		t.Errorf("only %d relative references checked; the walk is not seeing the pages", checked)
	}
}

// outbound matches anything in a bundle file that makes a browser reach
// the network on its own: remote scripts, styles, frames, media, fonts,
// and script APIs that send requests. A canonical <link> and plain <a>
// links only name a URL and are allowed.
var outbound = []*regexp.Regexp{
	regexp.MustCompile(`(?i)<(script|img|iframe|source|video|audio|embed|object|track|input)\b[^>]*\s(src|data|poster|srcset)=["']?(https?:)?//`),
	regexp.MustCompile(`(?i)<link\b[^>]*\srel=["']?(stylesheet|preload|prefetch|preconnect|dns-prefetch|modulepreload|icon|manifest)[^>]*\shref=["']?(https?:)?//`),
	regexp.MustCompile(`(?i)url\(\s*['"]?(https?:)?//`),
	regexp.MustCompile(`(?i)@import`),
	regexp.MustCompile(`\b(fetch|sendBeacon|importScripts)\s*\(|XMLHttpRequest|WebSocket|EventSource`),
	regexp.MustCompile(`(?i)<form\b[^>]*\saction=["']?(https?:)?//`),
}

var mdSourceRE = regexp.MustCompile(`(?s)<textarea class="md-source"[^>]*>.*?</textarea>`)

func outboundRefs(t *testing.T, dir string) []string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if name := filepath.Base(p); name == "search-index.js" || filepath.Base(filepath.Dir(p)) == "search" || name == "llms-full.txt" || filepath.Ext(name) == ".md" {
			// Page text as data: code samples that mention fetch( are
			// words here, not requests (the browser test sees requests).
			// The Markdown copies are checked for loading elements by
			// TestMachines_airGappedMarkdownLoadsNothing.
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		// The page's Markdown, embedded for "Copy page", is text in a
		// textarea: nothing in it loads or runs.
		b = mdSourceRE.ReplaceAll(b, nil)
		for _, re := range outbound {
			if loc := re.Find(b); loc != nil {
				rel, _ := filepath.Rel(dir, p)
				found = append(found, rel+": "+string(loc))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

func TestBundle_airGappedReachesNothing(t *testing.T) {
	for name, src := range map[string]fs.FS{"demosite": demosite.FS(), "fixture": fixture()} {
		t.Run(name, func(t *testing.T) {
			dir, m := exportTo(t, Request{Source: src, Kind: KindAirGapped})
			if refs := outboundRefs(t, dir); len(refs) > 0 {
				t.Errorf("air-gapped bundle reaches out:\n%s", strings.Join(refs, "\n"))
			}
			if m.Features["assistant"] || m.Features["analytics"] || !m.Features["search"] {
				t.Errorf("air-gapped features = %v, want search only", m.Features)
			}
		})
	}
	// The same source exported for the cloud does reach out, which shows
	// the patterns above can see it.
	dir, _ := exportTo(t, Request{Source: fixture(), Kind: KindCloud})
	if len(outboundRefs(t, dir)) == 0 {
		t.Error("cloud bundle has no outbound reference; the detector is blind")
	}
}

func TestExport_kindGatesFeatures(t *testing.T) {
	tests := []struct {
		kind      Kind
		features  []string
		assistant bool
		analytics bool
	}{
		{KindCloud, nil, true, true},
		{KindClientHosted, nil, false, false},
		{KindClientHosted, []string{"assistant"}, true, false},
		{KindClientHosted, []string{"analytics", "search"}, false, true},
		{KindAirGapped, []string{"assistant", "analytics"}, false, false},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind)+"_"+strings.Join(tt.features, "+"), func(t *testing.T) {
			dir, m := exportTo(t, Request{Source: demosite.FS(), Kind: tt.kind, Features: tt.features})
			page := readOut(t, dir, "quickstart.html")
			if got := strings.Contains(page, `class="assistant" href="https://docs.example.com/_assistant"`); got != tt.assistant {
				t.Errorf("assistant link present = %v, want %v", got, tt.assistant)
			}
			_, err := os.Stat(filepath.Join(dir, "_static/analytics.js"))
			if got := err == nil && strings.Contains(page, "analytics.js"); got != tt.analytics {
				t.Errorf("analytics present = %v, want %v", got, tt.analytics)
			}
			if m.Kind != string(tt.kind) || m.Features["assistant"] != tt.assistant || m.Features["analytics"] != tt.analytics {
				t.Errorf("manifest kind %q features %v", m.Kind, m.Features)
			}
		})
	}
	_, err := New(Options{}).Export(context.Background(), Request{Source: demosite.FS(), Domain: "d.example",
		Kind: KindClientHosted, Features: []string{"telemetry"}}, t.TempDir(), nil)
	var ie *docsjson.InputError
	if !errors.As(err, &ie) {
		t.Errorf("unknown feature: err = %v, want InputError", err)
	}
}

func TestExport_airGappedReplacesRemoteContent(t *testing.T) {
	var warns []string
	dir, _ := exportTo(t, Request{Source: os.DirFS("testdata/airgap"), Kind: KindAirGapped, Warn: func(wrn Warning) { m := wrn.Message; warns = append(warns, m) }})
	if refs := outboundRefs(t, dir); len(refs) > 0 {
		t.Errorf("air-gapped bundle reaches out:\n%s", strings.Join(refs, "\n"))
	}
	checks := map[string][]string{
		"guides/videos.html": {`Embedded page “YouTube video player” not included in this offline copy; address:</span> <code class="remote-embed-url">https://www.youtube.com/embed/4KzFe50RQkQ</code>`,
			`<code class="remote-embed-url">https://videos.example.com/loop.webm</code>`, `https://files.example.com/diagram.svg</code>`},
		"index.html":         {`Image “Architecture” not included`, `https://widgets.example.com/chat.js</code>`, `<img src="images/logo.svg" alt="Logo">`},
		"guides/styled.html": {`style="background: none /* remote: https://images.example.com/banner.png */ no-repeat"`, `<link rel="stylesheet" href="../styles/site.css" />`},
		"styles/site.css":    {`src: none /* remote: https://fonts.example.com/inter.woff2 */`, `url("../images/logo.svg")`},
	}
	for file, wants := range checks {
		got := readOut(t, dir, file)
		for _, w := range wants {
			if !strings.Contains(got, w) {
				t.Errorf("%s lacks %s", file, w)
			}
		}
	}
	// One warning per page or stylesheet, naming it and what was replaced.
	var replaced []string
	for _, w := range warns {
		if strings.Contains(w, "remote content replaced") {
			replaced = append(replaced, w[:strings.IndexByte(w, ':')])
		}
	}
	slices.Sort(replaced)
	if want := []string{"guides/styled.mdx", "guides/videos.mdx", "index.mdx", "styles/site.css"}; !slices.Equal(replaced, want) {
		t.Errorf("remote content warnings for %q, want %q (all: %q)", replaced, want, warns)
	}
	// The same pages exported for the cloud keep their embeds.
	cloud, _ := exportTo(t, Request{Source: os.DirFS("testdata/airgap"), Kind: KindCloud})
	if !strings.Contains(readOut(t, cloud, "guides/videos.html"), `<iframe`) {
		t.Error("a cloud bundle lost its video embed")
	}
}
