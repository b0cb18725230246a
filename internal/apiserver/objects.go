package apiserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/objstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

// With an object store, a job's objects live under exports/<jobId>/: each
// attempt uploads its site under its own prefix, a<attempt>/site/, so a
// worker that lost its lease and is still uploading writes beside the
// winner's site, never over it; the record's SitePrefix, written by the
// fenced completion, says which attempt's site is the job's. The archive
// is one object per job, bundle.tar.gz, built from that site.
func jobObjectPrefix(id string) string { return "exports/" + id + "/" }

func siteObjectPrefix(id string, attempt int) string {
	return jobObjectPrefix(id) + "a" + strconv.Itoa(attempt) + "/site/"
}

func archiveObjectKey(id string) string { return jobObjectPrefix(id) + api.BundleFileName }

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
func (er *exportRunner) objectsReady(ctx context.Context) error {
	s := er.srv
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
	err := er.probeObjects(cctx)
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

func (er *exportRunner) probeObjects(ctx context.Context) error {
	s := er.srv
	_, err := s.objects.Stat(ctx, readinessProbeKey)
	if err == nil || errors.Is(err, objstore.ErrNotFound) {
		return nil
	}
	return err
}

// uploadSite puts the rendered tree dir under prefix, one object per file,
// and returns the bytes uploaded. A failed upload is retried with back-off
// until ctx ends (the lease lost, the export timed out, shutdown): a
// bucket that is down for a moment should delay an export, not fail it.
func (er *exportRunner) uploadSite(ctx context.Context, dir, prefix string) (int64, error) {
	s := er.srv
	wait := storeRetryFirst
	for {
		n, err := er.uploadTree(ctx, dir, prefix)
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

// uploadConcurrency is how many site files are uploaded at once. A site is
// many small objects, and one at a time the round trips dominate: the
// export throughput measured by BenchmarkScaleOut was a ninth of the
// embedded store's before uploads ran in parallel.
const uploadConcurrency = 16

func (er *exportRunner) uploadTree(ctx context.Context, dir, prefix string) (int64, error) {
	s := er.srv
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("upload site: %w", err)
	}
	var total atomic.Int64
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(uploadConcurrency)
	for _, p := range files {
		g.Go(func() error {
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close() //nolint:errcheck // read-only
			info, err := s.objects.Put(gctx, prefix+filepath.ToSlash(rel), f, objstore.PutOptions{})
			if err != nil {
				return err
			}
			total.Add(info.Size)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return 0, fmt.Errorf("upload site: %w", err)
	}
	return total.Load(), nil
}

// downloadSite fetches the site objects under prefix into dir, which must
// exist and be empty.
func (er *exportRunner) downloadSite(ctx context.Context, prefix, dir string) error {
	s := er.srv
	found := false
	for o, err := range s.objects.List(ctx, prefix) {
		if err != nil {
			return fmt.Errorf("list site: %w", err)
		}
		rel := strings.TrimPrefix(o.Key, prefix)
		// Keys are ours, but a key naming ".." must not leave dir.
		if rel == "" || !fs.ValidPath(rel) {
			return fmt.Errorf("site object %q has an unsafe name", o.Key)
		}
		found = true
		if err := er.downloadObject(ctx, o.Key, filepath.Join(dir, filepath.FromSlash(rel))); err != nil {
			return err
		}
	}
	if !found {
		return fmt.Errorf("the rendered site of this job is gone from the object store (prefix %s)", prefix)
	}
	return nil
}

func (er *exportRunner) downloadObject(ctx context.Context, key, dst string) (err error) {
	s := er.srv
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return fmt.Errorf("download site: %w", err)
	}
	body, _, err := s.objects.Get(ctx, key)
	if err != nil {
		return fmt.Errorf("download site: %w", err)
	}
	defer body.Close()
	f, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("download site: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("download site: %w", cerr)
		}
	}()
	if _, err := io.Copy(f, body); err != nil {
		return fmt.Errorf("download site %s: %w", path.Base(key), err)
	}
	return nil
}

// deleteJobObjects removes every object of a job: all attempts' sites and
// the archive.
func (er *exportRunner) deleteJobObjects(ctx context.Context, id string) error {
	s := er.srv
	if s.objects == nil {
		return nil
	}
	_, err := s.objects.DeletePrefix(ctx, jobObjectPrefix(id))
	return err
}

// scratchDir is a fresh local directory for one job's temporary files
// (a render before upload, a site downloaded to be archived); the caller
// removes it.
func (er *exportRunner) scratchDir(id, what string) (string, error) {
	s := er.srv
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

// renderToObjects renders rec into a local scratch dir and uploads it
// under the attempt's own prefix, which the fenced completion then makes
// the job's. The scratch dir goes whatever happens: the bucket is the
// only copy replicas share.
func (er *exportRunner) renderToObjects(leaseCtx context.Context, rec *jobstore.ExportJob, lj *liveJob) (*bundle.Manifest, error) {
	s := er.srv
	dir, err := er.scratchDir(rec.JobID, "render")
	if err != nil {
		return nil, err
	}
	defer func() {
		if err := os.RemoveAll(dir); err != nil {
			s.log.Warn("remove render scratch dir", "job", rec.JobID, "error", err)
		}
	}()
	start := time.Now()
	man, err := er.exportInto(leaseCtx, rec, lj, dir)
	if err != nil {
		return nil, err
	}
	// Uploading for an attempt that has lost the job would only make
	// garbage; the completion is fenced again when it is written.
	if cur, err := s.store.ExportJob(rec.JobID); err == nil && !jobstore.Holds(cur, rec) {
		return nil, jobstore.ErrLeaseLost
	}
	ctx, cancel := context.WithTimeout(leaseCtx, time.Duration(s.cfg.ExportTimeout))
	defer cancel()
	prefix := siteObjectPrefix(rec.JobID, rec.Attempts)
	n, err := er.uploadSite(ctx, dir, prefix)
	if err != nil {
		if leaseCtx.Err() != nil {
			return nil, jobstore.ErrLeaseLost
		}
		return nil, err
	}
	rec.SitePrefix, rec.SiteBytes = prefix, n
	s.log.Info("export completed and uploaded", "job", rec.JobID, "pages", man.PageCount, "bytes", n,
		"duration", time.Since(start).Round(time.Millisecond))
	return man, nil
}

// settleSiteObjects cleans up after an attempt: when its site became the
// job's (kept), the sites earlier attempts may have left behind go;
// otherwise its own upload goes (it failed, was taken over or was
// interrupted, and the next attempt uploads afresh). Best effort: what
// is left is removed with the job at the latest.
func (er *exportRunner) settleSiteObjects(rec *jobstore.ExportJob, kept bool) {
	s := er.srv
	// Runs at shutdown too, when the server's context has ended.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(s.ctx), 30*time.Second)
	defer cancel()
	var prefixes []string
	if kept {
		for a := 1; a < rec.Attempts; a++ {
			prefixes = append(prefixes, siteObjectPrefix(rec.JobID, a))
		}
	} else {
		prefixes = append(prefixes, siteObjectPrefix(rec.JobID, rec.Attempts))
	}
	for _, p := range prefixes {
		if _, err := s.objects.DeletePrefix(ctx, p); err != nil {
			s.log.Warn("remove an attempt's site objects", "job", rec.JobID, "prefix", p, "error", redact.Error(err))
		}
	}
}
