package export

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// customJSSource is a site with custom JavaScript: two scripts of its
// own, a component in snippets and files of node_modules and a hidden
// folder, none of which are the site's scripts.
func customJSSource() Request {
	return Request{Source: mapFS(map[string]string{
		"docs.json":          `{"name": "JS", "navigation": {"pages": ["index", "guides/intro"]}}`,
		"index.mdx":          "# Home\n\nText.\n",
		"guides/intro.mdx":   "# Intro\n\nMore.\n",
		"ga.js":              "document.documentElement.dataset.customScript = 'ran';\n",
		"widgets/extra.js":   "window.extraRan = true;\n",
		"snippets/widget.js": "export const Widget = () => null;\n",
		"node_modules/x.js":  "window.vendor = true;\n",
		".hidden/secret.js":  "window.secret = true;\n",
	})}
}

// TestExport_customJS: the .js files of the source are run on every page
// of a cloud or client-hosted bundle, in path order and deferred, and are
// copied into the bundle; the snippets folder, node_modules and hidden
// folders hold none of them. An air-gapped bundle carries none, and says
// so.
func TestExport_customJS(t *testing.T) {
	req := customJSSource()
	req.Kind = KindCloud
	dir, _ := exportTo(t, req)
	for page, prefix := range map[string]string{"index.html": "", "guides/intro.html": "../"} {
		got := readOut(t, dir, page)
		want := `<script src="` + prefix + `ga.js" defer></script><script src="` + prefix + `widgets/extra.js" defer></script>`
		if !strings.Contains(got, want) {
			t.Errorf("%s does not run the source's scripts in order: no %s", page, want)
		}
		for _, not := range []string{"widget.js", "node_modules", "secret.js"} {
			if strings.Contains(got, not) {
				t.Errorf("%s includes %s", page, not)
			}
		}
	}
	if got := readOut(t, dir, "ga.js"); !strings.Contains(got, "customScript") {
		t.Errorf("ga.js in the bundle: %q", got)
	}

	req = customJSSource()
	req.Kind = KindAirGapped
	var warnings []string
	req.Warn = func(w Warning) { warnings = append(warnings, w.Kind+": "+w.Message) }
	gapped, _ := exportTo(t, req)
	if got := readOut(t, gapped, "index.html"); strings.Contains(got, "ga.js") {
		t.Error("an air-gapped page runs the source's script")
	}
	if fileExists(filepath.Join(gapped, "ga.js")) {
		t.Error("an air-gapped bundle carries the source's script")
	}
	if !strings.Contains(strings.Join(warnings, "\n"), "content: the source's custom JavaScript (ga.js, widgets/extra.js) is left out") {
		t.Errorf("warnings: %q", warnings)
	}
}

// TestBrowser_customJSRuns opens a cloud page from file:// in Chromium:
// the source's script runs under the page's policy, which refuses
// nothing.
func TestBrowser_customJSRuns(t *testing.T) {
	bin := chromium(t)
	req := customJSSource()
	req.Kind = KindCloud
	dir, _ := exportTo(t, req)
	b, ctx, must := browserSession(t, bin, 60*time.Second)
	tr, err := watch(b)
	must(err)
	u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "guides", "intro.html")}).String()
	must(b.call("Page.navigate", map[string]any{"url": u}, nil))
	must(b.waitFor(ctx, `document.readyState === "complete" && document.documentElement.dataset.customScript === "ran" && window.extraRan === true`))
	if len(tr.violations) > 0 {
		t.Errorf("the page's policy refused: %v", tr.violations)
	}
}
