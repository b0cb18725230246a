package csp

import (
	"strings"
	"testing"
)

func TestContentSecurityPolicy(t *testing.T) {
	for _, airGapped := range []bool{true, false} {
		base := ContentSecurityPolicy(airGapped, Policy{})
		local := "'self' file:"
		if airGapped {
			local = "'self'"
		}
		for _, want := range []string{"default-src 'none'", "script-src " + local + " " + themeScriptHash + ";", "connect-src " + local + ";", "base-uri 'none'", "object-src 'none'"} {
			if !strings.Contains(base, want) {
				t.Errorf("air-gapped %v policy lacks %q: %s", airGapped, want, base)
			}
		}
		if strings.Contains(base, "unsafe-eval") || strings.Contains(base, "script-src "+local+" 'unsafe-inline'") {
			t.Errorf("air-gapped %v policy lets inline script run: %s", airGapped, base)
		}
		if web := strings.Contains(base, "img-src "+local+" data: blob: https:"); web == airGapped {
			t.Errorf("air-gapped %v policy: web images allowed = %v: %s", airGapped, web, base)
		}
	}
	// An air-gapped page opened from file:// loads only what 'self' does:
	// no source names every file on the reader's disk.
	if air := ContentSecurityPolicy(true, Policy{}); strings.Contains(air, "file:") {
		t.Errorf("air-gapped policy allows file: beyond 'self': %s", air)
	}
	// The playground's servers widen connect-src only; a malformed entry
	// cannot add a directive, and a wildcard host is never a source.
	got := ContentSecurityPolicy(false, Policy{Connect: []string{"https://api.example.com", "http://127.0.0.1:8080", "https://x; script-src *", "https://*", "*", ""},
		Scripts: []string{"'sha256-abc='", "https://widget.example", "'unsafe-inline'"}})
	if !strings.Contains(got, "connect-src 'self' file: https://api.example.com http://127.0.0.1:8080;") || strings.Contains(got, "script-src *") || strings.Contains(got, "*") {
		t.Errorf("policy with playground servers: %s", got)
	}
	if !strings.Contains(got, "script-src 'self' file: "+themeScriptHash+" 'sha256-abc=' https://widget.example;") {
		t.Errorf("policy lacks the page's own scripts: %s", got)
	}
	if strings.Count(got, "https://api.example.com") != 1 {
		t.Errorf("a server leaked into another directive: %s", got)
	}
	if WebOrigin("https://*") != "" || WebOrigin("https://*.example.com/v1") != "" || WebOrigin("https://api.example.com/v1") != "https://api.example.com" {
		t.Error("WebOrigin lets a wildcard host through, or loses a plain one")
	}
}
