package apiserver

import (
	"context"
	"errors"
	"fmt"
	"io"
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

// With an object store, a job's objects live under exports/<jobId>/.
// Each attempt compresses its rendered site into the job's archive and
// uploads it under its own prefix, a<attempt>/bundle.tar.gz, as it is
// made: a worker that lost its lease and is still uploading writes beside
// the winner's archive, never over it, and the record's SitePrefix,
// written by the fenced completion, says which attempt's archive is the
// job's. The bucket holds the archive only: it is all a bundle link
// needs, and nothing else reads a site back. Records written by older
// servers name a site stored as packs or one object per file, whose
// archive the first bundle call builds (objects_older.go).
func jobObjectPrefix(id string) string { return "exports/" + id + "/" }

// attemptObjectPrefix holds everything one attempt uploaded.
func attemptObjectPrefix(id string, attempt int) string {
	return jobObjectPrefix(id) + "a" + strconv.Itoa(attempt) + "/"
}

// archiveObjectKey is where rec's archive is: under the attempt prefix
// its completion recorded, or, for a site an older server stored in
// pieces, the job's own key, which the first bundle call fills.
func archiveObjectKey(rec *jobstore.ExportJob) string {
	if publishedArchive(rec.SitePrefix) {
		return rec.SitePrefix + api.BundleFileName
	}
	return jobObjectPrefix(rec.JobID) + api.BundleFileName
}

// sitePublisher keeps the archives of export jobs in the object store:
// it uploads a rendered site's archive under its attempt's prefix,
// settles the prefixes of the attempts that lost, builds the archive of
// a site an older server stored in pieces and checks that the bucket
// answers. The runner decides when; the publisher knows how the objects
// are laid out.
type sitePublisher struct {
	// srv is the server whose object store, store and log it uses.
	srv *Server
	// largeUploads bounds the archives of large sites being uploaded at
	// once (see maxLargeUploads).
	largeUploads chan struct{}
	// fenceReads counts publishSite's reads of the record before an
	// upload, which a fresh lease makes needless (tests read it).
	fenceReads atomic.Int64
}

// maxLargeUploads is how many archives of sites larger than one part of
// the store a server uploads at once. Each may hold two parts in memory
// while it streams (objstore.Put); without a bound, a server
// whose bucket is slower than its renders would hold exportWorkers ×
// uploadsPerWorker of them. The archive of a site smaller than a part
// is buffered as it grows, takes no slot and so never queues behind a
// large one.
const maxLargeUploads = 3

func newSitePublisher(s *Server) *sitePublisher {
	return &sitePublisher{srv: s, largeUploads: make(chan struct{}, maxLargeUploads)}
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

// siteArchive is a rendered site that can write its own archive: the
// bundle.Spool a worker renders into.
type siteArchive interface {
	WriteArchive(ctx context.Context, w io.Writer, workers int) error
}

// uploadArchive streams site's archive to key as it is made: one request
// for a small site, a multipart upload for a large one, never a local
// copy. It returns the archive's size. A failed upload is retried with
// back-off until ctx ends (the lease lost, the export timed out,
// shutdown): a bucket that is down for a moment should delay an export,
// not fail it.
func (sp *sitePublisher) uploadArchive(ctx context.Context, site siteArchive, key string, man *bundle.Manifest) (int64, error) {
	s := sp.srv
	if siteSize(man) > s.objects.PartSize() {
		select {
		case sp.largeUploads <- struct{}{}:
			defer func() { <-sp.largeUploads }()
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
	meta := archiveMetadata(man.Version)
	wait := storeRetryFirst
	for {
		info, err := sp.streamArchive(ctx, key, objstore.PutOptions{Metadata: meta}, func(w io.Writer) error {
			// 0 workers: compress on every core; the bytes do not depend on it.
			return site.WriteArchive(ctx, w, 0)
		})
		if err == nil || ctx.Err() != nil {
			return info.Size, err
		}
		s.log.Warn("upload rendered site; retrying", "key", key, "error", redact.Error(err))
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

// siteSize is the bytes of the files a manifest lists.
func siteSize(man *bundle.Manifest) int64 {
	var n int64
	for _, f := range man.Files {
		n += f.Size
	}
	return n
}

// archiveMetadata is an archive object's user metadata: its content
// version, when it has one.
func archiveMetadata(version string) map[string]string {
	if version == "" {
		return nil
	}
	return map[string]string{versionMetadata: version}
}

// streamArchive uploads to key, as an archive, what write produces while
// it produces it. A failed write surfaces as the upload's error (its
// read of the pipe fails), and an upload that stops early unblocks the
// writer.
func (sp *sitePublisher) streamArchive(ctx context.Context, key string, o objstore.PutOptions, write func(io.Writer) error) (objstore.Info, error) {
	pr, pw := io.Pipe()
	written := make(chan error, 1)
	go func() {
		err := write(pw)
		pw.CloseWithError(err)
		written <- err
	}()
	o.ContentType = "application/gzip"
	info, err := sp.srv.objects.Put(ctx, key, pr, o)
	_ = pr.CloseWithError(errors.New("upload ended"))
	if werr := <-written; err == nil && werr != nil {
		err = fmt.Errorf("archive export: %w", werr)
	}
	return info, err
}

// deleteJobObjects removes every object of a job, of all its attempts.
func (sp *sitePublisher) deleteJobObjects(ctx context.Context, id string) error {
	s := sp.srv
	if s.objects == nil {
		return nil
	}
	_, err := s.objects.DeletePrefix(ctx, jobObjectPrefix(id))
	return err
}

// newSpool makes the local spool one render is written into before its
// archive is made (and, with an object store, uploaded): one unlinked
// file in <data dir>/scratch, gone when it is closed or the process ends.
func (sp *sitePublisher) newSpool() (*bundle.Spool, error) {
	base := filepath.Join(sp.srv.dataDir, "scratch")
	if err := os.MkdirAll(base, 0o700); err != nil {
		return nil, fmt.Errorf("scratch dir: %w", err)
	}
	return bundle.NewSpool(base)
}

// renderToSpool renders rec into a fresh spool, whose archive
// publishSite then uploads (or, without an object store, render writes
// into the job's directory); the caller closes it (closeSpool) once the
// outcome is stored, whatever it is. On error the spool may be nil.
func (er *exportRunner) renderToSpool(leaseCtx context.Context, rec *jobstore.ExportJob, lj *liveJob) (*bundle.Spool, *bundle.Manifest, error) {
	spool, err := er.sites.newSpool()
	if err != nil {
		return nil, nil, err
	}
	if prev := er.previousArchive(rec); prev != nil {
		spool.ReuseArchive(prev)
	}
	man, err := er.exportInto(leaseCtx, rec, lj, spool)
	return spool, man, err
}

// publishSite uploads the archive of the site rendered into site (man
// its manifest) under the attempt's own prefix, which the fenced
// completion then makes the job's. The archive is built here, once,
// rather than at the first bundle call: the site is still on local disk,
// where reading it back from the bucket would cost a round trip of every
// byte.
func (sp *sitePublisher) publishSite(leaseCtx context.Context, rec *jobstore.ExportJob, man *bundle.Manifest, site siteArchive, held *heldLease) error {
	s := sp.srv
	start := time.Now()
	// Uploading for an attempt that has lost the job (or whose job was
	// deleted) would only make garbage; the completion is fenced again
	// when it is written. A fresh lease cannot have been lost, so the
	// read is only made when it is not (heldLease).
	if !held.fresh(s.leaseClock.Now()) {
		sp.fenceReads.Add(1)
		if err := s.stillHolds(rec); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithTimeout(leaseCtx, time.Duration(s.cfg.ExportTimeout))
	defer cancel()
	prefix := attemptObjectPrefix(rec.JobID, rec.Attempts)
	size, err := sp.uploadArchive(ctx, site, prefix+api.BundleFileName, man)
	if err != nil {
		if leaseCtx.Err() != nil {
			return jobstore.ErrLeaseLost
		}
		return err
	}
	// The bucket holds the archive alone: it is what the organization's
	// stored bytes count.
	rec.SitePrefix, rec.SiteBytes, rec.BundleSize = prefix, 0, size
	s.archives.Add(1)
	s.metrics.ArchiveBuilt(nil, time.Since(start))
	s.log.Info("export completed and uploaded", "job", rec.JobID, "bytes", size,
		"upload", time.Since(start).Round(time.Millisecond))
	return nil
}

// closeSpool releases a render's spool (nil is none).
func (sp *sitePublisher) closeSpool(id string, spool *bundle.Spool) {
	if spool == nil {
		return
	}
	sp.srv.runner.reused.Add(int64(spool.Copied()))
	if err := spool.Close(); err != nil {
		sp.srv.log.Warn("close render spool", "job", id, "error", err)
	}
}

// settleSiteObjects cleans up after an attempt: when its archive became
// the job's (kept), whatever earlier attempts may have left behind goes;
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
