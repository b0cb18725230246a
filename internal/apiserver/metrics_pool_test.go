package apiserver_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// On PostgreSQL /metrics shows the connection pool: its size, what is in
// use, and the acquisitions (round trips) that reads add to (status reads
// of an unknown job: a known one that stands still is answered from
// memory); the embedded store has no pool and no such series.
func TestMetrics_databasePool(t *testing.T) {
	env := apiservertest.Start(t, apiservertest.WithDatabase(pgtest.DB(t)))
	id := completedExport(t, env)
	const unknown = "se_0123456789abcdef"
	before := testutil.Scrape(t, env.URL+apiserver.PathMetrics)
	if n := before.Must(t, "docsadmin_db_pool_max_connections"); n < 1 {
		t.Fatalf("pool of %v connections", n)
	}
	before.Must(t, "docsadmin_db_pool_connections", "state", "idle")
	before.Must(t, "docsadmin_db_pool_waits_total")
	before.Must(t, "docsadmin_db_pool_acquire_seconds_total")
	const reads = 5
	for range reads {
		if r := call(t, "GET", env.URL+api.PathExportJobs+"/"+unknown, env.Key, nil); r.status != http.StatusNotFound {
			t.Fatalf("status read: %d %s", r.status, r.body)
		}
	}
	after := testutil.Scrape(t, env.URL+apiserver.PathMetrics)
	if d := after.Must(t, "docsadmin_db_pool_acquires_total") - before.Must(t, "docsadmin_db_pool_acquires_total"); d < reads {
		t.Fatalf("%d status reads, one after another, added %v pool acquisitions; want at least one each", reads, d)
	}

	// Polls of the completed job come from memory while the connection
	// that hears changes listens.
	if v := after.Must(t, "docsadmin_db_job_changes_heard"); v != 1 {
		t.Fatalf("docsadmin_db_job_changes_heard %v, want 1", v)
	}
	testutil.Eventually(t, 5*time.Second, "a status poll answered from memory", func() bool {
		if r := call(t, "GET", env.URL+api.PathExportJobs+"/"+id, env.Key, nil); r.status != http.StatusOK {
			t.Fatalf("status read: %d %s", r.status, r.body)
		}
		return testutil.Scrape(t, env.URL+apiserver.PathMetrics).Must(t, "docsadmin_db_status_polls_from_memory_total") > 0
	})

	embedded := apiservertest.Start(t)
	for _, name := range []string{"docsadmin_db_pool_acquires_total", "docsadmin_db_status_polls_from_memory_total"} {
		if v, ok := testutil.Scrape(t, embedded.URL+apiserver.PathMetrics).Value(name); ok {
			t.Fatalf("embedded store reports %s: %v", name, v)
		}
	}
}
