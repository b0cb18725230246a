package bundles

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/linksign"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/fsutil"
)

// Disk keeps each job's archive in <data-dir>/exports/<jobId>/, renamed
// into place only when complete, behind links the server signs with the
// key ring in the data dir and serves itself. Jobs completed by servers
// before the archive was made at completion have their rendered site in
// site/ instead, archived beside it at the first bundle call.
type Disk struct {
	dir       string
	jobs      jobstore.Store
	signer    *linksign.Signer
	clock     clock.Clock
	linkTTL   time.Duration
	publicURL *url.URL
	log       hclog.Logger
	archived  func()
}

var _ Store = (*Disk)(nil)

// OpenDisk loads (creating it on first start) the key ring that signs the
// links. The job store must be open already: with bbolt it holds the data
// dir's lock, so two servers started together on an empty data dir cannot
// each write (and sign with) a different key.
func OpenDisk(_ context.Context, env Env) (Store, error) {
	ring, err := linksign.LoadKeyRing(env.DataDir, env.Random, env.Clock.Now(), env.LinkTTL)
	if err != nil {
		return nil, err
	}
	return &Disk{
		dir: env.DataDir, jobs: env.Jobs, signer: &linksign.Signer{Ring: ring}, clock: env.Clock, linkTTL: env.LinkTTL,
		publicURL: env.PublicURL, log: env.Log, archived: env.Archived,
	}, nil
}

// JobDir is where a job's local files are, in either mode: its archive
// here, scratch files of a render in the bucket mode.
func JobDir(dataDir, id string) string { return filepath.Join(dataDir, "exports", id) }

// SiteDir is where a server from before archives were made at
// completion left a job's rendered site.
func (d *Disk) SiteDir(id string) string { return filepath.Join(JobDir(d.dir, id), "site") }

// ArchivePath is where a job's archive is.
func (d *Disk) ArchivePath(id string) string {
	return filepath.Join(JobDir(d.dir, id), api.BundleFileName)
}

// Ready is always nil: the data dir was checked at start.
func (d *Disk) Ready(context.Context) error { return nil }

// Detached is false: the archive is written to local disk by the worker.
func (d *Disk) Detached() bool { return false }

// Settle has nothing to clean up: a lost attempt's temporary archive is
// removed by the next attempt's Publish.
func (d *Disk) Settle(context.Context, *jobstore.ExportJob, bool) {}

// Delete has nothing to remove before the record: the job's directory
// goes after it.
func (d *Disk) Delete(context.Context, string) error { return nil }

// Lost reports whether a completed job lost its files to a crash.
func (d *Disk) Lost(job *jobstore.ExportJob) bool { return !d.Exists(job) }

// Exists reports whether a job still has what its bundle is made of: its
// archive, or the site an older server left.
func (d *Disk) Exists(job *jobstore.ExportJob) bool {
	for _, p := range []string{d.ArchivePath(job.JobID), d.SiteDir(job.JobID)} {
		if _, err := os.Stat(p); err == nil {
			return true
		}
	}
	return false
}

// Publish archives the rendered site into the job's directory, where
// links point. The archive is made once, at completion: the site is
// never written out as a tree of files, which on a file system slow to
// create files (ext4 without a journal, right after others were removed)
// cost more than rendering it, and a bundle call only signs.
func (d *Disk) Publish(ctx context.Context, a *Attempt) error {
	start := time.Now()
	// Published only while holding the job.
	size, err := d.writeArchiveFile(ctx, a.Job.JobID, a.Site.WriteArchive, a.Holds)
	if err != nil {
		return err
	}
	a.Job.BundleSize, a.Job.SiteBytes = size, 0
	d.removeOlderRenders(a.Job.JobID)
	d.keepRecord(a)
	d.archived()
	reused := 0
	if a.Reused != nil {
		reused = a.Reused() // known once the archive is written
	}
	d.log.Info("export completed", "job", a.Job.JobID, "pages", a.Manifest.PageCount, "bytes", size, "reused", reused,
		"render", a.Rendered.Round(time.Millisecond), "archive", time.Since(start).Round(time.Millisecond))
	return nil
}

