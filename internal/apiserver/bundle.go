package apiserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/linksign"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/httprange"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/objstore"
)

// generateBundle answers POST /v1/static-export/jobs/{jobId}/bundle. The
// archive is built on the first call and kept; every later call, before or
// after a link expired, only signs a new link to the same file.
func (ex *exportAPI) generateBundle(w http.ResponseWriter, r *http.Request) error {
	s := ex.srv
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
	size, version, err := s.runner.ensureArchive(r, rec)
	if err != nil {
		return err
	}
	if s.objects != nil {
		return s.metrics.LinkIssued(ex.objectBundleLink(w, r, rec, size, version))
	}
	expires := s.clock.Now().Add(s.linkTTL).Truncate(time.Second).UTC()
	// The link's path is the route downloadBundle is registered under, so
	// the two cannot drift apart.
	u := s.publicURL.JoinPath(api.FillPath(api.PathBundleDownload,
		map[string]string{"jobId": rec.JobID, "file": api.BundleFileName}))
	u.RawQuery = s.signer.Sign(rec.JobID, api.BundleFileName, expires).Encode()
	_ = s.metrics.LinkIssued(nil)
	writeJSON(w, http.StatusOK, api.Bundle{JobID: rec.JobID, BundleURL: u.String(), SizeBytes: size, ExpiresAt: expires, Version: s.contentVersion(rec.Version)})
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
	s := er.srv
	build := func() (int64, string, error) {
		size, err := er.buildArchive(rec.JobID)
		return size, rec.Version, err
	}
	if s.objects != nil {
		// The stored object is the truth, whoever built it; a record
		// without its size yet is no reason to build again.
		// Not the request's context: a client that gives up must not
		// turn a missing answer into a failed build (see below).
		ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), readyzTimeout)
		size, version, err := er.sites.statArchive(ctx, rec)
		cancel()
		if !errors.Is(err, objstore.ErrNotFound) {
			return size, version, err
		}
		build = func() (int64, string, error) { return er.sites.buildObjectArchive(rec) }
	} else if rec.BundleSize > 0 {
		return rec.BundleSize, rec.Version, nil
	}
	b := &archiveBuild{done: make(chan struct{})}
	if prev, running := s.archiveBuilds.LoadOrStore(rec.JobID, b); running {
		b = prev.(*archiveBuild)
	} else {
		s.background.Add(1)
		go func() {
			defer s.background.Done()
			start := time.Now()
			b.size, b.version, b.err = build()
			s.metrics.ArchiveBuilt(b.err, time.Since(start))
			close(b.done)
			// A failed build may be asked for again; a finished one is in
			// the store, where the next call finds it.
			s.archiveBuilds.Delete(rec.JobID)
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

func (er *exportRunner) buildArchive(id string) (int64, error) {
	s := er.srv
	// Another server run may have built it: the record is the truth.
	fresh, err := s.store.ExportJob(id)
	if err != nil {
		return 0, fmt.Errorf("reload export job: %w", err)
	}
	if fresh.BundleSize > 0 {
		return fresh.BundleSize, nil
	}
	start := time.Now()
	size, err := er.writeArchive(s.ctx, id)
	if err != nil {
		return 0, err
	}
	if err := s.store.SetBundleSize(id, size); err != nil {
		return 0, fmt.Errorf("store bundle: %w", err)
	}
	s.archives.Add(1)
	s.log.Info("bundle archived", "job", id, "bytes", size, "duration", time.Since(start).Round(time.Millisecond))
	return size, nil
}

// writeArchive archives the site an older server left in the job's
// directory (site/) beside it (writeArchiveFile).
func (er *exportRunner) writeArchive(ctx context.Context, id string) (int64, error) {
	site := er.siteDir(id)
	return er.writeArchiveFile(ctx, id, func(ctx context.Context, w io.Writer, workers int) error {
		return bundle.Write(ctx, site, w, workers)
	}, nil)
}

// downloadBundle serves GET on a presigned link. The link is the whole
// credential: no API key is asked for, and nothing in the link can be
// changed without failing the signature check.
func (ex *exportAPI) downloadBundle(w http.ResponseWriter, r *http.Request) error {
	s := ex.srv
	id, file := r.PathValue("jobId"), r.PathValue("file")
	if s.objects != nil {
		// This server never issues such links: its bundles are served by
		// the object store, through links the store checks itself.
		return notFound("bundles of this server are downloaded from the object store; generate the bundle for a link")
	}
	err := s.signer.Verify(id, file, r.URL.Query(), s.clock.Now())
	switch {
	case err == nil && s.control.LinkRevoked(id):
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
	rec, err := s.store.ExportJob(id)
	if errors.Is(err, jobstore.ErrNoRecord) || (err == nil && (rec.BundleSize == 0 || s.expired(rec.CreatedAt))) {
		return notFound("the bundle of job %q no longer exists", id)
	}
	if err != nil {
		return fmt.Errorf("load export job: %w", err)
	}
	f, err := os.Open(s.runner.bundlePath(id))
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
	if v := s.contentVersion(rec.Version); v != "" {
		h.Set("ETag", `"`+v+`"`)
	}
	httprange.Limit(r, st.Size())
	http.ServeContent(w, r, "", st.ModTime(), f)
	return nil
}
