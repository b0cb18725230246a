package export

import (
	"os"
	"strings"
	"testing"
)

func TestContentSecurityPolicy(t *testing.T) {
	base := ContentSecurityPolicy(nil)
	for _, want := range []string{"default-src 'none'", "script-src 'self' file: " + themeScriptHash + ";", "connect-src 'self' file:;", "base-uri 'none'"} {
		if !strings.Contains(base, want) {
			t.Errorf("policy lacks %q: %s", want, base)
		}
	}
	// The playground's servers widen connect-src only; a malformed entry
	// cannot add a directive.
	got := ContentSecurityPolicy([]string{"https://api.example.com", "http://127.0.0.1:8080", "https://x; script-src *", ""})
	if !strings.Contains(got, "connect-src 'self' file: https://api.example.com http://127.0.0.1:8080;") || strings.Contains(got, "script-src *") {
		t.Errorf("policy with playground servers: %s", got)
	}
	if strings.Count(got, "https://api.example.com") != 1 {
		t.Errorf("a server leaked into another directive: %s", got)
	}
}

func TestExport_cspOnlyWhenAirGapped(t *testing.T) {
	air, _ := exportTo(t, Request{Source: os.DirFS("testdata/airgap"), Kind: KindAirGapped})
	cloud, _ := exportTo(t, Request{Source: os.DirFS("testdata/airgap"), Kind: KindCloud})
	for _, page := range []string{"index.html", "guides/videos.html", "404.html"} {
		if !strings.Contains(readOut(t, air, page), `<meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;`) {
			t.Errorf("air-gapped %s has no CSP right after its charset", page)
		}
		if strings.Contains(readOut(t, cloud, page), "Content-Security-Policy") {
			t.Errorf("cloud %s carries the air-gapped CSP", page)
		}
	}
}