// keepRecord writes the attempt's render record beside its archive,
// renamed into place whole. A record that cannot be written only means
// the next export renders every page.
func (d *Disk) keepRecord(a *Attempt) {
	if a.Record == nil {
		return
	}
	dir := JobDir(d.dir, a.Job.JobID)
	err := func() error {
		tmp, err := os.CreateTemp(dir, ".record-*.tmp")
		if err != nil {
			return err
		}
		_, err = tmp.Write(a.Record)
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), filepath.Join(dir, RecordName(a.Manifest.Version)))
		}
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
		return err
	}()
	if err != nil {
		d.log.Warn("keep the render record; the next export renders every page", "job", a.Job.JobID, "error", err)
	}
}

// Record reads the render record beside the job's archive.
func (d *Disk) Record(_ context.Context, job *jobstore.ExportJob) []byte {
	f, err := os.Open(filepath.Join(JobDir(d.dir, job.JobID), RecordName(job.Version)))
	if err != nil {
		return nil
	}
	defer func() { _ = f.Close() }() // read-only
	b, err := io.ReadAll(io.LimitReader(f, MaxRecordBytes+1))
	if err != nil || len(b) > MaxRecordBytes {
		return nil
	}
	return b
}

// Resume finishes job from the archive a crash left renamed into place
// before the job was recorded completed, or from a site an older server
// left there.
func (d *Disk) Resume(_ context.Context, job *jobstore.ExportJob) (*bundle.Manifest, bool, error) {
	if man, ok := d.resumeArchive(job); ok {
		return man, true, nil
	}
	return d.resumeSite(job)
}

// resumeArchive finishes job from its archive: one renamed into place is
// whole and synced. An archive that does not verify is removed, and the
// job rendered again.
func (d *Disk) resumeArchive(job *jobstore.ExportJob) (*bundle.Manifest, bool) {
	f, err := os.Open(d.ArchivePath(job.JobID))
	if err != nil {
		return nil, false
	}
	man, err := bundle.VerifyArchive(bufio.NewReaderSize(f, 256<<10))
	st, serr := f.Stat()
	_ = f.Close() // read only: nothing to lose
	if err == nil && serr == nil {
		d.log.Info("export was archived before the restart; completing it from its archive", "job", job.JobID)
		job.BundleSize, job.SiteBytes = st.Size(), 0
		return man, true
	}
	d.log.Warn("discarding an archive that does not verify", "job", job.JobID, "error", errors.Join(err, serr))
	if err := os.Remove(d.ArchivePath(job.JobID)); err != nil && !errors.Is(err, os.ErrNotExist) {
		d.log.Warn("remove an unverified archive", "job", job.JobID, "error", err)
	}
	return nil, false
}

// resumeSite finishes job from a site an older server renamed into place
// before a crash, as that server would have: the archive is then built
// at the first bundle call. A site that does not verify is removed.
func (d *Disk) resumeSite(job *jobstore.ExportJob) (*bundle.Manifest, bool, error) {
	site := d.SiteDir(job.JobID)
	if _, err := os.Stat(site); err != nil {
		return nil, false, nil
	}
	man, verr := bundle.VerifyDir(site)
	if verr == nil {
		size, err := TreeSize(site)
		if err != nil {
			return nil, true, fmt.Errorf("measure export: %w", err)
		}
		d.log.Info("export was rendered before the restart; completing it from its files", "job", job.JobID)
		job.SiteBytes = size
		return man, true, nil
	}
	d.log.Warn("discarding a rendered site that does not verify", "job", job.JobID, "error", verr)
	if err := os.RemoveAll(site); err != nil {
		return nil, false, fmt.Errorf("clear unverified site: %w", err)
	}
	return nil, false, nil
}

// removeOlderRenders removes what earlier attempts at the job left in its
// directory once its archive is in place: a temporary archive a crash or
// a takeover cut short (.bundle-*.tmp; a stale attempt still writing one
// then fails to publish it, as it must), and, of older servers, partial
// renders (site.partial-N) and a site (site/) the archive now stands for.
func (d *Disk) removeOlderRenders(id string) {
	dir := JobDir(d.dir, id)
	entries, err := os.ReadDir(dir)
	if err != nil {
		d.log.Warn("list the job's files", "job", id, "error", err)
		return
	}
	for _, e := range entries {
		name := e.Name()
		cutShort, _ := filepath.Match(tempArchivePattern, name)
		if !cutShort && name != "site" && !strings.HasPrefix(name, "site.partial-") {
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
			d.log.Warn("remove what an earlier attempt left", "job", id, "file", name, "error", err)
		}
	}
}

// Stat finds the archive the record's size says is there.
func (d *Disk) Stat(_ context.Context, job *jobstore.ExportJob) (int64, string, bool, error) {
	return job.BundleSize, job.Version, job.BundleSize > 0, nil
}

