package apiserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/objstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

// statArchive returns the size and content version of rec's archive
// object, objstore.ErrNotFound (wrapped) if it is a site an older server
// stored in pieces whose archive nobody has built yet, a 409 if the
// archive published at completion is gone, and a 503 if the store
// cannot be asked.
func (sp *sitePublisher) statArchive(ctx context.Context, rec *jobstore.ExportJob) (int64, string, error) {
	s := sp.srv
	info, err := s.objects.Stat(ctx, archiveObjectKey(rec))
	switch {
	case errors.Is(err, objstore.ErrNotFound) && publishedArchive(rec.SitePrefix):
		s.log.Error("the archive of a completed export is missing from the object store", "job", rec.JobID, "key", archiveObjectKey(rec))
		return 0, "", errorf(http.StatusConflict, "the archive of static export job %q is gone from the object store; start a new export", rec.JobID)
	case errors.Is(err, objstore.ErrNotFound):
		return 0, "", err
	case err != nil:
		s.log.Warn("stat bundle archive", "job", rec.JobID, "error", redact.Error(err))
		return 0, "", &httpError{Status: http.StatusServiceUnavailable, RetryAfter: 1,
			Msg: "the object store holding the bundle cannot be reached; ask again"}
	}
	if rec.BundleSize != info.Size {
		// Built by another replica whose record write was lost, or by
		// one that is still writing it: the object decides.
		if err := s.store.SetBundleSize(rec.JobID, info.Size); err != nil {
			s.log.Warn("record bundle size", "job", rec.JobID, "error", err)
		}
	}
	version := info.Metadata[versionMetadata]
	if version == "" {
		version = rec.Version
	}
	return info.Size, version, nil
}

// buildObjectArchive packs the site an older server stored in pieces
// (packs, or one object per file) into the job's archive object.
// Replicas asked at once may each build it: the upload is conditional
// (IfAbsent), so exactly one object is stored and the losers use it. The
// archive bytes are deterministic, so which one wins does not matter.
func (sp *sitePublisher) buildObjectArchive(rec *jobstore.ExportJob) (int64, string, error) {
	s := sp.srv
	if rec.SitePrefix == "" {
		return 0, "", errorf(http.StatusConflict, "static export job %q was rendered without the object store, "+
			"so its site is not in the bucket; start a new export", rec.JobID)
	}
	start := time.Now()
	// The site streams from its objects through the compressor into the
	// archive's upload: nothing of it touches the local disk, and memory
	// holds a pack being read and two parts being sent.
	site, manifest, err := sp.openSite(s.ctx, rec.SitePrefix)
	if err != nil {
		return 0, "", sp.objectsUnavailable("fetch site objects", rec.JobID, err)
	}
	defer site.Close()
	_, err = sp.streamArchive(s.ctx, archiveObjectKey(rec), objstore.PutOptions{Metadata: archiveMetadata(rec.Version), IfAbsent: true},
		func(w io.Writer) error {
			// 0 workers: compress on every core; the bytes do not depend on it.
			return bundle.WriteFrom(s.ctx, w, 0, manifest, site.Open)
		})
	switch {
	case errors.Is(err, objstore.ErrExists):
		s.log.Info("bundle archive was built by another replica first; using it", "job", rec.JobID)
	case err != nil:
		// A failed archive write surfaces here too, as the upload's
		// read error.
		return 0, "", sp.objectsUnavailable("store bundle archive", rec.JobID, err)
	default:
		s.archives.Add(1)
		s.log.Info("bundle archived", "job", rec.JobID, "duration", time.Since(start).Round(time.Millisecond))
	}
	return sp.statArchive(s.ctx, rec)
}

// objectBundleLink answers a bundle request with a SigV4 presigned GET of
// the archive object: the store checks its expiry and signature itself.
func (ex *exportAPI) objectBundleLink(w http.ResponseWriter, r *http.Request, rec *jobstore.ExportJob, size int64, version string) error {
	s := ex.srv
	// The signing time is whole seconds (X-Amz-Date), so the expiry we
	// report is computed from the same truncated time.
	signed := s.clock.Now().Truncate(time.Second).UTC()
	link, err := s.objects.PresignGet(r.Context(), archiveObjectKey(rec), s.linkTTL)
	if err != nil {
		return fmt.Errorf("presign bundle link: %w", err)
	}
	writeJSON(w, http.StatusOK, api.Bundle{JobID: rec.JobID, BundleURL: link, SizeBytes: size,
		ExpiresAt: signed.Add(s.linkTTL), Version: s.contentVersion(version)})
	return nil
}

// objectsUnavailable logs a failed object store operation and turns it into
// a 503 asking the client to retry: the cause is the store, not the
// request, and the next call builds again.
func (sp *sitePublisher) objectsUnavailable(op, id string, err error) error {
	s := sp.srv
	s.log.Error(op, "job", id, "error", redact.Error(err))
	return &httpError{Status: http.StatusServiceUnavailable, RetryAfter: 1,
		Msg: "the object store failed while the bundle was being built; ask again"}
}
