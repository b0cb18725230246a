// Package csp writes the Content-Security-Policy every exported page
// carries and finds the sources a page's own scripts need. It knows the
// policy's rules and HTML script tags only: nothing of docs.json, pages,
// the navigation or the facade that calls it.
package csp

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"net/url"
	"slices"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/airgap"
	"golang.org/x/net/html"
)

// ThemeScript sets the theme before the first paint so dark mode does not
// flash: the reader's stored choice, unless docs.json's appearance.strict
// fixes the mode (data-strict); else docs.json's default (data-theme
// already); else the system's, marked data-system for app.js to follow.
// The root also gets the class "dark" in dark mode, which the platform's
// pages carry and sites' custom CSS selects on (.dark .my-callout).
// It is our one inline script; the CSP names its hash.
const ThemeScript = `var d=document.documentElement;try{var t=localStorage.getItem("theme");if(t&&!d.hasAttribute("data-strict"))d.dataset.theme=t}catch(e){}` +
	`if(!d.dataset.theme&&window.matchMedia){d.dataset.system="";d.dataset.theme=matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light"}` +
	`d.classList.toggle("dark",d.dataset.theme==="dark")`

// ScriptHash is the CSP source that allows exactly one inline script.
func ScriptHash(script string) string {
	sum := sha256.Sum256([]byte(script))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

var themeScriptHash = ScriptHash(ThemeScript)

// Policy is what one page's Content-Security-Policy allows beyond the
// bundle itself.
type Policy struct {
	// Connect are origins the page may send requests to: the servers of
	// an OpenAPI spec when the API playground is on, the analytics
	// endpoint of a cloud bundle (e.g. "https://api.example.com").
	Connect []string
	// Scripts are sources of the page's own scripts, written by the
	// repository's authors in its MDX: the hash of each inline script and
	// the origin of each remote one. Nothing from a spec or docs.json
	// reaches here: those are sanitized to text.
	Scripts []string
}

// ContentSecurityPolicy is the policy every page carries in a <meta
// http-equiv>, so that the browser itself refuses script the export did
// not put there. In every kind, scripts come only from the bundle, from
// the hash of our one inline script, and from the page's own MDX; inline
// event handlers and javascript: URLs never run. airGapped is the
// air-gapped deployment kind.
//
// An air-gapped page is opened from file://, and its policy names no
// scheme: Chromium matches 'self' of a file:// page against file: URLs
// (TestBrowser_airGappedStaysInItsDirectory opens such pages with every
// script and stylesheet working), and a file: source would only say
// "anything on the reader's disk" out loud. 'self' there still matches
// the whole disk, since a policy written at export time cannot name the
// directory the reader unpacks the bundle into: what keeps an air-gapped
// page inside its directory is internal/export/airgap, which takes out
// every reference that leaves it. The other kinds keep file: beside
// 'self' for a copy opened from disk in a browser whose file:// pages
// have an opaque origin; a page served over HTTP can never load file:
// URLs, so it widens nothing on a web server. Inline
// styles stay allowed (components and JSX style objects write style
// attributes); they run nothing. blob: images and media are ones the page
// made itself from bytes it already holds (the playground shows an image
// or audio answer that way).
//
// An air-gapped page loads nothing else from anywhere. A cloud or
// client-hosted page may show images, media, fonts, stylesheets and
// frames from the web, as the platform's pages do (logos, diagrams,
// videos), over https (and http for images and media): none of those
// runs script in the page.
//
// Entries of p that are not a single CSP source expression, or that are a
// wildcard host, are dropped, so a spec cannot widen the policy.
func ContentSecurityPolicy(airGapped bool, p Policy) string {
	local := "'self' file:"
	if airGapped {
		local = "'self'"
	}
	connect := local + sources(p.Connect)
	scripts := local + " " + themeScriptHash + sources(p.Scripts)
	web, media := "", ""
	if !airGapped {
		web, media = " https:", " https: http:"
	}
	formAction := "'none'"
	if !airGapped {
		formAction = "'self'"
	}
	return "default-src 'none'; script-src " + scripts +
		"; style-src " + local + " 'unsafe-inline'" + web + "; img-src " + local + " data: blob:" + media +
		"; font-src " + local + " data:" + web + "; media-src " + local + " blob:" + media + "; frame-src " + local + web +
		"; manifest-src " + local + "; connect-src " + connect +
		"; object-src 'none'; base-uri 'none'; form-action " + formAction
}

// sources joins the entries that are one safe source expression each.
func sources(list []string) string {
	var b strings.Builder
	for _, s := range list {
		if s != "" && !strings.ContainsAny(s, " \t\r\n;,\"*") && s != "'unsafe-inline'" && s != "'unsafe-eval'" {
			b.WriteString(" " + s)
		}
	}
	return b.String()
}

// WebOrigin is the origin of an http or https URL as a CSP source
// ("https://api.example.com"), or "" when it has none, or names a
// wildcard host that would allow every site.
func WebOrigin(s string) string {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || strings.ContainsAny(u.Host, "*{}") {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// PageScripts returns the CSP sources of the scripts in a page's own
// content: the hash of each inline script and the origin of each remote
// one. Most pages have none, and are not parsed.
func PageScripts(content []byte) []string {
	if !hasScriptTag(content) {
		return nil
	}
	var out []string
	z := html.NewTokenizer(bytes.NewReader(content))
	inline := false
	for {
		switch z.Next() {
		case html.ErrorToken:
			slices.Sort(out)
			return slices.Compact(out)
		case html.StartTagToken:
			inline = false
			tok := z.Token()
			if tok.Data != "script" {
				continue
			}
			src, typ := "", ""
			for _, a := range tok.Attr {
				switch a.Key {
				case "src":
					src = a.Val
				case "type":
					typ = a.Val
				}
			}
			if !airgap.RunsAsScript(typ) {
				continue
			}
			if src == "" {
				inline = true
			} else if o := WebOrigin(src); o != "" {
				out = append(out, o)
			}
		case html.TextToken:
			if inline {
				out = append(out, ScriptHash(string(z.Text())))
				inline = false
			}
		case html.EndTagToken:
			inline = false
		}
	}
}

// hasScriptTag reports a <script tag in any case, without copying the
// page to lower-case it: it runs on every page of a cloud export.
func hasScriptTag(b []byte) bool {
	for {
		i := bytes.IndexByte(b, '<')
		if i < 0 || len(b)-i < 7 {
			return false
		}
		if bytes.EqualFold(b[i+1:i+7], []byte("script")) {
			return true
		}
		b = b[i+1:]
	}
}
