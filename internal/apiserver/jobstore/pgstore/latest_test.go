package pgstore

import (
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
)

// latestJobs are the jobs TestStore_latestCompletedExport stores: some
// that a re-export of acme's docs.acme.test may copy from, and others
// that differ from those in one way each.
func latestJobs() []*jobstore.ExportJob {
	job := func(id, org, domain, status string, size int64, at time.Duration) *jobstore.ExportJob {
		rec := newExport(id, org, t0)
		rec.Domain, rec.Status, rec.BundleSize, rec.UpdatedAt = domain, status, size, t0.Add(at)
		return rec
	}
	return []*jobstore.ExportJob{
		job("se_a", "acme", "docs.acme.test", api.ExportCompleted, 100, 1*time.Minute),
		job("se_b", "acme", "docs.acme.test", api.ExportCompleted, 100, 3*time.Minute),
		job("se_noarchive", "acme", "docs.acme.test", api.ExportCompleted, 0, 5*time.Minute),
		job("se_failed", "acme", "docs.acme.test", api.ExportFailed, 0, 6*time.Minute),
		job("se_running", "acme", "docs.acme.test", api.ExportRunning, 0, 9*time.Minute),
		job("se_other", "acme", "other.acme.test", api.ExportCompleted, 100, 7*time.Minute),
		job("se_globex", "globex", "docs.acme.test", api.ExportCompleted, 100, 8*time.Minute),
		job("se_tie2", "acme", "tie.acme.test", api.ExportCompleted, 100, 2*time.Minute),
		job("se_tie1", "acme", "tie.acme.test", api.ExportCompleted, 100, 2*time.Minute),
	}
}

// The latest completed export with an archive of one organization's
// domain is found, on both backends, as the jobs change: a size set, a
// job deleted, a job requeued.
func TestStore_latestCompletedExport(t *testing.T) {
	type ask struct{ org, domain, excluding, want string }
	asks := func(t *testing.T, st jobstore.Store, step string, cases []ask) {
		t.Helper()
		for _, c := range cases {
			rec, err := st.LatestCompletedExport(t.Context(), c.org, c.domain, c.excluding)
			if err != nil {
				t.Fatalf("%s: %s %s without %q: %v", step, c.org, c.domain, c.excluding, err)
			}
			got := ""
			if rec != nil {
				got = rec.JobID
				if rec.OrgID != c.org || rec.Domain != c.domain || rec.Status != api.ExportCompleted {
					t.Errorf("%s: %s %s answered with %+v", step, c.org, c.domain, rec)
				}
			}
			if got != c.want {
				t.Errorf("%s: latest of %s %s without %q = %q, want %q", step, c.org, c.domain, c.excluding, got, c.want)
			}
		}
	}
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			st := b.replica(t)
			asks(t, st, "empty store", []ask{{"acme", "docs.acme.test", "", ""}})
			for _, rec := range latestJobs() {
				if err := st.PutExportJob(t.Context(), rec); err != nil {
					t.Fatal(err)
				}
			}
			asks(t, st, "stored", []ask{
				{"acme", "docs.acme.test", "", "se_b"},
				{"acme", "docs.acme.test", "se_b", "se_a"},
				{"acme", "docs.acme.test", "se_new", "se_b"},
				{"acme", "other.acme.test", "", "se_other"},
				{"globex", "docs.acme.test", "", "se_globex"},
				{"acme", "tie.acme.test", "", "se_tie1"},
				{"acme", "tie.acme.test", "se_tie1", "se_tie2"},
				{"acme", "none.acme.test", "", ""},
				{"initech", "docs.acme.test", "", ""},
			})
			if err := st.SetBundleSize(t.Context(), "se_noarchive", 50); err != nil {
				t.Fatal(err)
			}
			asks(t, st, "archive built", []ask{{"acme", "docs.acme.test", "", "se_noarchive"}})
			if err := st.DeleteExportJob(t.Context(), "se_noarchive"); err != nil {
				t.Fatal(err)
			}
			asks(t, st, "deleted", []ask{{"acme", "docs.acme.test", "", "se_b"}})
			requeued := latestJobs()[1]
			requeued.Status, requeued.BundleSize = api.ExportQueued, 0
			if err := st.PutExportJob(t.Context(), requeued); err != nil {
				t.Fatal(err)
			}
			asks(t, st, "requeued", []ask{{"acme", "docs.acme.test", "", "se_a"}})
		})
	}
}

// PostgreSQL answers LatestCompletedExport from its partial index, not
// by reading the table: with sequential scans ruled out the plan uses
// export_jobs_latest_completed (a table this small would be scanned).
func TestPGStore_latestCompletedExportIndexed(t *testing.T) {
	_, conn := storeAndConn(t)
	if _, err := conn.Exec(t.Context(), "SET enable_seqscan = off"); err != nil {
		t.Fatal(err)
	}
	rows, err := conn.Query(t.Context(), "EXPLAIN "+latestCompletedSQL, pgx.QueryExecModeSimpleProtocol, "acme", "docs.acme.test", "")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if text := strings.Join(plan, "\n"); !strings.Contains(text, "export_jobs_latest_completed") {
		t.Fatalf("the query does not use its index:\n%s", text)
	}
}
