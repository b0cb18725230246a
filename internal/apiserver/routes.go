package apiserver

import (
	"net/http"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// routes is the one list of what the server answers. Anything else gets a
// JSON 404, or a JSON 405 with Allow when the path exists under another
// method; see fallback.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	patterns := map[string]bool{}
	handle := func(pattern string, h http.Handler) {
		mux.Handle(pattern, h)
		patterns[pattern] = true
	}
	authed := func(h handlerFunc) http.Handler { return s.requireAuth(s.apiHandler(h)) }
	withBody := func(h handlerFunc) http.Handler { return s.requireAuth(s.limitBody(s.apiHandler(h))) }

	handle("POST "+api.PathAgentJobs, withBody(s.createAgentJob))
	handle("GET "+api.PathAgentJob, authed(s.getAgentJob))
	handle("POST "+api.PathExportJobs, withBody(s.startExport))
	handle("GET "+api.PathExportJob, authed(s.getExport))
	handle("POST "+api.PathExportBundle, withBody(s.generateBundle))
	handle("GET "+api.PathBundleDownload, s.apiHandler(s.downloadBundle))
	handle("GET "+api.PathOpenAPI, s.apiHandler(serveOpenAPI))
	handle("GET "+api.PathHealthz, s.apiHandler(s.healthz))
	handle("GET "+api.PathReadyz, s.apiHandler(s.readyz))

	return s.logAndRecover(s.fallback(mux, patterns))
}

// fallback answers what the mux would answer in plain text (404, 405, a
// redirect to a cleaned path) as JSON errors instead. A path that is not in
// canonical form is a 404 rather than a redirect: ids never contain "..".
func (s *Server) fallback(mux *http.ServeMux, patterns map[string]bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := mux.Handler(r)
		if patterns[pattern] {
			mux.ServeHTTP(w, r)
			return
		}
		probe := &statusProbe{header: http.Header{}}
		h.ServeHTTP(probe, r)
		if probe.status == http.StatusMethodNotAllowed {
			allow := probe.header.Get("Allow")
			w.Header().Set("Allow", allow)
			s.serveError(w, r, errorf(http.StatusMethodNotAllowed, "method %s is not allowed on %s (allowed: %s)",
				r.Method, r.URL.Path, allow))
			return
		}
		s.serveError(w, r, notFound("no such endpoint: %s %s", r.Method, r.URL.Path))
	})
}

// statusProbe keeps the status and headers the mux's own answer would
// have had and discards its plain-text body.
type statusProbe struct {
	header http.Header
	status int
}

func (p *statusProbe) Header() http.Header { return p.header }

func (p *statusProbe) WriteHeader(code int) {
	if p.status == 0 {
		p.status = code
	}
}

func (p *statusProbe) Write(b []byte) (int, error) {
	p.WriteHeader(http.StatusOK)
	return len(b), nil
}

func (s *Server) healthz(w http.ResponseWriter, _ *http.Request) error {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	return nil
}

// readyz fails once shutdown has begun, so a load balancer stops sending
// traffic before the listener closes.
func (s *Server) readyz(w http.ResponseWriter, _ *http.Request) error {
	if s.draining.Load() || s.closed.Load() {
		return errorf(http.StatusServiceUnavailable, "shutting down")
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
	return nil
}
