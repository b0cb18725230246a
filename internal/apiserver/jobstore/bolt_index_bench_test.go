package jobstore

import (
	"fmt"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// BenchmarkBoltExportCycle is the store's part of one export (start,
// claim, outcome) on a file that already holds stored completed jobs of
// several organizations: with 10 and with 2,000 of them, the cost per
// export should be the same. Each job is deleted outside the timer, so
// the number stored does not grow with b.N. fsync=false leaves out the
// disk's flushes, which on a shared machine vary more than all the rest.
func BenchmarkBoltExportCycle(b *testing.B) {
	for _, fsync := range []bool{true, false} {
		for _, stored := range []int{10, 2000} {
			b.Run(fmt.Sprintf("fsync=%v/stored=%d", fsync, stored), func(b *testing.B) {
				benchExportCycle(b, stored, !fsync)
			})
		}
	}
}

func benchExportCycle(b *testing.B, stored int, noSync bool) {
	st, err := OpenBolt(b.Context(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	st.db.NoSync = noSync
	for i := range stored {
		rec := newExport(fmt.Sprintf("se_done_%05d", i), fmt.Sprintf("org_%02d", i%20), t0.Add(time.Duration(i)*time.Second))
		rec.Status, rec.SiteBytes, rec.BundleSize = api.ExportCompleted, 1<<20, 1<<19
		if err := st.PutExportJob(b.Context(), rec); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	lim := Limits{Active: 10, Stored: 1000, Bytes: 1 << 40}
	now := t0.Add(time.Hour)
	for i := 0; b.Loop(); i++ {
		id := fmt.Sprintf("se_bench_%09d", i)
		if _, err := st.CreateExportJob(b.Context(), newExport(id, "org_00", now), Creation{Limits: lim}); err != nil {
			b.Fatal(err)
		}
		rec, _, err := st.ClaimExport(b.Context(), "w", now, time.Minute)
		if err != nil || rec == nil || rec.JobID != id {
			b.Fatalf("claim: %+v %v", rec, err)
		}
		rec.Status, rec.Progress = api.ExportCompleted, 100
		if err := st.CompleteAttempt(b.Context(), rec); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := st.DeleteExportJob(b.Context(), id); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
