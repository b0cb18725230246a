package apiserver_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

func corsDo(t *testing.T, method, url string, header map[string]string, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func preflight(origin string) map[string]string {
	return map[string]string{"Origin": origin, "Access-Control-Request-Method": "POST",
		"Access-Control-Request-Headers": "authorization, content-type"}
}

// TestCORS_defaultNone: without corsAllowedOrigins a preflight is a JSON
// 403, and no answer carries Access-Control-Allow-Origin.
func TestCORS_defaultNone(t *testing.T) {
	env := apiservertest.Start(t)
	url := env.URL + "/v1/static-export/jobs"
	for _, origin := range []string{"null", "https://docs.acme.test"} {
		resp := corsDo(t, http.MethodOptions, url, preflight(origin), "")
		var e api.Error
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusForbidden || json.Unmarshal(b, &e) != nil || !strings.Contains(e.Error, "corsAllowedOrigins") {
			t.Errorf("preflight from %s: %d %s, want 403 naming corsAllowedOrigins", origin, resp.StatusCode, b)
		}
		if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Errorf("preflight from %s allowed %q", origin, got)
		}
	}
	resp := corsDo(t, http.MethodGet, env.URL+"/healthz", map[string]string{"Origin": "null"}, "")
	if resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("GET with Origin null: %d, ACAO %q", resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"))
	}
}

// TestCORS_configuredOrigins: a configured origin gets its preflight and
// can read answers, errors included; others still cannot.
func TestCORS_configuredOrigins(t *testing.T) {
	env := apiservertest.Start(t, apiservertest.WithCORSOrigins("null", "https://docs.acme.test"))
	url := env.URL + "/v1/static-export/jobs"
	resp := corsDo(t, http.MethodOptions, url, preflight("null"), "")
	h := resp.Header
	if resp.StatusCode != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != "null" ||
		!strings.Contains(h.Get("Access-Control-Allow-Headers"), "Authorization") ||
		!strings.Contains(h.Get("Access-Control-Allow-Methods"), "POST") || !strings.Contains(h.Get("Vary"), "Origin") {
		t.Fatalf("preflight: %d %v", resp.StatusCode, h)
	}
	resp = corsDo(t, http.MethodOptions, url, preflight("https://evil.test"), "")
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("preflight from an unlisted origin: %d", resp.StatusCode)
	}
	body, _ := json.Marshal(map[string]string{"domain": env.Domain})
	resp = corsDo(t, http.MethodPost, url, map[string]string{"Origin": "https://docs.acme.test",
		"Authorization": "Bearer " + env.Key, "Content-Type": "application/json"}, string(body))
	if resp.StatusCode != http.StatusAccepted || resp.Header.Get("Access-Control-Allow-Origin") != "https://docs.acme.test" {
		t.Errorf("POST from an allowed origin: %d, ACAO %q", resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"))
	}
	resp = corsDo(t, http.MethodPost, url, map[string]string{"Origin": "null", "Content-Type": "application/json"}, string(body))
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("Access-Control-Allow-Origin") != "null" || !bytes.Contains(b, []byte(`"error"`)) {
		t.Errorf("401 not readable by the allowed origin: %d %q %s", resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"), b)
	}
}

// TestCORS_wildcardSubdomain: "https://*.acme.test" lets in every
// subdomain of acme.test, at any depth, over https on the default port,
// and nothing else: not acme.test itself, not a look-alike domain, not
// another scheme or port.
func TestCORS_wildcardSubdomain(t *testing.T) {
	env := apiservertest.Start(t, apiservertest.WithCORSOrigins("https://*.acme.test", "http://*.local.acme.test:8080"))
	url := env.URL + "/v1/static-export/jobs"
	for origin, want := range map[string]bool{
		"https://docs.acme.test":             true,
		"https://a.b.acme.test":              true,
		"http://docs.local.acme.test:8080":   true,
		"https://acme.test":                  false,
		"https://.acme.test":                 false,
		"https://evil-acme.test":             false,
		"https://docs.evil-acme.test":        false,
		"https://docs.acme.test.evil.test":   false,
		"https://evil.test/.acme.test":       false,
		"https://u@docs.acme.test":           false,
		"https://-x.acme.test":               false,
		"http://docs.acme.test":              false,
		"https://docs.acme.test:8443":        false,
		"http://docs.local.acme.test":        false,
		"http://docs.local.acme.test:80800":  false,
		"https://docs.local.acme.test:8080":  false,
		"https://DOCS.acme.test":             false,
		"https://docs.acme.test.":            false,
		"https://docs.acme.test%2f.acme.tes": false,
	} {
		resp := corsDo(t, http.MethodOptions, url, preflight(origin), "")
		got := resp.StatusCode == http.StatusNoContent && resp.Header.Get("Access-Control-Allow-Origin") == origin
		if got != want || (!want && resp.StatusCode != http.StatusForbidden) {
			t.Errorf("preflight from %s: %d %q, want allowed %v", origin, resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"), want)
		}
	}
}
