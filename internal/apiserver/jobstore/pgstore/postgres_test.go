package pgstore

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
)

// Replicas starting together apply each migration once, and a later
// start applies nothing.
func TestPGStore_migrationsOnceUnderLock(t *testing.T) {
	url := pgtest.DB(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, err := Open(context.Background(), url)
			if err == nil {
				err = st.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("concurrent start: %v", err)
		}
	}
	all, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n, top int
	if err := conn.QueryRow(ctx, "SELECT count(*), max(version) FROM schema_migrations").Scan(&n, &top); err != nil {
		t.Fatal(err)
	}
	if n != len(all) || top != all[len(all)-1].version {
		t.Fatalf("schema_migrations has %d rows up to %d, want %d up to %d", n, top, len(all), all[len(all)-1].version)
	}
}

// A database that cannot be reached fails the start with a message that
// names it, without its password.
func TestPGStore_unreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	_, err = Open(context.Background(), "postgres://docs:s3cret-pw@"+addr+"/docs?connect_timeout=5")
	if err == nil {
		t.Fatal("opened a database nobody serves")
	}
	if msg := err.Error(); !strings.Contains(msg, "connect to database") || !strings.Contains(msg, addr) || strings.Contains(msg, "s3cret-pw") {
		t.Fatalf("error %q should name %s and hide the password", msg, addr)
	}
	if _, err := Open(context.Background(), "postgres://docs:s3cret-pw@%zz"); err == nil || strings.Contains(err.Error(), "s3cret-pw") {
		t.Fatalf("bad URL: %v", err)
	}
}