// Build archives the site an older server left in the job's directory
// (site/) beside it.
func (d *Disk) Build(ctx context.Context, job *jobstore.ExportJob) (int64, string, error) {
	// Another server run may have built it: the record is the truth.
	fresh, err := d.jobs.ExportJob(ctx, job.JobID)
	if err != nil {
		return 0, "", fmt.Errorf("reload export job: %w", err)
	}
	if fresh.BundleSize > 0 {
		return fresh.BundleSize, job.Version, nil
	}
	start := time.Now()
	site := d.SiteDir(job.JobID)
	size, err := d.writeArchiveFile(ctx, job.JobID, func(ctx context.Context, w io.Writer, workers int) error {
		return bundle.Write(ctx, site, w, workers)
	}, nil)
	if err != nil {
		return 0, "", err
	}
	if err := d.jobs.SetBundleSize(ctx, job.JobID, size); err != nil {
		return 0, "", fmt.Errorf("store bundle: %w", err)
	}
	d.archived()
	d.log.Info("bundle archived", "job", job.JobID, "bytes", size, "duration", time.Since(start).Round(time.Millisecond))
	return size, job.Version, nil
}

// Link signs a link to the download route; its path is the route's
// pattern filled in, so the two cannot drift apart.
func (d *Disk) Link(_ context.Context, job *jobstore.ExportJob) (string, time.Time, error) {
	expires := d.clock.Now().Add(d.linkTTL).Truncate(time.Second).UTC()
	u := d.publicURL.JoinPath(api.FillPath(api.PathBundleDownload,
		map[string]string{"jobId": job.JobID, "file": api.BundleFileName}))
	u.RawQuery = d.signer.Sign(job.JobID, api.BundleFileName, expires).Encode()
	return u.String(), expires, nil
}

// CheckLink verifies the link's signature and expiry.
func (d *Disk) CheckLink(id, file string, query url.Values, now time.Time) error {
	return d.signer.Verify(id, file, query, now)
}

// Open opens the job's archive.
func (d *Disk) Open(id string) (*os.File, error) { return os.Open(d.ArchivePath(id)) }

// Earlier opens the job's archive file.
func (d *Disk) Earlier(_ context.Context, job *jobstore.ExportJob) func() (io.ReadCloser, error) {
	path := d.ArchivePath(job.JobID)
	return func() (io.ReadCloser, error) { return os.Open(path) }
}

// tempArchivePattern names an archive being written (os.CreateTemp).
const tempArchivePattern = ".bundle-*.tmp"

// writeArchiveFile writes the job's archive with write into a temporary
// file beside it, syncs it and, once beforeRename allows, renames it into
// place and syncs the directory, so a crash never leaves a truncated
// archive to be served. It returns the archive's size.
func (d *Disk) writeArchiveFile(ctx context.Context, id string, write func(context.Context, io.Writer, int) error, beforeRename func(context.Context) error) (_ int64, err error) {
	final := d.ArchivePath(id)
	if err := os.MkdirAll(filepath.Dir(final), 0o700); err != nil {
		return 0, fmt.Errorf("create export dir: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(final), tempArchivePattern)
	if err != nil {
		return 0, fmt.Errorf("create bundle: %w", err)
	}
	// On failure the temporary file goes; errors of that cleanup would only
	// hide the one being returned.
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriterSize(tmp, 256<<10)
	// 0 workers: compress on every core; the bytes do not depend on it.
	if err := write(ctx, bw, 0); err != nil {
		return 0, fmt.Errorf("archive export: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return 0, fmt.Errorf("write bundle: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return 0, fmt.Errorf("sync bundle: %w", err)
	}
	st, err := tmp.Stat()
	if err != nil {
		return 0, fmt.Errorf("stat bundle: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return 0, fmt.Errorf("close bundle: %w", err)
	}
	if beforeRename != nil {
		if err := beforeRename(ctx); err != nil {
			return 0, err
		}
	}
	if err := os.Rename(tmp.Name(), final); err != nil {
		return 0, fmt.Errorf("publish bundle: %w", err)
	}
	if err := fsutil.SyncDir(filepath.Dir(final)); err != nil {
		return 0, fmt.Errorf("sync bundle dir: %w", err)
	}
	return st.Size(), nil
}

// TreeSize sums the sizes of the regular files under dir.
func TreeSize(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		info, err := d.Info()
		if err == nil {
			n += info.Size()
		}
		return err
	})
	return n, err
}
