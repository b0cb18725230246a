package apiserver

import (
	"context"
	"io"

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
func (er *exportRunner) previousArchive(ctx context.Context, rec *jobstore.ExportJob) (func() (io.ReadCloser, error), []byte) {
	prev, err := er.store.LatestCompletedExport(ctx, rec.OrgID, rec.Domain, rec.JobID)
	if err != nil || prev == nil {
		return nil, nil
	}
	open := er.bundles.Earlier(er.ctx, prev)
	if open == nil {
		return nil, nil
	}
	return open, er.bundles.Record(ctx, prev)
}

// EntriesReused is how many archive entries exports have copied from
// earlier archives instead of compressing them.
func (s *Server) EntriesReused() int64 { return s.runner.reused.Load() }

// PagesReused is how many pages exports have taken from earlier exports
// instead of rendering them.
func (s *Server) PagesReused() int64 { return s.runner.pagesReused.Load() }
