package bundleserve

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/httprange"
)

var verifyDir = bundle.VerifyDir

// Handler serves the site and three probes:
//   - /livez: the process is up (what a liveness probe should ask);
//   - /readyz: a verified site is being served and its files are on disk
//     as they were verified (readiness: a changed site leaves the Service);
//   - /healthz: ready, the served files match what was verified, and the
//     last update succeeded; red while a broken or expired bundle is being
//     refused, though the old site keeps serving.
//
// The probes are public: a red one says why in a word ("reason"), never
// with an upstream's error or a local path, which go to the log.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /livez", func(w http.ResponseWriter, _ *http.Request) {
		probe(w, nil, s.Version())
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		probe(w, s.intact(), s.Version())
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
		reason, fields := reasonOf(err)
		for k, v := range fields {
			body[k] = v
		}
		body["status"], body["reason"], status = "unhealthy", reason, http.StatusServiceUnavailable
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
		// Every answer is read as the type it is served as: a file from
		// the docs source must not be sniffed into HTML.
		w.Header().Set("X-Content-Type-Options", "nosniff")
		cw := &countingWriter{ResponseWriter: w}
		serveFrom(cw, r, st.dir)
		st.mu.RUnlock()
		s.metrics.bytesServed.Add(float64(cw.n))
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
		if serveFile(w, r, filepath.Join(dir, filepath.FromSlash(c))) {
			return
		}
	}
	// How many directories below the root the browser thinks it is.
	depth := strings.Count(p, "/")
	if p != "" && strings.HasSuffix(r.URL.Path, "/") {
		depth++
	}
	serveNotFound(w, depth, dir)
}

// serveNotFound answers with the bundle's 404.html. Its links are relative
// to the bundle root, so for a missing page below the root a <base> that
// climbs back up is added; otherwise its stylesheet and links would resolve
// against the missing page's directory.
func serveNotFound(w http.ResponseWriter, depth int, dir string) {
	page, err := os.ReadFile(filepath.Join(dir, "404.html"))
	if err != nil {
		http.Error(w, "404 page not found", http.StatusNotFound)
		return
	}
	if depth > 0 {
		base := []byte(`<base href="` + strings.Repeat("../", depth) + `">`)
		if i := bytes.Index(page, []byte("<head>")); i >= 0 {
			i += len("<head>")
			page = append(page[:i:i], append(base, page[i:]...)...)
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	_, _ = w.Write(page)
}

// serveFile answers with the file at p, reporting false if there is no
// regular file there.
func serveFile(w http.ResponseWriter, r *http.Request, p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close() //nolint:errcheck // opened read-only: Close cannot lose data
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	ctype, err := contentType(f, p)
	if err != nil {
		return false
	}
	w.Header().Set("Content-Type", ctype)
	if scriptable(ctype, p) {
		w.Header().Set("Content-Security-Policy", documentPolicy)
	}
	httprange.Limit(r, st.Size())
	http.ServeContent(w, r, st.Name(), st.ModTime(), f)
	return true
}

// contentType is the type ServeContent would send for the file f at p:
// by its extension, else by its first bytes. It is decided here so that
// the policy below is chosen for the type the browser is told.
func contentType(f io.ReadSeeker, p string) (string, error) {
	if ctype := mime.TypeByExtension(filepath.Ext(p)); ctype != "" {
		return ctype, nil
	}
	var head [512]byte
	n, err := io.ReadFull(f, head[:])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	return http.DetectContentType(head[:n]), nil
}

// scriptable reports a file a browser opens as a document that runs
// script on the site's origin, other than the export's own pages (.html,
// which carry their policy in a <meta>): SVG and the other XML types,
// and a file of another name whose bytes read as HTML.
func scriptable(ctype, p string) bool {
	media, _, err := mime.ParseMediaType(ctype)
	if err != nil {
		return true // a type the browser may read as anything
	}
	switch {
	case media == "text/html":
		ext := strings.ToLower(filepath.Ext(p))
		return ext != ".html" && ext != ".htm"
	case media == "text/xml", media == "application/xml", strings.HasSuffix(media, "+xml"):
		return true
	}
	return false
}

// documentPolicy is the Content-Security-Policy of a scriptable file:
// drawn with its own styles and images, never running script or loading
// anything else. It changes nothing when the file is an <img> of a page,
// where it runs no script anyway.
const documentPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:"
