package pgtest_test

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// Each test's database is its own: a table one creates is not in another's.
func TestDB_isolated(t *testing.T) {
	ctx := context.Background()
	a, b := pgtest.DB(t), pgtest.DB(t)
	if a == b {
		t.Fatalf("two tests share database %s", a)
	}
	ca, err := pgx.Connect(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer ca.Close(ctx)
	if _, err := ca.Exec(ctx, "CREATE TABLE mine (n int)"); err != nil {
		t.Fatal(err)
	}
	cb, err := pgx.Connect(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close(ctx)
	var n int
	if err := cb.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE tablename = 'mine'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatal("a table created in one test's database is visible in another's")
	}
	var version string
	if err := cb.QueryRow(ctx, "SHOW server_version").Scan(&version); err != nil {
		t.Fatal(err)
	}
	if version[:3] != "15." {
		t.Fatalf("server version %s, want 15.x", version)
	}
}

// The server listens on loopback only.
func TestShared_loopbackOnly(t *testing.T) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pgtest.DB(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var listen string
	if err := conn.QueryRow(ctx, "SHOW listen_addresses").Scan(&listen); err != nil {
		t.Fatal(err)
	}
	if listen != "127.0.0.1" {
		t.Fatalf("listen_addresses = %q", listen)
	}
}

// A cluster that cannot start says why, with the server's log.
func TestStart_reportsFailure(t *testing.T) {
	pgtest.Shared(t) // skips without the binaries
	t.Setenv(pgtest.BinDirEnv, t.TempDir())
	if c, err := pgtest.Start(context.Background()); err == nil {
		_ = c.Stop()
		t.Fatal("start without programs succeeded")
	}
}
