package apiserver

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/agents"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/control"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/httpapi"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
)

// controlHost is what the control plane (internal/apiserver/control) may
// do to the server: the narrow control.Host, not the whole Server.
type controlHost struct{ s *Server }

var _ control.Host = controlHost{}

func (h controlHost) Store() jobstore.Store { return h.s.store }

func (h controlHost) WakeWorkers() { h.s.runner.wakeWorkers() }

func (h controlHost) RemoveExport(ctx context.Context, jobID string) error {
	return h.s.runner.removeExport(ctx, jobID)
}

func (h controlHost) LoadExport(ctx context.Context, jobID string) (*jobstore.ExportJob, error) {
	return h.s.exports.loadExport(ctx, jobID, false)
}

func (h controlHost) ExportView(rec *jobstore.ExportJob) api.ExportJob {
	return h.s.exports.exportView(rec)
}

// SiteExists reports whether a job's rendered site is still there.
func (h controlHost) SiteExists(rec *jobstore.ExportJob) bool { return h.s.bundles.Exists(rec) }

func (h controlHost) AgentJobView(rec *jobstore.AgentJob, now time.Time) api.AgentJob {
	return agents.JobView(rec, now)
}

func (h controlHost) NewID(prefix string) (string, error) { return h.s.newID(prefix) }

func (h controlHost) Handle(f httpapi.HandlerFunc) http.Handler { return h.s.apiHandler(f) }

func (h controlHost) ServeError(w http.ResponseWriter, r *http.Request, err error) {
	h.s.serveError(w, r, err)
}

func (h controlHost) LimitBody(next http.Handler) http.Handler {
	return httpapi.LimitBody(h.s.serveError, next)
}

// RequestOrg is the organization a request acts for: the caller's, or
// for a bundle download the job's; "" for the public probes.
func (h controlHost) RequestOrg(r *http.Request) string {
	if o := orgFrom(r.Context()); o != nil {
		return o.ID
	}
	id := r.PathValue("jobId")
	if !validExportID(id) {
		return ""
	}
	if rec, err := h.s.store.ExportJob(r.Context(), id); err == nil {
		httpapi.NoteFrom(r.Context()).SetOrg(rec.OrgID)
		return rec.OrgID
	}
	return ""
}

// KeyOrg is the organization whose admin key a request carries, "" for
// none: the journal's attribution of a request that no route matched,
// so never went through requireAuth.
func (h controlHost) KeyOrg(r *http.Request) string {
	scheme, key, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	if o := h.s.authenticate(strings.TrimSpace(key)); o != nil {
		return o.ID
	}
	return ""
}

// agentHost is what the agent handlers (internal/apiserver/agents) may
// ask of the server.
type agentHost struct{ s *Server }

var _ agents.Host = agentHost{}

func (h agentHost) Org(ctx context.Context) *apiconfig.Organization { return orgFrom(ctx) }

func (h agentHost) NewID(prefix string) (string, error) { return h.s.newID(prefix) }

func (h agentHost) Expired(t time.Time) bool { return h.s.retention().expired(t) }

// Go runs fn as background work of the server: Close cancels its context
// and waits for it. After Close it does not run.
func (h agentHost) Go(fn func(ctx context.Context)) {
	s := h.s
	s.bgMu.Lock()
	defer s.bgMu.Unlock()
	if s.closed.Load() {
		return
	}
	er := s.runner
	er.background.Add(1)
	go func() {
		defer er.background.Done()
		fn(er.ctx)
	}()
}
