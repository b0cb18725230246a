package apiserver

import (
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// sweepInterval is how often the background sweeper deletes what has
// passed the retention. Without it a job nobody asks about again would
// keep its files forever, and one key could fill the disk.
const sweepInterval = time.Minute

func (er *exportRunner) sweeper() {
	s := er.srv
	defer s.background.Done()
	t := time.NewTicker(sweepInterval)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
			if err := s.Sweep(); err != nil {
				s.log.Error("retention sweep", "error", err)
			}
		}
	}
}

// Sweep deletes, now, the export jobs (records and files), agent jobs
// and documentation updates past the retention, and idempotency keys past
// their 24 hours. The server runs it every minute; tests call it after
// moving the clock.
func (s *Server) Sweep() error {
	jobs, err := s.store.ExportJobs()
	if err != nil {
		return err
	}
	for _, rec := range jobs {
		// A job being rendered is left to finish; the next sweep takes it.
		if s.expired(rec.CreatedAt) && rec.Status != api.ExportRunning {
			s.runner.forgetExport(rec.JobID)
		}
	}
	now := s.clock.Now()
	if r := s.retention(); r > 0 {
		n, err := s.store.DeleteAgentJobsBefore(now.Add(-r))
		if err != nil {
			return err
		}
		if n > 0 {
			s.log.Info("agent jobs passed their retention and were deleted", "count", n)
		}
		if n, err = s.store.DeleteUpdatesBefore(now.Add(-r)); err != nil {
			return err
		}
		if n > 0 {
			s.log.Info("documentation updates passed their retention and were deleted", "count", n)
		}
	}
	return s.store.PruneIdempotency(now)
}
