package apiserver

import (
	"context"
	"net/http"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/agents"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/control"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/httpapi"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

// Route is one operation the server answers: an HTTP method and a path
// pattern in net/http ServeMux syntax (the api.Path* constants).
type Route struct {
	Method  string
	Pattern string
}

// access says which middleware stands in front of a handler.
type access int

const (
	public   access = iota // no key: the bundle link is its own credential, probes and the API description are open
	authed                 // an admin key
	withBody               // an admin key and a JSON body of at most api.MaxRequestBodyBytes
)

// routeTable is the one list of what the server answers; routes registers
// exactly these and Routes publishes them, so the OpenAPI test checks the
// document against what is really served. Handlers are method expressions
// because the table exists before any Server does.
var routeTable = []struct {
	Route
	access  access
	handler func(*Server, http.ResponseWriter, *http.Request) error
}{
	{Route{http.MethodPost, api.PathAgentJobs}, withBody, agentOp((*agents.API).CreateAgentJob)},
	{Route{http.MethodGet, api.PathAgentJob}, authed, agentOp((*agents.API).GetAgentJob)},
	{Route{http.MethodPost, api.PathAgentMessage}, withBody, agentOp((*agents.API).SendAgentMessage)},
	{Route{http.MethodPost, api.PathExportJobs}, withBody, exportOp((*exportAPI).startExport)},
	{Route{http.MethodGet, api.PathExportJob}, authed, exportOp((*exportAPI).getExport)},
	{Route{http.MethodPost, api.PathExportBundle}, withBody, exportOp((*exportAPI).generateBundle)},
	{Route{http.MethodGet, api.PathBundleDownload}, public, exportOp((*exportAPI).downloadBundle)},
	{Route{http.MethodPost, api.PathProjectUpdate}, withBody, agentOp((*agents.API).TriggerUpdate)},
	{Route{http.MethodGet, api.PathUpdateStatus}, authed, agentOp((*agents.API).GetUpdateStatus)},
	{Route{http.MethodGet, api.PathOpenAPI}, public, func(_ *Server, w http.ResponseWriter, r *http.Request) error {
		return serveOpenAPI(w, r)
	}},
	{Route{http.MethodGet, api.PathHealthz}, public, (*Server).healthz},
	{Route{http.MethodGet, api.PathReadyz}, public, (*Server).readyz},
}

// agentOp makes a route handler of an agents.API method.
func agentOp(h func(*agents.API, http.ResponseWriter, *http.Request) error) func(*Server, http.ResponseWriter, *http.Request) error {
	return func(s *Server, w http.ResponseWriter, r *http.Request) error { return h(s.agents, w, r) }
}

// Routes returns the method and pattern of every operation the server
// registers, in registration order. The slice is a copy.
func Routes() []Route {
	out := make([]Route, len(routeTable))
	for i, rt := range routeTable {
		out[i] = rt.Route
	}
	return out
}

// ControlRoutes returns the control plane's operations, registered only
// when it is enabled; a copy.
func ControlRoutes() []Route {
	var out []Route
	for _, rt := range control.Routes() {
		out = append(out, Route(rt))
	}
	return out
}

// routes registers routeTable. Anything else gets a JSON 404, or a JSON 405
// with Allow when the path exists under another method; see httpapi.Fallback.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	patterns := map[string]bool{}
	for _, rt := range routeTable {
		h := s.apiHandler(func(w http.ResponseWriter, r *http.Request) error { return rt.handler(s, w, r) })
		if s.control != nil {
			h = s.control.InjectFaults(h)
		}
		pattern := rt.Method + " " + rt.Pattern
		access := rt.access
		if s.strict && httpapi.StrictNoBody[pattern] {
			access = authed // the body is not read, so not checked (httpapi/strict.go)
		}
		switch access {
		case withBody:
			h = s.requireAuth(httpapi.LimitBody(s.serveError, h))
		case authed:
			h = s.requireAuth(h)
		}
		if s.control != nil {
			h = httpapi.NoteRoute(h) // for the journal: which requests matched no route
		}
		mux.Handle(pattern, h)
		patterns[pattern] = true
	}
	mux.Handle(http.MethodGet+" "+PathMetrics, s.metrics.Handler())
	patterns[http.MethodGet+" "+PathMetrics] = true
	if s.control != nil {
		s.control.Register(mux, patterns)
	}
	h := httpapi.Fallback(mux, patterns, s.serveError)
	if s.control != nil {
		h = s.control.JournalRequests(h, PathMetrics)
	}
	return httpapi.Date(s.clock, httpapi.LogAndRecover(s.log, s.serveError, httpapi.CORS(s.corsAllowed, s.serveError, h)))
}

// corsAllowed reports whether browsers on origin may call the API.
func (s *Server) corsAllowed(origin string) bool {
	return apiconfig.OriginAllowed(s.cfg.CORSAllowedOrigins, origin)
}

func (s *Server) healthz(w http.ResponseWriter, _ *http.Request) error {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	return nil
}

// readyzTimeout bounds the database check, well inside a probe's timeout.
const readyzTimeout = 2 * time.Second

// readyz fails once shutdown has begun, so a load balancer stops sending
// traffic before the listener closes.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) error {
	if s.draining.Load() || s.closed.Load() {
		return errorf(http.StatusServiceUnavailable, "shutting down")
	}
	// A replica that cannot reach the shared database is taken out of the
	// load balancer until it can again; the pool reconnects by itself.
	ctx, cancel := context.WithTimeout(r.Context(), readyzTimeout)
	defer cancel()
	if err := s.store.Ping(ctx); err != nil {
		s.log.Warn("not ready: the database is unreachable", "error", redact.Error(err))
		return errorf(http.StatusServiceUnavailable, "the database is unreachable")
	}
	// Likewise the bucket: without it nothing can be exported or linked.
	if err := s.bundles.Ready(r.Context()); err != nil {
		s.log.Warn("not ready: the object store failed its check", "error", redact.Error(err))
		return errorf(http.StatusServiceUnavailable, "the object store is unreachable")
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready"})
	return nil
}
