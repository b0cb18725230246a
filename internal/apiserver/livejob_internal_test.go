package apiserver

import (
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export"
)

// A render's progress shows on its own attempt only. Its entry outlives
// the attempt briefly (it is dropped after the outcome is stored): a
// status read in between, of the job completed, taken over or forced
// running by the control plane, must show the store's record as it is.
func TestLiveJob_overlaysItsOwnAttemptOnly(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	lj := &liveJob{attempt: jobstore.ExportJob{JobID: "se_1", Owner: "srv/0", Attempts: 2}, progress: 99, pageCount: 11, updatedAt: t0.Add(time.Minute)}
	lj.warn(export.Warning{Kind: export.WarnContent, Message: "a warning"})
	for _, tc := range []struct {
		name, status, owner string
		attempts            int
		overlaid            bool
	}{
		{"its attempt", api.ExportRunning, "srv/0", 2, true},
		{"completed", api.ExportCompleted, "", 2, false},
		{"taken over", api.ExportRunning, "other/1", 3, false},
		{"the same worker, a later attempt", api.ExportRunning, "srv/0", 3, false},
		{"forced running", api.ExportRunning, "control-plane", 2, false},
	} {
		rec := &jobstore.ExportJob{JobID: "se_1", Status: tc.status, Owner: tc.owner, Attempts: tc.attempts, Progress: 40, UpdatedAt: t0}
		lj.overlay(rec)
		if got := rec.Progress == 99 && rec.PageCount == 11 && rec.UpdatedAt.Equal(t0.Add(time.Minute)) && rec.Warnings != nil; got != tc.overlaid {
			t.Errorf("%s: overlaid %v, want %v (%+v)", tc.name, got, tc.overlaid, rec)
		}
		if !tc.overlaid && (rec.Progress != 40 || rec.Warnings != nil) {
			t.Errorf("%s: record changed: %+v", tc.name, rec)
		}
	}
}
