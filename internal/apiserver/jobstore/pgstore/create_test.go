package pgstore

import (
	"errors"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
)

// The cases of a start that a key or a limit decides besides the plain
// ones of TestStore_idempotency: a key past its window but not yet
// pruned, a key whose job is gone, the bytes limit, and a job created
// held (running under a lease that never ends), which no worker claims.
func TestStore_createExportEdges(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			st := b.replica(t)
			first := newExport("se_first", "acme", t0)
			if prev, err := st.CreateExportJob(t.Context(), first, jobstore.Creation{IdempotencyKey: "k1", RequestHash: "h1"}); err != nil || prev != nil {
				t.Fatalf("first start: %v %v", prev, err)
			}
			// Past the window, unpruned: the key starts afresh, for
			// another request too, and then points at the new job.
			later := t0.Add(jobstore.IdempotencyWindow)
			if prev, err := st.CreateExportJob(t.Context(), newExport("se_later", "acme", later), jobstore.Creation{IdempotencyKey: "k1", RequestHash: "h2"}); err != nil || prev != nil {
				t.Fatalf("start past the window: %v %v", prev, err)
			}
			prev, err := st.CreateExportJob(t.Context(), newExport("se_retry", "acme", later.Add(time.Minute)), jobstore.Creation{IdempotencyKey: "k1", RequestHash: "h2"})
			if err != nil || prev == nil || prev.JobID != "se_later" {
				t.Fatalf("retry of the later start: %+v %v", prev, err)
			}
			// A key whose job was deleted creates a new one.
			if err := st.DeleteExportJob(t.Context(), "se_later"); err != nil {
				t.Fatal(err)
			}
			if prev, err := st.CreateExportJob(t.Context(), newExport("se_again", "acme", later.Add(2*time.Minute)), jobstore.Creation{IdempotencyKey: "k1", RequestHash: "h3"}); err != nil || prev != nil {
				t.Fatalf("start after the key's job was deleted: %v %v", prev, err)
			}
			if _, err := st.ExportJob(t.Context(), "se_retry"); !errors.Is(err, jobstore.ErrNoRecord) {
				t.Fatalf("a retry that returned the earlier job stored its own: %v", err)
			}
			// Stored bytes count against the bytes limit.
			done := newExport("se_done", "bytes", t0)
			done.Status, done.SiteBytes, done.BundleSize = api.ExportCompleted, 600, 400
			if err := st.PutExportJob(t.Context(), done); err != nil {
				t.Fatal(err)
			}
			if _, err := st.CreateExportJob(t.Context(), newExport("se_b1", "bytes", t0), jobstore.Creation{Limits: jobstore.Limits{Bytes: 1000}}); !errors.Is(err, jobstore.ErrTooManyBytes) {
				t.Fatalf("bytes limit reached: %v", err)
			}
			if _, err := st.CreateExportJob(t.Context(), newExport("se_b2", "bytes", t0), jobstore.Creation{Limits: jobstore.Limits{Bytes: 1001, Stored: 2, Active: 1}}); err != nil {
				t.Fatalf("within every limit: %v", err)
			}
			if _, err := st.CreateExportJob(t.Context(), newExport("se_b3", "bytes", t0), jobstore.Creation{Limits: jobstore.Limits{Active: 1}}); !errors.Is(err, jobstore.ErrTooManyActive) {
				t.Fatalf("active limit reached: %v", err)
			}
			// Held: created running, owned and leased for good.
			held := newExport("se_held", "held", t0)
			held.Status, held.Owner, held.LeaseUntil = api.ExportRunning, "hold", jobstore.Pinned
			if _, err := st.CreateExportJob(t.Context(), held, jobstore.Creation{}); err != nil {
				t.Fatal(err)
			}
			for {
				got, _, err := st.ClaimExport(t.Context(), "w", t0.Add(time.Hour), time.Minute)
				if err != nil {
					t.Fatal(err)
				}
				if got == nil {
					break
				}
				if got.JobID == "se_held" {
					t.Fatalf("a worker claimed the held job: %+v", got)
				}
			}
			got, err := st.ExportJob(t.Context(), "se_held")
			if err != nil || got.Status != api.ExportRunning || got.Owner != "hold" || !got.LeaseUntil.Equal(jobstore.Pinned) {
				t.Fatalf("held job as stored: %+v %v", got, err)
			}
		})
	}
}
