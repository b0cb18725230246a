package apiserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/objstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

// With an object store, a job's objects live under exports/<jobId>/: each
// attempt uploads its site under its own prefix, a<attempt>/, so a
// worker that lost its lease and is still uploading writes beside the
// winner's site, never over it; the record's SitePrefix, written by the
// fenced completion, says which attempt's site is the job's. The archive
// is one object per job, bundle.tar.gz, built from that site.
func jobObjectPrefix(id string) string { return "exports/" + id + "/" }

// attemptObjectPrefix holds everything one attempt uploaded: its site
// as packs under packs/ (or, written by older servers, one object per
// file under site/).
func attemptObjectPrefix(id string, attempt int) string {
	return jobObjectPrefix(id) + "a" + strconv.Itoa(attempt) + "/"
}

func archiveObjectKey(id string) string { return jobObjectPrefix(id) + api.BundleFileName }

// sitePublisher keeps the sites and archives of export jobs in the
// object store: it uploads a rendered site under its attempt's prefix,
// settles the prefixes of the attempts that lost, packs a site into its
// archive object and checks that the bucket answers. The runner decides
// when; the publisher knows how the objects are laid out.
type sitePublisher struct {
	// srv is the server whose object store, store and log it uses.
	srv *Server
	// buffers hands out the server's packBuffers (objects_pack.go): a
	// slot is taken when a pack starts to fill and given back when its
	// PUT ends. A file that streams as a pack of its own is never in
	// memory and takes none.
	buffers chan struct{}
	// fenceReads counts publishSite's reads of the record before an
	// upload, which a fresh lease makes needless (tests read it).
	fenceReads atomic.Int64
}

func newSitePublisher(s *Server) *sitePublisher {
	return &sitePublisher{srv: s, buffers: make(chan struct{}, packBuffers)}
}

// versionMetadata is the archive object's user metadata holding the
// export's content version, so a replica answering a bundle request reads
// it from the object it links to rather than trusting its own memory.
const versionMetadata = "content-version"

// objectHealth caches the bucket's readiness check, so that probes and
// export starts arriving together share one request, and a second or two
// of staleness changes nothing for a load balancer.
type objectHealth struct {
	mu      sync.Mutex
	checked time.Time // monotonic wall time of the last check
	err     error
}

// objectCheckTTL is how long a bucket check's result is reused.
const objectCheckTTL = 1500 * time.Millisecond

// objectsReady reports whether the bucket passed a check at most
// objectCheckTTL ago, checking it again if the last one is older. It is
// nil without an object store. Concurrent callers share one check.
func (sp *sitePublisher) objectsReady(ctx context.Context) error {
	s := sp.srv
	if s.objects == nil {
		return nil
	}
	h := &s.objHealth
	h.mu.Lock()
	defer h.mu.Unlock()
	// Wall time, not the injected clock: this is a rate limit on probes,
	// and a test's frozen clock must not freeze an outage in place.
	if !h.checked.IsZero() && time.Since(h.checked) < objectCheckTTL {
		return h.err
	}
	cctx, cancel := context.WithTimeout(ctx, readyzTimeout)
	err := sp.probeObjects(cctx)
	cancel()
	if err != nil && ctx.Err() != nil {
		// The caller went away: that says nothing about the bucket.
		return err
	}
	h.err, h.checked = err, time.Now()
	return err
}

// readinessProbeKey is an object that never exists: asking for it costs
// one HEAD, and "not found" proves the store answers and accepts our
// credentials. The full objstore.Check (list, write, read back, delete)
// runs at start; four requests with the store's syncs on every probe were
// slow enough on a loaded machine to time out and refuse exports.
const readinessProbeKey = objstore.ProbePrefix + "readiness"

func (sp *sitePublisher) probeObjects(ctx context.Context) error {
	s := sp.srv
	_, err := s.objects.Stat(ctx, readinessProbeKey)
	if err == nil || errors.Is(err, objstore.ErrNotFound) {
		return nil
	}
	return err
}

// uploadSite puts the rendered tree dir under prefix as packs
// (objects_pack.go) and returns the bytes of its files. A failed upload is retried with back-off
// until ctx ends (the lease lost, the export timed out, shutdown): a
// bucket that is down for a moment should delay an export, not fail it.
func (sp *sitePublisher) uploadSite(ctx context.Context, dir, prefix string) (int64, error) {
	s := sp.srv
	wait := storeRetryFirst
	for {
		n, err := sp.uploadPacks(ctx, dir, prefix)
		if err == nil || ctx.Err() != nil {
			return n, err
		}
		s.log.Warn("upload rendered site; retrying", "prefix", prefix, "error", redact.Error(err))
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return 0, err
		case <-t.C:
		}
		wait = min(2*wait, storeRetryMax)
	}
}

