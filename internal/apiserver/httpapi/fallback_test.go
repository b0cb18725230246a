package httpapi

import (
	"net/http"
	"net/http/httptest"
	"path"
	"strings"
	"testing"
)

// Fallback answers in JSON what the mux answers in plain text: 404 for an
// unknown path, 405 with Allow for a known path and another method, 404
// for a path the mux would clean unless the cleaned path is a route,
// which it redirects to. Registered patterns are served as they are.
func TestFallback(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/jobs/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Id", r.PathValue("id"))
		w.WriteHeader(http.StatusTeapot)
	})
	h := Fallback(mux, map[string]bool{"GET /v1/jobs/{id}": true}, serveError)
	for _, tc := range []struct {
		method, path string
		status       int
		want, allow  string
		id, location string
	}{
		{method: "GET", path: "/v1/jobs/a", status: http.StatusTeapot, id: "a"},
		{method: "HEAD", path: "/v1/jobs/a", status: http.StatusTeapot, id: "a"},
		{method: "DELETE", path: "/v1/jobs/a", status: http.StatusMethodNotAllowed, want: "method DELETE is not allowed on /v1/jobs/a (allowed: GET, HEAD)", allow: "GET, HEAD"},
		{method: "CONNECT", path: "/v1/jobs/a", status: http.StatusMethodNotAllowed, want: "method CONNECT is not allowed", allow: "GET, HEAD"},
		{method: "GET", path: "/v1/nothing", status: http.StatusNotFound, want: "no such endpoint: GET /v1/nothing"},
		{method: "GET", path: "/", status: http.StatusNotFound, want: "no such endpoint: GET /"},
		{method: "GET", path: "/v1/jobs/a/", status: http.StatusNotFound, want: "no such endpoint"},
		{method: "GET", path: "/v1/jobs/../../etc/passwd", status: http.StatusNotFound, want: "no such endpoint"},
		{method: "GET", path: "//v1/nothing", status: http.StatusNotFound, want: "no such endpoint"},
		{method: "GET", path: "/v1/jobs/../jobs/a", status: http.StatusTemporaryRedirect, location: "/v1/jobs/a"},
		{method: "DELETE", path: "/v1//jobs/a", status: http.StatusNotFound, want: "no such endpoint"},
	} {
		rec := httptest.NewRecorder()
		r := httptest.NewRequest(tc.method, "/", nil)
		r.URL.Path = tc.path // as sent, not cleaned
		h.ServeHTTP(rec, r)
		if rec.Code != tc.status || rec.Header().Get("Allow") != tc.allow {
			t.Errorf("%s %s: %d Allow %q, want %d Allow %q", tc.method, tc.path, rec.Code, rec.Header().Get("Allow"), tc.status, tc.allow)
			continue
		}
		if tc.want != "" && !strings.Contains(errorBody(t, rec), tc.want) {
			t.Errorf("%s %s: error %q, want %q", tc.method, tc.path, rec.Body, tc.want)
		}
		if got := rec.Header().Get("X-Id"); got != tc.id {
			t.Errorf("%s %s: path value %q, want %q", tc.method, tc.path, got, tc.id)
		}
		if got := rec.Header().Get("Location"); got != tc.location {
			t.Errorf("%s %s: Location %q, want %q", tc.method, tc.path, got, tc.location)
		}
	}
}

// A subtree pattern would be redirected to past the catch-all: refused.
func TestFallback_subtreePattern(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Fallback took a subtree pattern")
		}
	}()
	Fallback(http.NewServeMux(), map[string]bool{"GET /v1/files/": true}, serveError)
}

// canonical says a path is served as it is exactly when ServeMux would
// not clean it: a path cleaned the mux's way (path.Clean, a trailing
// slash kept) is the path itself.
func TestCanonical(t *testing.T) {
	muxClean := func(p string) string {
		if p == "" || p[0] != '/' {
			p = "/" + p
		}
		c := path.Clean(p)
		if strings.HasSuffix(p, "/") && c != "/" {
			c += "/"
		}
		return c
	}
	for _, p := range []string{
		"", "/", "//", "///", "/a", "/a/", "/a//", "//a", "/a/b", "/a/./b", "/a/../b", "/a/..", "/a/.", "/.", "/..",
		"/a/b/", "/a/b/.", "/.a", "/..a", "/a..", "a", "a/", "*", "/v1/static-export/jobs/se_0123456789abcdef",
		"/v1/static-export/jobs/%2e%2e", "/a/b/../", "/./",
	} {
		if got, want := canonical(p), muxClean(p) == p; got != want {
			t.Errorf("canonical(%q) = %v, want %v", p, got, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { canonical("/v1/static-export/jobs/se_0123456789abcdef/") }); n != 0 {
		t.Errorf("canonical allocates %v times", n)
	}
}
