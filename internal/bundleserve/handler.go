package bundleserve

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export"
)

var verifyDir = export.VerifyDir

// Handler serves the site and three probes:
//   - /livez: the process is up (what a liveness probe should ask);
//   - /readyz: a verified site is being served (readiness);
//   - /healthz: ready and the last update succeeded; red while a broken or
//     expired bundle is being refused, though the old site keeps serving.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /livez", func(w http.ResponseWriter, _ *http.Request) {
		probe(w, nil, s.Version())
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		var err error
		if s.current.Load() == nil {
			err = errors.New("no bundle has been fetched yet")
		}
		probe(w, err, s.Version())
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		probe(w, s.Healthy(), s.Version())
	})
	mux.HandleFunc("GET /", s.serveSite)
	return mux
}

func probe(w http.ResponseWriter, err error, version string) {
	body := map[string]string{"status": "ok", "version": version}
	status := http.StatusOK
	if err != nil {
		body["status"], body["error"], status = "unhealthy", err.Error(), http.StatusServiceUnavailable
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

// serveSite maps a request to a file of the current site. Bundles use .html
// URLs, but canonical and sitemap URLs are extensionless, so "/guides/intro"
// is answered with guides/intro.html and "/guides/" with guides/index.html.
func (s *Server) serveSite(w http.ResponseWriter, r *http.Request) {
	for {
		st := s.current.Load()
		if st == nil {
			http.Error(w, "no bundle has been fetched yet", http.StatusServiceUnavailable)
			return
		}
		st.mu.RLock()
		if st.retired {
			// Swapped out between Load and RLock: take the new one.
			st.mu.RUnlock()
			continue
		}
		w.Header().Set("X-Bundle-Version", st.version)
		serveFrom(w, r, st.dir)
		st.mu.RUnlock()
		return
	}
}

func serveFrom(w http.ResponseWriter, r *http.Request, dir string) {
	p := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	candidates := []string{p}
	switch {
	case p == "" || strings.HasSuffix(r.URL.Path, "/"):
		candidates = []string{path.Join(p, "index.html")}
	case path.Ext(p) == "":
		candidates = append(candidates, p+".html", path.Join(p, "index.html"))
	}
	for _, c := range candidates {
		if serveFile(w, r, filepath.Join(dir, filepath.FromSlash(c)), http.StatusOK) {
			return
		}
	}
	if !serveFile(w, r, filepath.Join(dir, "404.html"), http.StatusNotFound) {
		http.NotFound(w, r)
	}
}

// serveFile answers with the file at p, reporting false if there is no
// regular file there.
func serveFile(w http.ResponseWriter, r *http.Request, p string, status int) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	if status != http.StatusOK {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(status)
		_, _ = io.Copy(w, f)
		return true
	}
	http.ServeContent(w, r, st.Name(), st.ModTime(), f)
	return true
}
