// Package bucket keeps a reference server's archives in an S3-compatible
// bucket, behind SigV4-presigned links that the bucket checks itself: the
// bundles.Store of replicas, which share the bucket as they share the
// PostgreSQL job store (internal/apiserver/jobstore/pgstore).
//
// It is the only part of the server that imports the S3 client
// (internal/objstore): internal/apiserver does not import it, the binary's
// command (internal/apiservercmd) passes Opener to apiserver.New, so a
// program that embeds the server on its data dir (docsadmintest) builds
// without the AWS SDK.
package bucket

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/bundles"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/httpapi"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
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
// archive the first bundle call builds (older.go).
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

// Store keeps the archives of export jobs in the bucket: it uploads a
// rendered site's archive under its attempt's prefix, settles the
// prefixes of the attempts that lost, builds the archive of a site an
// older server stored in pieces, presigns links and checks that the
// bucket answers. The server's runner decides when; the Store knows how
// the objects are laid out.
type Store struct {
	objects       *objstore.Store
	jobs          jobstore.Store
	clock         clock.Clock
	linkTTL       time.Duration
	exportTimeout time.Duration
	log           hclog.Logger
	archived      func()
	health        health
	// largeUploads bounds the archives of large sites being uploaded at
	// once (see maxLargeUploads).
	largeUploads chan struct{}
	// fenceReads counts Publish's reads of the record before an upload,
	// which a fresh lease makes needless (tests read it).
	fenceReads atomic.Int64
}

var _ bundles.Store = (*Store)(nil)

// maxLargeUploads is how many archives of sites larger than one part of
// the store a server uploads at once. Each may hold two parts in memory
// while it streams (objstore.Put); without a bound, a server
// whose bucket is slower than its renders would hold exportWorkers ×
// uploadsPerWorker of them. The archive of a site smaller than a part
// is buffered as it grows, takes no slot and so never queues behind a
// large one.
const maxLargeUploads = 3

// Opener returns the bundles.Opener of the bucket rawURL names (an
// s3://BUCKET?endpoint=… URL, see objstore.ParseURL), with o tuning its
// client; o.Clock is always the server's. The bucket is checked once:
// a server that cannot store what it renders must not start.
func Opener(rawURL string, o objstore.Options) bundles.Opener {
	return func(ctx context.Context, env bundles.Env) (bundles.Store, error) {
		cfg, err := objstore.ParseURL(rawURL)
		if err != nil {
			return nil, err
		}
		if env.LinkTTL < time.Second || env.LinkTTL > objstore.MaxPresignExpiry {
			return nil, fmt.Errorf("bundle link TTL %s: an object store presigns links for 1s to %s", env.LinkTTL, objstore.MaxPresignExpiry)
		}
		o.Clock = env.Clock
		st, err := objstore.New(ctx, cfg, o)
		if err != nil {
			return nil, err
		}
		if err := st.Check(ctx); err != nil {
			return nil, err
		}
		return newStore(st, env), nil
	}
}

func newStore(st *objstore.Store, env bundles.Env) *Store {
	return &Store{
		objects: st, jobs: env.Jobs, clock: env.Clock, linkTTL: env.LinkTTL, exportTimeout: env.ExportTimeout,
		log: env.Log, archived: env.Archived, largeUploads: make(chan struct{}, maxLargeUploads),
	}
}

// FenceReads is how many times the store read a job's record before an
// upload, to check that its attempt still held the job.
func (b *Store) FenceReads() int64 { return b.fenceReads.Load() }

// versionMetadata is the archive object's user metadata holding the
// export's content version, so a replica answering a bundle request reads
// it from the object it links to rather than trusting its own memory.
const versionMetadata = "content-version"

// health caches the bucket's readiness check, so that probes and
// export starts arriving together share one request, and a second or two
// of staleness changes nothing for a load balancer.
type health struct {
	mu      sync.Mutex
	checked time.Time // monotonic wall time of the last check
	err     error
}

// checkTTL is how long a bucket check's result is reused.
const checkTTL = 1500 * time.Millisecond

// checkTimeout bounds one request of a check, well inside a probe's
// timeout.
const checkTimeout = 2 * time.Second