// deleteJobObjects removes every object of a job: all attempts' sites and
// the archive.
func (sp *sitePublisher) deleteJobObjects(ctx context.Context, id string) error {
	s := sp.srv
	if s.objects == nil {
		return nil
	}
	_, err := s.objects.DeletePrefix(ctx, jobObjectPrefix(id))
	return err
}

// scratchDir is a fresh local directory for one job's temporary files
// (a render before upload); the caller removes it.
func (sp *sitePublisher) scratchDir(id, what string) (string, error) {
	s := sp.srv
	base := filepath.Join(s.dataDir, "scratch")
	if err := os.MkdirAll(base, 0o700); err != nil {
		return "", fmt.Errorf("scratch dir: %w", err)
	}
	d, err := os.MkdirTemp(base, id+"-"+what+"-*")
	if err != nil {
		return "", fmt.Errorf("scratch dir: %w", err)
	}
	return d, nil
}

// renderToScratch renders rec into a fresh local scratch dir, which
// publishSite then uploads; the caller removes it (removeScratch) once
// the outcome is stored, whatever it is: the bucket is the only copy
// replicas share. On error dir may be empty.
func (er *exportRunner) renderToScratch(leaseCtx context.Context, rec *jobstore.ExportJob, lj *liveJob) (dir string, man *bundle.Manifest, err error) {
	dir, err = er.sites.scratchDir(rec.JobID, "render")
	if err != nil {
		return "", nil, err
	}
	man, err = er.exportInto(leaseCtx, rec, lj, dir)
	return dir, man, err
}

// publishSite uploads the site rendered into dir under the attempt's own
// prefix, which the fenced completion then makes the job's.
func (sp *sitePublisher) publishSite(leaseCtx context.Context, rec *jobstore.ExportJob, dir string, held *heldLease) error {
	s := sp.srv
	start := time.Now()
	// Uploading for an attempt that has lost the job (or whose job was
	// deleted) would only make garbage; the completion is fenced again
	// when it is written. A fresh lease cannot have been lost, so the
	// read is only made when it is not (heldLease).
	if !held.fresh(s.leaseClock.Now()) {
		sp.fenceReads.Add(1)
		cur, err := s.store.ExportJob(rec.JobID)
		if errors.Is(err, jobstore.ErrNoRecord) || (err == nil && !jobstore.Holds(cur, rec)) {
			return jobstore.ErrLeaseLost
		}
	}
	ctx, cancel := context.WithTimeout(leaseCtx, time.Duration(s.cfg.ExportTimeout))
	defer cancel()
	prefix := packPrefix(rec.JobID, rec.Attempts)
	n, err := sp.uploadSite(ctx, dir, prefix)
	if err != nil {
		if leaseCtx.Err() != nil {
			return jobstore.ErrLeaseLost
		}
		return err
	}
	rec.SitePrefix, rec.SiteBytes = prefix, n
	s.log.Info("export completed and uploaded", "job", rec.JobID, "bytes", n,
		"upload", time.Since(start).Round(time.Millisecond))
	return nil
}

// removeScratch removes a render's scratch dir ("" is none).
func (sp *sitePublisher) removeScratch(id, dir string) {
	if dir == "" {
		return
	}
	if err := os.RemoveAll(dir); err != nil {
		sp.srv.log.Warn("remove render scratch dir", "job", id, "error", err)
	}
}

// settleSiteObjects cleans up after an attempt: when its site became the
// job's (kept), the sites earlier attempts may have left behind go;
// otherwise its own upload goes (it failed, was taken over or was
// interrupted, and the next attempt uploads afresh). Best effort: what
// is left is removed with the job at the latest.
func (sp *sitePublisher) settleSiteObjects(rec *jobstore.ExportJob, kept bool) {
	s := sp.srv
	// Runs at shutdown too, when the server's context has ended.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(s.ctx), 30*time.Second)
	defer cancel()
	var prefixes []string
	if kept {
		for a := 1; a < rec.Attempts; a++ {
			prefixes = append(prefixes, attemptObjectPrefix(rec.JobID, a))
		}
	} else {
		prefixes = append(prefixes, attemptObjectPrefix(rec.JobID, rec.Attempts))
	}
	for _, p := range prefixes {
		if _, err := s.objects.DeletePrefix(ctx, p); err != nil {
			s.log.Warn("remove an attempt's site objects", "job", rec.JobID, "prefix", p, "error", redact.Error(err))
		}
	}
}
