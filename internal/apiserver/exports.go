package apiserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apimetrics"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/bundles"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/control"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

// exportIDLen is the length of every export job id we issue: "se_" and
// 16 lower-case hex digits (newID).
const exportIDLen = 3 + 16

// validExportID reports whether id has the shape of every export job id
// we issue. Checking it before touching the store or the file system keeps
// traversal out. It is spelled out rather than a regular expression: it
// runs on every status read, where the match cost a tenth of the
// server's own time.
func validExportID(id string) bool {
	if len(id) != exportIDLen || id[:3] != "se_" {
		return false
	}
	for i := 3; i < len(id); i++ {
		if c := id[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

const (
	maxLabelLen = 128
	maxPaths    = 10000
	maxPathLen  = 512
)

// exportAPI answers the static export operations: start an export, read
// it, get a bundle link and download through it (exports.go, bundle.go).
// It stores jobs and reads them back; the rendering is exportRunner's.
type exportAPI struct {
	cfg     *apiconfig.Config
	store   jobstore.Store
	runner  *exportRunner
	bundles bundles.Store
	// checker checks the pages a start names against the source.
	checker   Exporter
	control   *control.Plane
	clock     clock.Clock
	log       hclog.Logger
	metrics   *apimetrics.Metrics
	newID     func(prefix string) (string, error)
	retention retention
	strict    bool
	// statuses keeps the last status answer of each job (statusbody.go).
	statuses statusBodies
}

// exportOp makes a route handler of an exportAPI method.
func exportOp(h func(*exportAPI, http.ResponseWriter, *http.Request) error) func(*Server, http.ResponseWriter, *http.Request) error {
	return func(s *Server, w http.ResponseWriter, r *http.Request) error { return h(s.exports, w, r) }
}

func (ex *exportAPI) startExport(w http.ResponseWriter, r *http.Request) error {
	org := orgFrom(r.Context())
	if org.Plan != apiconfig.PlanEnterprise {
		return errorf(http.StatusForbidden, "static export is not enabled for organization %q: it needs the enterprise plan", org.ID)
	}
	// Idempotency-Key is our addition: strict mode ignores it, as the
	// real service would.
	var idemKey string
	if !ex.strict {
		k, err := idempotencyKey(r)
		if err != nil {
			return err
		}
		idemKey = k
	}
	var req api.StartExportRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	domain, err := api.CheckDomain(req.Domain)
	if err != nil {
		return badRequest("%v", err) // clipped by CheckDomain
	}
	if err := checkLabel(req.Version); err != nil {
		return err
	}
	paths, err := checkPaths(req.Paths)
	if err != nil {
		return err
	}
	_, dep := org.Deployment(domain)
	if dep == nil {
		return badRequest("unknown domain %q: no deployment of this organization has it", domain)
	}
	if err := ex.checkRequestedPages(dep, paths); err != nil {
		return err
	}
	// A job accepted now could not be stored once rendered: refuse it
	// before anything is written, rather than keep a job that would fail.
	if err := ex.bundles.Ready(r.Context()); err != nil {
		ex.log.Warn("export refused: the object store failed its check", "error", redact.Error(err))
		return &httpError{Status: http.StatusServiceUnavailable, RetryAfter: 5,
			Msg: "the object store that keeps exports is unreachable; retry later"}
	}
	id, err := ex.newID("se_")
	if err != nil {
		return err
	}
	now := ex.clock.Now().UTC()
	rec := &jobstore.ExportJob{
		JobID: id, OrgID: org.ID, Domain: domain, Label: req.Version, Paths: paths,
		Status: api.ExportQueued, CreatedAt: now, UpdatedAt: now,
	}
	ex.control.HoldNew(rec)
	existing, err := ex.runner.createJob(r.Context(), rec, jobstore.Creation{
		IdempotencyKey: idemKey, RequestHash: requestHash(domain, req.Version, paths), Limits: ex.exportLimits(),
	})
	switch {
	case errors.Is(err, jobstore.ErrIdempotencyConflict):
		return errorf(http.StatusConflict, "%s %q was already used for a different request; use a new key for a new export", api.IdempotencyHeader, idemKey)
	case errors.Is(err, jobstore.ErrTooManyActive):
		return &httpError{Status: http.StatusTooManyRequests, RetryAfter: activeRetryAfter,
			Msg: fmt.Sprintf("organization %q has %d exports queued or running, the most allowed; retry when one finishes", org.ID, ex.cfg.MaxActiveExports)}
	case errors.Is(err, jobstore.ErrTooManyStored):
		return errorf(http.StatusInsufficientStorage, "organization %q stores %d exports, the most allowed; they are deleted after the retention of %s", org.ID, ex.cfg.MaxStoredExports, ex.retention.period)
	case errors.Is(err, jobstore.ErrTooManyBytes):
		return errorf(http.StatusInsufficientStorage, "organization %q stores %d bytes of exports, the most allowed is %d; they are deleted after the retention of %s", org.ID, ex.runner.orgStoredBytes(r.Context(), org.ID), ex.cfg.MaxStoredBytes, ex.retention.period)
	case err != nil:
		return storeError("store export job", err)
	case existing != nil:
		// A retried start: the job the first one created, as it is now.
		ex.runner.overlayLive(existing)
		w.Header().Set("Location", strings.Replace(api.PathExportJob, "{jobId}", existing.JobID, 1))
		writeJSON(w, http.StatusAccepted, ex.exportView(existing))
		return nil
	}
	ex.runner.wakeWorkers()
	ex.log.Info("export queued", "job", id, "domain", domain, "paths", len(paths))
	w.Header().Set("Location", strings.Replace(api.PathExportJob, "{jobId}", id, 1))
	writeJSON(w, http.StatusAccepted, ex.exportView(rec))
	return nil
}

func (ex *exportAPI) getExport(w http.ResponseWriter, r *http.Request) error {
	rec, err := ex.findExport(r, true)
	if err != nil {
		return err
	}
	ex.runner.overlayLive(rec)
	ex.statuses.write(w, ex.exportView(rec))
	return nil
}

// findExport loads the job named in the path, if the caller's organization
// owns it; a status read (poll) with the store's PollExportJob. Another
// organization's job answers exactly like a missing one.
func (ex *exportAPI) findExport(r *http.Request, poll bool) (*jobstore.ExportJob, error) {
	id := r.PathValue("jobId")
	rec, err := ex.loadExport(r.Context(), id, poll)
	if err != nil {
		return nil, err
	}
	if rec.OrgID != orgFrom(r.Context()).ID {
		return nil, exportNotFound(id)
	}
	if ex.retention.expired(rec.CreatedAt) {
		ex.runner.forgetExport(r.Context(), rec.JobID)
		return nil, exportNotFound(id)
	}
	return rec, nil
}

// exportNotFound is the answer for a job the caller cannot see. It is
// built only on that path: status reads are the hottest request, and a
// formatted error made in advance costs them six allocations.
func exportNotFound(id string) error { return notFound("static export job %q not found", id) }

// loadExport loads any organization's export job, or answers 404; a
// status read (poll) with the store's PollExportJob.
func (ex *exportAPI) loadExport(ctx context.Context, id string, poll bool) (*jobstore.ExportJob, error) {
	if !validExportID(id) {
		return nil, exportNotFound(id)
	}
	var rec *jobstore.ExportJob
	var err error
	if poll {
		rec, err = ex.store.PollExportJob(ctx, id)
	} else {
		rec, err = ex.store.ExportJob(ctx, id)
	}
	if errors.Is(err, jobstore.ErrNoRecord) {
		return nil, exportNotFound(id)
	}
	if err != nil {
		return nil, fmt.Errorf("load export job: %w", err)
	}
	return rec, nil
}

// exportView is the job as the API shows it; in strict mode without the
// fields the real service does not document.
func (ex *exportAPI) exportView(rec *jobstore.ExportJob) api.ExportJob {
	v := exportView(rec)
	if ex.strict {
		v.Version, v.Warnings = "", nil
	}
	return v
}

// contentVersion is version as answers carry it: left out in strict mode.
func (ex *exportAPI) contentVersion(version string) string {
	if ex.strict {
		return ""
	}
	return version
}

func (ex *exportAPI) exportLimits() jobstore.Limits {
	return jobstore.Limits{Active: ex.cfg.MaxActiveExports, Stored: ex.cfg.MaxStoredExports, Bytes: ex.cfg.MaxStoredBytes}
}

func exportView(rec *jobstore.ExportJob) api.ExportJob {
	v := api.ExportJob{
		JobID: rec.JobID, Status: rec.Status, Progress: rec.Progress, PageCount: rec.PageCount,
		CreatedAt: rec.CreatedAt.UTC(), UpdatedAt: rec.UpdatedAt.UTC(), Error: rec.Error, Warnings: rec.Warnings,
	}
	if rec.Owner == control.HoldOwner {
		v.Status = api.ExportQueued // held by the control plane: not started
	}
	// Only a completed job has content to version: a job failed after its
	// site was lost on a crash keeps the old version in its record.
	if rec.Status == api.ExportCompleted {
		v.Version = rec.Version
	}
	return v
}

// checkRequestedPages makes sure every requested page exists. Only a
// request that names pages is checked against the source: a source that
// does not parse is the deployment's fault, reported when the job fails.
func (ex *exportAPI) checkRequestedPages(dep *apiconfig.Deployment, paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	err := ex.checker.CheckPaths(dep.SourceFS, paths)
	var ie *export.InputError
	if errors.As(err, &ie) {
		return badRequest("paths: %s", ie.Msg)
	}
	if err != nil {
		return fmt.Errorf("check paths: %w", err)
	}
	return nil
}

func checkLabel(v string) error {
	if len(v) > maxLabelLen {
		return badRequest("version label exceeds %d characters", maxLabelLen)
	}
	for _, r := range v {
		if !unicode.IsPrint(r) {
			return badRequest("version label must be printable text")
		}
	}
	return nil
}

// checkPaths rejects page paths that could only be mistakes or attacks and
// normalises the rest to the extensionless form ("guides/intro").
func checkPaths(paths []string) ([]string, error) {
	if len(paths) > maxPaths {
		return nil, badRequest("paths lists %d entries; at most %d are allowed", len(paths), maxPaths)
	}
	seen := map[string]bool{}
	var out []string
	for i, p := range paths {
		bad := func(why string) error { return badRequest("paths[%d] %q %s", i, p, why) }
		switch {
		case p == "":
			return nil, bad("is empty")
		case len(p) > maxPathLen:
			return nil, badRequest("paths[%d] exceeds %d characters", i, maxPathLen)
		case strings.Contains(p, "://"):
			return nil, bad("must be a page path, not a URL")
		case strings.HasPrefix(p, "/"):
			return nil, bad("must be relative, without a leading slash")
		case strings.ContainsAny(p, "\\?#%") || strings.IndexFunc(p, unicode.IsControl) >= 0:
			return nil, bad("contains characters a page path cannot have")
		}
		for _, seg := range strings.Split(p, "/") {
			if seg == "" || seg == "." || seg == ".." {
				return nil, bad("has an empty, \".\" or \"..\" segment")
			}
		}
		p = strings.TrimSuffix(strings.TrimSuffix(p, ".mdx"), ".md")
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out, nil
}
