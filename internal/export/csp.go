package export

import (
	"crypto/sha256"
	"encoding/base64"
	"strings"
)

// themeScript sets the theme before the first paint so dark mode does not
// flash. It is the one inline script of a page; the CSP names its hash.
const themeScript = `try{var t=localStorage.getItem("theme");if(t)document.documentElement.dataset.theme=t}catch(e){}`

// scriptHash is the CSP source that allows exactly one inline script.
func scriptHash(script string) string {
	sum := sha256.Sum256([]byte(script))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

var themeScriptHash = scriptHash(themeScript)

// ContentSecurityPolicy is the policy every air-gapped page carries in a
// <meta http-equiv>, so that the browser itself refuses anything from
// outside the bundle that the export let through.
//
// 'self' alone is not enough: a page opened from file:// has an opaque
// origin in some browsers, so 'self' matches none of its own files there.
// The file: scheme is added for that case; a page served over HTTP can
// never load file: URLs, so it widens nothing on a web server. Inline
// styles stay allowed (components and JSX style objects write style
// attributes); they cannot fetch anything, since images and fonts follow
// img-src and font-src. blob: images and media are ones the page made
// itself from bytes it already holds (the playground shows an image or
// audio answer that way); they fetch nothing.
//
// extraConnect lists origins the page may also send requests to, such as
// the servers of an OpenAPI spec when the API playground is enabled
// (e.g. "https://api.example.com"). Entries that are not a single CSP
// source expression are dropped, so a spec cannot widen other directives.
func ContentSecurityPolicy(extraConnect []string) string {
	const local = "'self' file:"
	connect := local
	for _, o := range extraConnect {
		if o != "" && !strings.ContainsAny(o, " \t\r\n;,'\"") {
			connect += " " + o
		}
	}
	return "default-src 'none'; script-src " + local + " " + themeScriptHash +
		"; style-src " + local + " 'unsafe-inline'; img-src " + local + " data: blob:; font-src " + local + " data:" +
		"; media-src " + local + " blob:; frame-src " + local + "; manifest-src " + local + "; connect-src " + connect +
		"; object-src 'none'; base-uri 'none'; form-action 'none'"
}
