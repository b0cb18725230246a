package apiserver

import (
	"io"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
)

// previousArchive opens the archive of the latest completed export of
// rec's deployment (same organization and domain), which the archive of
// rec copies every unchanged file's compressed entry from
// (bundle.Spool.ReuseArchive): on a re-export after a small change most
// of the archive is copied, not compressed. With it comes the render
// record kept beside it (bundles.Store.Record), which lets the export
// take unchanged pages from that archive rather than render them
// (export.Request.Previous). It returns nil when there is none. Which
// earlier archive it is matters only for speed: an entry is copied only
// if it holds the same path and content, and a page reused only if its
// inputs are the same, so the new archive is byte for byte the one made
// from scratch.
func (er *exportRunner) previousArchive(rec *jobstore.ExportJob) (func() (io.ReadCloser, error), []byte) {
	jobs, err := er.store.ExportJobs()
	if err != nil {
		return nil, nil
	}
	var prev *jobstore.ExportJob
	for _, j := range jobs {
		if j.JobID == rec.JobID || j.OrgID != rec.OrgID || j.Domain != rec.Domain || j.Status != api.ExportCompleted || j.BundleSize == 0 {
			continue
		}
		if prev == nil || j.UpdatedAt.After(prev.UpdatedAt) {
			prev = j
		}
	}
	if prev == nil {
		return nil, nil
	}
	open := er.bundles.Earlier(er.ctx, prev)
	if open == nil {
		return nil, nil
	}
	return open, er.bundles.Record(er.ctx, prev)
}

// EntriesReused is how many archive entries exports have copied from
// earlier archives instead of compressing them.
func (s *Server) EntriesReused() int64 { return s.runner.reused.Load() }

// PagesReused is how many pages exports have taken from earlier exports
// instead of rendering them.
func (s *Server) PagesReused() int64 { return s.runner.pagesReused.Load() }