// Ready reports whether the bucket passed a check at most checkTTL ago,
// checking it again if the last one is older. Concurrent callers share
// one check.
func (b *Store) Ready(ctx context.Context) error {
	h := &b.health
	h.mu.Lock()
	defer h.mu.Unlock()
	// Wall time, not the injected clock: this is a rate limit on probes,
	// and a test's frozen clock must not freeze an outage in place.
	if !h.checked.IsZero() && time.Since(h.checked) < checkTTL {
		return h.err
	}
	cctx, cancel := context.WithTimeout(ctx, checkTimeout)
	err := b.probe(cctx)
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

func (b *Store) probe(ctx context.Context) error {
	_, err := b.objects.Stat(ctx, readinessProbeKey)
	if err == nil || errors.Is(err, objstore.ErrNotFound) {
		return nil
	}
	return err
}

// Detached is true: an upload waits on the network, while a render keeps
// a core busy.
func (b *Store) Detached() bool { return true }

// Resume finds nothing: an attempt's upload is not resumed, the next
// attempt renders and uploads afresh.
func (b *Store) Resume(context.Context, *jobstore.ExportJob) (*bundle.Manifest, bool, error) {
	return nil, false, nil
}

// Lost is false: a job is recorded completed only once its archive is
// uploaded, and no local file is involved.
func (b *Store) Lost(*jobstore.ExportJob) bool { return false }

// Exists reports whether the job's completion named its objects.
func (b *Store) Exists(job *jobstore.ExportJob) bool { return job.SitePrefix != "" }

// CheckLink answers ErrNotServed: links are the bucket's, which checks
// them itself.
func (b *Store) CheckLink(string, string, url.Values, time.Time) error { return bundles.ErrNotServed }

// Open answers ErrNotServed, as CheckLink does.
func (b *Store) Open(string) (*os.File, error) { return nil, bundles.ErrNotServed }

// Earlier streams the job's archive object; a site an older server
// stored in pieces has none whole.
func (b *Store) Earlier(ctx context.Context, job *jobstore.ExportJob) func() (io.ReadCloser, error) {
	if !publishedArchive(job.SitePrefix) {
		return nil
	}
	key := archiveObjectKey(job)
	return func() (io.ReadCloser, error) {
		rc, _, err := b.objects.Get(ctx, key)
		return rc, err
	}
}

// Link is a SigV4 presigned GET of the archive object: the store checks
// its expiry and signature itself.
func (b *Store) Link(ctx context.Context, job *jobstore.ExportJob) (string, time.Time, error) {
	// The signing time is whole seconds (X-Amz-Date), so the expiry we
	// report is computed from the same truncated time.
	signed := b.clock.Now().Truncate(time.Second).UTC()
	link, err := b.objects.PresignGet(ctx, archiveObjectKey(job), b.linkTTL)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("presign bundle link: %w", err)
	}
	return link, signed.Add(b.linkTTL), nil
}

