package apiserver

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/bundles"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/httpapi"
)

// FailStoreWrites makes every store write of s fail with the error f
// returns (none when f returns nil), as a full disk would: the external
// tests use it to check that no job is left queued or running.
func FailStoreWrites(s *Server, f func() error) { s.store.Faults().Fail(f) }

// StopLeaseRenewal makes s's workers stop renewing the leases of the jobs
// they render, as a replica that hangs or dies would.
func StopLeaseRenewal(s *Server) { s.runner.hooks.renewalStopped.Store(true) }

// OnRender makes every render of s call f first, with the job's id; f may
// block, as a replica that hangs mid-export would.
func OnRender(s *Server, f func(jobID string)) { s.runner.hooks.beforeRender.Store(&f) }

// LeaseUntil is when the lease on job id ends, as its record holds it.
func LeaseUntil(s *Server, id string) (time.Time, error) {
	rec, err := s.store.ExportJob(context.Background(), id)
	if err != nil {
		return time.Time{}, err
	}
	return rec.LeaseUntil, nil
}

// StrictDocumented returns, for each reference operation ("METHOD
// pattern"), the statuses a strict server may answer.
func StrictDocumented() map[string][]int { return httpapi.StrictDocumented() }

// StrictStatus is what a strict server answers on op for our status, and
// false when it closes the connection instead.
func StrictStatus(op string, status int) (int, bool) { return httpapi.StrictStatus(op, status) }

// StoreStatements is how many SQL statements s's store has sent, or -1
// for a store that does not count them (bbolt).
func StoreStatements(s *Server) int64 {
	if c, ok := s.store.(interface{ Statements() int64 }); ok {
		return c.Statements()
	}
	return -1
}

// UploadsPerWorker is how many uploads one worker keeps in flight while
// it renders the next job.
const UploadsPerWorker = uploadsPerWorker

// FenceReads is how many times s read a job's record before uploading
// its site, to check that its attempt still held the job.
func FenceReads(s *Server) int64 {
	if c, ok := s.bundles.(interface{ FenceReads() int64 }); ok {
		return c.FenceReads()
	}
	return -1
}

// AsOlderServerLeftIt turns the completed job id of s (a server without
// an object store) into what a server from before archives were made at
// completion left: the site unpacked into the job's site/, no archive and
// no bundle size recorded. Its first bundle call then builds the archive
// from the site.
func AsOlderServerLeftIt(s *Server, id string) error {
	er, ok := s.bundles.(*bundles.Disk)
	if !ok {
		return errors.New("a server with an object store keeps no site in its data dir")
	}
	f, err := os.Open(er.ArchivePath(id))
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		p := filepath.Join(er.SiteDir(id), filepath.FromSlash(hdr.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	if err := os.Remove(er.ArchivePath(id)); err != nil {
		return err
	}
	rec, err := s.store.ExportJob(context.Background(), id)
	if err != nil {
		return err
	}
	if rec.SiteBytes, err = bundles.TreeSize(er.SiteDir(id)); err != nil {
		return err
	}
	rec.BundleSize = 0
	return s.store.PutExportJob(context.Background(), rec)
}
