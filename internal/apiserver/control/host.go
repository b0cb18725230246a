package control

import (
	"context"
	"io"
	"net/http"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/httpapi"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
)

// Host is what the control plane needs of the server it drives: its
// store and export workers, how it loads and shows jobs, and how it
// answers requests. The server implements it; the control plane holds no
// pointer to the server itself.
type Host interface {
	// Store is the server's job store, open by the time a request comes.
	Store() jobstore.Store
	// WakeWorkers tells the export workers to look for jobs now.
	WakeWorkers()
	// RemoveExport deletes an export job's record and files.
	RemoveExport(ctx context.Context, jobID string) error
	// LoadExport finds an export job; an unknown id is an httpapi 404.
	LoadExport(ctx context.Context, jobID string) (*jobstore.ExportJob, error)
	// ExportView is an export job as the admin API shows it.
	ExportView(rec *jobstore.ExportJob) api.ExportJob
	// SiteExists reports whether a job's rendered site is still there.
	SiteExists(rec *jobstore.ExportJob) bool
	// AgentJobView is an agent job as the admin API shows it at now.
	AgentJobView(rec *jobstore.AgentJob, now time.Time) api.AgentJob
	// NewID returns prefix followed by random hex digits.
	NewID(prefix string) (string, error)
	// Handle adapts a handler that returns errors to the server's answers.
	Handle(h httpapi.HandlerFunc) http.Handler
	// ServeError answers err as the server answers every error.
	ServeError(w http.ResponseWriter, r *http.Request, err error)
	// LimitBody bounds a request body and insists it is JSON.
	LimitBody(next http.Handler) http.Handler
	// RequestOrg is the organization a request acts for ("" for none).
	RequestOrg(r *http.Request) string
	// KeyOrg is the organization whose admin key a request carries ("" for
	// none), whatever the route.
	KeyOrg(r *http.Request) string
}

// Options configure a Plane. All are required but JournalSize.
type Options struct {
	// Config is the server's configuration: the organizations' keys a
	// control token must not look like, and the journal's default size.
	Config *apiconfig.Config
	// Token is the control token every control request carries.
	Token string
	// JournalSize overrides Config.Control.JournalSize when positive; zero
	// takes the configuration's size, or the default.
	JournalSize int
	// DataDir is where the holds and revocations are kept (state.go), so
	// that they survive a restart.
	DataDir string
	// LinkTTL is the bundle link lifetime: how long a revocation is kept.
	LinkTTL time.Duration
	// Clock is the server's clock, which the control plane wraps: the
	// server reads the time from Plane.Clock from then on.
	Clock clock.Clock
	// Random draws runtime organizations' ids and keys, and the seed of a
	// fault that names none.
	Random io.Reader
	// Log receives the control plane's log lines.
	Log hclog.Logger
	// Orgs are the configured organizations and those made at runtime.
	Orgs *Orgs
	// Host is the server, as far as the control plane may reach it.
	Host Host
}

// Route is one operation of the control plane: an HTTP method and a path
// pattern in net/http ServeMux syntax (the api.PathControl* constants).
type Route struct {
	Method  string
	Pattern string
}

// handler is the shape of a route's handler on one of the plane's parts.
type handler[T any] func(T, http.ResponseWriter, *http.Request) error

func clockOp(h handler[*clockControl]) handler[*Plane] {
	return func(cp *Plane, w http.ResponseWriter, r *http.Request) error { return h(&cp.clock, w, r) }
}

func faultOp(h handler[*Faults]) handler[*Plane] {
	return func(cp *Plane, w http.ResponseWriter, r *http.Request) error { return h(cp.faults, w, r) }
}

func journalOp(h handler[*Journal]) handler[*Plane] {
	return func(cp *Plane, w http.ResponseWriter, r *http.Request) error { return h(cp.journal, w, r) }
}