// uploadArchive streams site's archive to key as it is made: one request
// for a small site, a multipart upload for a large one, never a local
// copy. It returns the archive's size. A failed upload is retried with
// back-off until ctx ends (the lease lost, the export timed out,
// shutdown): a bucket that is down for a moment should delay an export,
// not fail it.
func (b *Store) uploadArchive(ctx context.Context, site bundles.Site, key string, man *bundle.Manifest) (int64, error) {
	if siteSize(man) > b.objects.PartSize() {
		select {
		case b.largeUploads <- struct{}{}:
			defer func() { <-b.largeUploads }()
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
	meta := archiveMetadata(man.Version)
	wait := retryFirst
	for {
		info, err := b.streamArchive(ctx, key, objstore.PutOptions{Metadata: meta}, func(w io.Writer) error {
			// 0 workers: compress on every core; the bytes do not depend on it.
			return site.WriteArchive(ctx, w, 0)
		})
		if err == nil || ctx.Err() != nil {
			return info.Size, err
		}
		b.log.Warn("upload rendered site; retrying", "key", key, "error", redact.Error(err))
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return 0, err
		case <-t.C:
		}
		wait = min(2*wait, retryMax)
	}
}

// Back-off between attempts at an upload the bucket refused.
const (
	retryFirst = 100 * time.Millisecond
	retryMax   = 5 * time.Second
)

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
func (b *Store) streamArchive(ctx context.Context, key string, o objstore.PutOptions, write func(io.Writer) error) (objstore.Info, error) {
	pr, pw := io.Pipe()
	written := make(chan error, 1)
	go func() {
		err := write(pw)
		pw.CloseWithError(err)
		written <- err
	}()
	o.ContentType = "application/gzip"
	info, err := b.objects.Put(ctx, key, pr, o)
	_ = pr.CloseWithError(errors.New("upload ended"))
	if werr := <-written; err == nil && werr != nil {
		err = fmt.Errorf("archive export: %w", werr)
	}
	return info, err
}

// Delete removes every object of a job, of all its attempts.
func (b *Store) Delete(ctx context.Context, id string) error {
	_, err := b.objects.DeletePrefix(ctx, jobObjectPrefix(id))
	return err
}

// Publish uploads the archive of the attempt's rendered site under the
// attempt's own prefix, which the fenced completion then makes the
// job's. The archive is built here, once, rather than at the first
// bundle call: the site is still on local disk, where reading it back
// from the bucket would cost a round trip of every byte.
func (b *Store) Publish(leaseCtx context.Context, a *bundles.Attempt) error {
	rec := a.Job
	start := time.Now()
	// Uploading for an attempt that has lost the job (or whose job was
	// deleted) would only make garbage; the completion is fenced again
	// when it is written. A fresh lease cannot have been lost, so the
	// read is only made when it is not.
	if !a.Fresh() {
		b.fenceReads.Add(1)
		if err := a.Holds(leaseCtx); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithTimeout(leaseCtx, b.exportTimeout)
	defer cancel()
	prefix := attemptObjectPrefix(rec.JobID, rec.Attempts)
	size, err := b.uploadArchive(ctx, a.Site, prefix+api.BundleFileName, a.Manifest)
	if err != nil {
		if leaseCtx.Err() != nil {
			return jobstore.ErrLeaseLost
		}
		return err
	}
	if a.Record != nil {
		// Beside the archive, under the attempt's prefix: it goes with
		// the attempt. Without it the next export renders every page.
		if _, err := b.objects.Put(ctx, prefix+bundles.RecordName(a.Manifest.Version), bytes.NewReader(a.Record), objstore.PutOptions{}); err != nil {
			b.log.Warn("keep the render record; the next export renders every page", "job", rec.JobID, "error", redact.Error(err))
		}
	}
	// The archive is what the organization's stored bytes count.
	rec.SitePrefix, rec.SiteBytes, rec.BundleSize = prefix, 0, size
	b.archived()
	reused := 0
	if a.Reused != nil {
		reused = a.Reused()
	}
	b.log.Info("export completed and uploaded", "job", rec.JobID, "bytes", size, "reused", reused,
		"upload", time.Since(start).Round(time.Millisecond))
	return nil
}

// Record reads the render record beside the job's archive object.
func (b *Store) Record(ctx context.Context, job *jobstore.ExportJob) []byte {
	if !publishedArchive(job.SitePrefix) {
		return nil
	}
	rc, _, err := b.objects.Get(ctx, job.SitePrefix+bundles.RecordName(job.Version))
	if err != nil {
		return nil
	}
	defer func() { _ = rc.Close() }() // read-only
	data, err := io.ReadAll(io.LimitReader(rc, bundles.MaxRecordBytes+1))
	if err != nil || len(data) > bundles.MaxRecordBytes {
		return nil
	}
	return data
}

// Settle cleans up after an attempt: when its archive became the job's
// (kept), whatever earlier attempts may have left behind goes;
// otherwise its own upload goes (it failed, was taken over or was
// interrupted, and the next attempt uploads afresh). Best effort: what
// is left is removed with the job at the latest.
func (b *Store) Settle(ctx context.Context, rec *jobstore.ExportJob, kept bool) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
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
		if _, err := b.objects.DeletePrefix(ctx, p); err != nil {
			b.log.Warn("remove an attempt's site objects", "job", rec.JobID, "prefix", p, "error", redact.Error(err))
		}
	}
}

