package apiserver

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/fsutil"
)

// render renders rec's site into a spool and archives it into the job's
// directory, where bundle links point (the server without an object
// store). The archive is made once, at completion, as a replica makes and
// uploads it: the site is never written out as a tree of files, which on
// a file system slow to create files (ext4 without a journal, right after
// others were removed) cost more than rendering it, and a bundle call
// only signs. It sets rec.BundleSize, or for a site an older server left
// (resumeSite) rec.SiteBytes.
func (er *exportRunner) render(leaseCtx context.Context, rec *jobstore.ExportJob, lj *liveJob) (*bundle.Manifest, error) {
	s := er.srv
	if man, ok := er.resumeArchive(rec); ok {
		return man, nil
	}
	if man, ok, err := er.resumeSite(rec); ok || err != nil {
		return man, err
	}
	start := time.Now()
	spool, man, err := er.renderToSpool(leaseCtx, rec, lj)
	defer er.sites.closeSpool(rec.JobID, spool) // the archive is made from it below
	if err != nil {
		return nil, err
	}
	rendered := time.Now()
	// Published only while holding the job (stillHolds).
	size, err := er.writeArchiveFile(leaseCtx, rec.JobID, spool.WriteArchive, func() error { return s.stillHolds(rec) })
	if err != nil {
		return nil, err
	}
	rec.BundleSize, rec.SiteBytes = size, 0
	er.removeOlderRenders(rec.JobID)
	s.archives.Add(1)
	s.metrics.ArchiveBuilt(nil, time.Since(rendered))
	s.log.Info("export completed", "job", rec.JobID, "pages", man.PageCount, "bytes", size, "reusedEntries", spool.Copied(),
		"render", rendered.Sub(start).Round(time.Millisecond), "archive", time.Since(rendered).Round(time.Millisecond))
	return man, nil
}

// resumeArchive finishes rec from the archive a crash left renamed into
// place before the job was recorded completed: it is whole and synced.
// An archive that does not verify is removed, and the job rendered again.
func (er *exportRunner) resumeArchive(rec *jobstore.ExportJob) (*bundle.Manifest, bool) {
	s := er.srv
	f, err := os.Open(er.bundlePath(rec.JobID))
	if err != nil {
		return nil, false
	}
	man, err := bundle.VerifyArchive(bufio.NewReaderSize(f, 256<<10))
	st, serr := f.Stat()
	_ = f.Close() // read only: nothing to lose
	if err == nil && serr == nil {
		s.log.Info("export was archived before the restart; completing it from its archive", "job", rec.JobID)
		rec.BundleSize, rec.SiteBytes = st.Size(), 0
		return man, true
	}
	s.log.Warn("discarding an archive that does not verify", "job", rec.JobID, "error", errors.Join(err, serr))
	if err := os.Remove(er.bundlePath(rec.JobID)); err != nil && !errors.Is(err, os.ErrNotExist) {
		s.log.Warn("remove an unverified archive", "job", rec.JobID, "error", err)
	}
	return nil, false
}

// resumeSite finishes rec from a site an older server renamed into place
// before a crash, as that server would have: the archive is then built
// at the first bundle call. A site that does not verify is removed.
func (er *exportRunner) resumeSite(rec *jobstore.ExportJob) (*bundle.Manifest, bool, error) {
	s := er.srv
	site := er.siteDir(rec.JobID)
	if _, err := os.Stat(site); err != nil {
		return nil, false, nil
	}
	man, verr := bundle.VerifyDir(site)
	if verr == nil {
		size, err := treeSize(site)
		if err != nil {
			return nil, true, fmt.Errorf("measure export: %w", err)
		}
		s.log.Info("export was rendered before the restart; completing it from its files", "job", rec.JobID)
		rec.SiteBytes = size
		return man, true, nil
	}
	s.log.Warn("discarding a rendered site that does not verify", "job", rec.JobID, "error", verr)
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
func (er *exportRunner) removeOlderRenders(id string) {
	dir := er.jobDir(id)
	entries, err := os.ReadDir(dir)
	if err != nil {
		er.srv.log.Warn("list the job's files", "job", id, "error", err)
		return
	}
	for _, e := range entries {
		name := e.Name()
		cutShort, _ := filepath.Match(tempArchivePattern, name)
		if !cutShort && name != "site" && !strings.HasPrefix(name, "site.partial-") {
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
			er.srv.log.Warn("remove what an earlier attempt left", "job", id, "file", name, "error", err)
		}
	}
}

// hasLocalSite reports whether a job completed without an object store
// still has what its bundle is made of: its archive, or the site an
// older server left.
func (er *exportRunner) hasLocalSite(id string) bool {
	for _, p := range []string{er.bundlePath(id), er.siteDir(id)} {
		if _, err := os.Stat(p); err == nil {
			return true
		}
	}
	return false
}

// tempArchivePattern names an archive being written (os.CreateTemp).
const tempArchivePattern = ".bundle-*.tmp"

// writeArchiveFile writes the job's archive with write into a temporary
// file beside it, syncs it and, once beforeRename allows, renames it into
// place and syncs the directory, so a crash never leaves a truncated
// archive to be served. It returns the archive's size.
func (er *exportRunner) writeArchiveFile(ctx context.Context, id string, write func(context.Context, io.Writer, int) error, beforeRename func() error) (_ int64, err error) {
	final := er.bundlePath(id)
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
		if err := beforeRename(); err != nil {
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
