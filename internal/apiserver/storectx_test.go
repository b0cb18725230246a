package apiserver_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// storeWaitBound is how long a store call that waits for a lock may take
// to stop once its context ends: well inside the store's own per-call
// timeout (15 s), so only the context can have stopped it.
const storeWaitBound = 8 * time.Second

// lockExportJobs starts a transaction on its own connection that locks
// export_jobs against writes (reads go on), as a long migration or an
// operator's session would, and returns that connection; the lock ends
// with the test.
func lockExportJobs(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	if _, err := conn.Exec(t.Context(), "BEGIN; LOCK TABLE export_jobs IN EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	return conn
}

// waitForLockWait polls, for at most within, until a statement waits for
// a lock in the database.
func waitForLockWait(t *testing.T, conn *pgx.Conn, within time.Duration, what string) {
	t.Helper()
	testutil.Eventually(t, within, what, func() bool {
		var n int
		if err := conn.QueryRow(t.Context(), "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n > 0
	})
}

// Close returns while a worker's store call waits for a lock: the
// workers' calls run on the server's context, which Close cancels, not
// on one of their own that only the store's timeout would end.
func TestClose_stopsWaitingStoreCall(t *testing.T) {
	url := pgtest.DB(t)
	env := apiservertest.Start(t, apiservertest.WithDatabase(url),
		apiservertest.WithConfig(func(c *apiconfig.Config) { c.ExportWorkers = 1 }))
	hung, release := make(chan string, 1), make(chan struct{})
	apiserver.OnRender(env.Server, func(id string) {
		hung <- id
		<-release
	})
	env.StartExport(t, api.StartExportRequest{Domain: env.Domain})
	select {
	case <-hung:
	case <-time.After(apiservertest.ExportTimeout):
		t.Fatal("the server did not start rendering")
	}
	conn := lockExportJobs(t, url)
	close(release) // the render finishes; recording its outcome waits
	waitForLockWait(t, conn, apiservertest.ExportTimeout, "the worker's completion to wait for the lock")

	closed := make(chan error, 1)
	go func() { closed <- env.Server.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatalf("close: %v", err)
		}
	case <-time.After(storeWaitBound):
		t.Fatal("Close still waits for the worker's store call")
	}
}