// Stat returns the size and content version of rec's archive object,
// found false if it is a site an older server stored in pieces whose
// archive nobody has built yet, a 409 if the archive published at
// completion is gone, and a 503 if the store cannot be asked.
func (b *Store) Stat(ctx context.Context, rec *jobstore.ExportJob) (int64, string, bool, error) {
	info, err := b.objects.Stat(ctx, archiveObjectKey(rec))
	switch {
	case errors.Is(err, objstore.ErrNotFound) && publishedArchive(rec.SitePrefix):
		b.log.Error("the archive of a completed export is missing from the object store", "job", rec.JobID, "key", archiveObjectKey(rec))
		return 0, "", false, httpapi.Errorf(http.StatusConflict, "the archive of static export job %q is gone from the object store; start a new export", rec.JobID)
	case errors.Is(err, objstore.ErrNotFound):
		return 0, "", false, nil
	case err != nil:
		b.log.Warn("stat bundle archive", "job", rec.JobID, "error", redact.Error(err))
		return 0, "", false, &httpapi.Error{Status: http.StatusServiceUnavailable, RetryAfter: 1,
			Msg: "the object store holding the bundle cannot be reached; ask again"}
	}
	if rec.BundleSize != info.Size {
		// Built by another replica whose record write was lost, or by
		// one that is still writing it: the object decides.
		if err := b.jobs.SetBundleSize(ctx, rec.JobID, info.Size); err != nil {
			b.log.Warn("record bundle size", "job", rec.JobID, "error", err)
		}
	}
	version := info.Metadata[versionMetadata]
	if version == "" {
		version = rec.Version
	}
	return info.Size, version, true, nil
}

// Build packs the site an older server stored in pieces (packs, or one
// object per file) into the job's archive object. Replicas asked at once
// may each build it: the upload is conditional (IfAbsent), so exactly one
// object is stored and the losers use it. The archive bytes are
// deterministic, so which one wins does not matter.
func (b *Store) Build(ctx context.Context, rec *jobstore.ExportJob) (int64, string, error) {
	if rec.SitePrefix == "" {
		return 0, "", httpapi.Errorf(http.StatusConflict, "static export job %q was rendered without the object store, "+
			"so its site is not in the bucket; start a new export", rec.JobID)
	}
	start := time.Now()
	// The site streams from its objects through the compressor into the
	// archive's upload: nothing of it touches the local disk, and memory
	// holds a pack being read and two parts being sent.
	site, manifest, err := b.openSite(ctx, rec.SitePrefix)
	if err != nil {
		return 0, "", b.unavailable("fetch site objects", rec.JobID, err)
	}
	defer site.Close()
	_, err = b.streamArchive(ctx, archiveObjectKey(rec), objstore.PutOptions{Metadata: archiveMetadata(rec.Version), IfAbsent: true},
		func(w io.Writer) error {
			// 0 workers: compress on every core; the bytes do not depend on it.
			return bundle.WriteFrom(ctx, w, 0, manifest, site.Open)
		})
	switch {
	case errors.Is(err, objstore.ErrExists):
		b.log.Info("bundle archive was built by another replica first; using it", "job", rec.JobID)
	case err != nil:
		// A failed archive write surfaces here too, as the upload's
		// read error.
		return 0, "", b.unavailable("store bundle archive", rec.JobID, err)
	default:
		b.archived()
		b.log.Info("bundle archived", "job", rec.JobID, "duration", time.Since(start).Round(time.Millisecond))
	}
	size, version, found, err := b.Stat(ctx, rec)
	if err == nil && !found {
		err = fmt.Errorf("stat bundle archive: %w", objstore.ErrNotFound)
	}
	return size, version, err
}

// unavailable logs a failed object store operation and turns it into
// a 503 asking the client to retry: the cause is the store, not the
// request, and the next call builds again.
func (b *Store) unavailable(op, id string, err error) error {
	b.log.Error(op, "job", id, "error", redact.Error(err))
	return &httpapi.Error{Status: http.StatusServiceUnavailable, RetryAfter: 1,
		Msg: "the object store failed while the bundle was being built; ask again"}
}
