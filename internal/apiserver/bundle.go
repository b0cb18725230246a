package apiserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/bundles"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/linksign"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/httprange"
)

// generateBundle answers POST /v1/static-export/jobs/{jobId}/bundle. The
// archive is built on the first call and kept; every later call, before or
// after a link expired, only makes a new link to the same archive.
func (ex *exportAPI) generateBundle(w http.ResponseWriter, r *http.Request) error {
	rec, err := ex.findExport(r, false)
	if err != nil {
		return err
	}
	switch rec.Status {
	case api.ExportCompleted:
	case api.ExportFailed:
		return errorf(http.StatusConflict, "static export job %q failed, so it has no bundle: %s", rec.JobID, rec.Error)
	default:
		return errorf(http.StatusConflict, "static export job %q is %s; a bundle can be generated once it is completed", rec.JobID, rec.Status)
	}
	size, version, err := ex.runner.ensureArchive(r, rec)
	if err != nil {
		return err
	}
	link, expires, err := ex.bundles.Link(r.Context(), rec)
	if err := ex.metrics.LinkIssued(err); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, api.Bundle{JobID: rec.JobID, BundleURL: link, SizeBytes: size, ExpiresAt: expires,
		Version: ex.contentVersion(version)})
	return nil
}

// archiveBuild is one archive being built; done closes when size and err
// are final.
type archiveBuild struct {
	done    chan struct{}
	size    int64
	version string
	err     error
}

// ensureArchive builds the job's archive unless it exists. The build runs
// under the server's context, not the request's: a client that gives up
// does not cancel it, and every concurrent call waits for the same build.
// It returns the archive's size and content version.
func (er *exportRunner) ensureArchive(r *http.Request, rec *jobstore.ExportJob) (int64, string, error) {
	// Not the request's context: a client that gives up must not turn a
	// missing answer into a failed build (see below).
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), readyzTimeout)
	size, version, found, err := er.bundles.Stat(ctx, rec)
	cancel()
	if found || err != nil {
		return size, version, err
	}
	b := &archiveBuild{done: make(chan struct{})}
	if prev, running := er.archiveBuilds.LoadOrStore(rec.JobID, b); running {
		b = prev.(*archiveBuild)
	} else {
		er.background.Add(1)
		go func() {
			defer er.background.Done()
			start := time.Now()
			b.size, b.version, b.err = er.bundles.Build(er.ctx, rec)
			er.metrics.ArchiveBuilt(b.err, time.Since(start))
			close(b.done)
			// A failed build may be asked for again; a finished one is in
			// the store, where the next call finds it.
			er.archiveBuilds.Delete(rec.JobID)
		}()
	}
	select {
	case <-b.done:
		return b.size, b.version, b.err
	case <-r.Context().Done():
		// Nobody reads this answer; the build goes on for the next call.
		return 0, "", &httpError{Status: http.StatusServiceUnavailable, RetryAfter: 1,
			Msg: "the request ended while the bundle was being built; ask again"}
	}
}

// downloadBundle serves GET on a link the server signed. The link is the
// whole credential: no API key is asked for, and nothing in the link can
// be changed without failing the signature check.
func (ex *exportAPI) downloadBundle(w http.ResponseWriter, r *http.Request) error {
	id, file := r.PathValue("jobId"), r.PathValue("file")
	err := ex.bundles.CheckLink(id, file, r.URL.Query(), ex.clock.Now())
	switch {
	case errors.Is(err, bundles.ErrNotServed):
		// This server never issues such links: its bundles are served by
		// the object store, through links the store checks itself.
		return notFound("bundles of this server are downloaded from the object store; generate the bundle for a link")
	case err == nil && ex.control.LinkRevoked(id):
		return errorf(http.StatusForbidden, "this bundle link was revoked: its job was deleted by a reset")
	case errors.Is(err, linksign.ErrLinkExpired):
		return errorf(http.StatusForbidden, "this bundle link has expired; generate the bundle again for a fresh link")
	case err != nil:
		return errorf(http.StatusForbidden, "this bundle link is not valid: its signature does not match")
	}
	// A valid signature was made by us, so id and file are well-formed;
	// check anyway before they reach the file system.
	if !validExportID(id) || file != api.BundleFileName {
		return errorf(http.StatusForbidden, "this bundle link is not valid")
	}
	rec, err := ex.store.ExportJob(r.Context(), id)
	if errors.Is(err, jobstore.ErrNoRecord) || (err == nil && (rec.BundleSize == 0 || ex.retention.expired(rec.CreatedAt))) {
		return notFound("the bundle of job %q no longer exists", id)
	}
	if err != nil {
		return fmt.Errorf("load export job: %w", err)
	}
	f, err := ex.bundles.Open(id)
	if err != nil {
		return fmt.Errorf("open bundle: %w", err)
	}
	defer f.Close() //nolint:errcheck // opened read-only: Close cannot lose data
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("stat bundle: %w", err)
	}
	h := w.Header()
	h.Set("Content-Type", "application/gzip")
	h.Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", id+".tar.gz"))
	h.Set("Cache-Control", "private, no-store")
	if v := ex.contentVersion(rec.Version); v != "" {
		h.Set("ETag", `"`+v+`"`)
	}
	httprange.Limit(r, st.Size())
	http.ServeContent(w, r, "", st.ModTime(), f)
	return nil
}
