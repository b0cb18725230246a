// Package pgtest runs a real PostgreSQL 15 (Debian's postgresql package)
// for tests: one throwaway cluster per test binary, on 127.0.0.1 and a
// free port, with a fresh database for every test that asks, so tests stay
// independent without paying for a cluster each.
//
// Use it from TestMain so the cluster stops when the tests end:
//
//	func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
//
// and call DB(t) in a test for the URL of its own database.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// BinDirEnv overrides where the PostgreSQL programs are looked for.
const BinDirEnv = "PGTEST_BINDIR"

// defaultBinDir is where Debian 12's postgresql-15 package puts them.
const defaultBinDir = "/usr/lib/postgresql/15/bin"

// startTimeout bounds initdb plus the wait for the server to accept
// connections; on two busy cores initdb alone takes a few seconds.
const startTimeout = 90 * time.Second

// Cluster is a running PostgreSQL server in a temporary directory.
type Cluster struct {
	dir  string
	port int
	cmd  *exec.Cmd
	log  string
	exit chan struct{} // closed when the server process has exited
	dbs  atomic.Int64
}

var (
	sharedMu  sync.Mutex
	shared    *Cluster
	sharedErr error
)

// Main runs the tests and then stops the shared cluster, if one was
// started; its result is the exit code for os.Exit.
func Main(m *testing.M) int {
	code := m.Run()
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if shared != nil {
		if err := shared.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "pgtest:", err)
		}
		shared = nil
	}
	return code
}

// BinDir is the directory the PostgreSQL programs are run from.
func BinDir() string {
	if d := os.Getenv(BinDirEnv); d != "" {
		return d
	}
	return defaultBinDir
}

// DB returns the URL of a new, empty database on the shared cluster,
// starting the cluster on first use; the database is dropped when t ends.
// Without the PostgreSQL programs the test is skipped, or fails under CI
// (the CI variable set), where a skipped backend would hide a regression.
func DB(t testing.TB) string {
	t.Helper()
	c := Shared(t)
	url, err := c.CreateDB(context.Background())
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		if err := c.dropDB(url); err != nil {
			t.Errorf("pgtest: %v", err)
		}
	})
	return url
}

// Shared returns the test binary's cluster, starting it on first use.
func Shared(t testing.TB) *Cluster {
	t.Helper()
	testutil.SkipShort(t, testutil.NeedsPostgres)
	if _, err := os.Stat(filepath.Join(BinDir(), "postgres")); err != nil {
		msg := fmt.Sprintf("PostgreSQL 15 is not installed (%s/postgres: %v); `make postgres` installs Debian's postgresql package", BinDir(), err)
		if os.Getenv("CI") != "" {
			t.Fatal("pgtest: " + msg)
		}
		t.Skip("pgtest: " + msg)
	}
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if shared == nil && sharedErr == nil {
		shared, sharedErr = Start(context.Background())
	}
	if sharedErr != nil {
		t.Fatalf("pgtest: %v", sharedErr)
	}
	return shared
}

// Start initialises a cluster in a new temporary directory and starts it.
// initdb and postgres refuse to run as root, so as root both run as the
// unprivileged user nobody, in a directory it owns.
func Start(ctx context.Context) (*Cluster, error) {
	dir, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		return nil, fmt.Errorf("temp dir: %w", err)
	}
	c := &Cluster{dir: dir, log: filepath.Join(dir, "postgres.log"), exit: make(chan struct{})}
	if err := c.start(ctx); err != nil {
		_ = c.Stop()
		return nil, err
	}
	return c, nil
}

func (c *Cluster) start(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	cred, err := unprivileged(c.dir)
	if err != nil {
		return err
	}
	data, sock := filepath.Join(c.dir, "data"), filepath.Join(c.dir, "sock")
	if err := os.Mkdir(sock, 0o700); err != nil {
		return fmt.Errorf("socket dir: %w", err)
	}
	if cred != nil {
		if err := os.Chown(sock, int(cred.Uid), int(cred.Gid)); err != nil {
			return fmt.Errorf("socket dir: %w", err)
		}
	}
	// --no-sync and the settings below trade durability for speed: the
	// cluster is thrown away at the end and never survives a crash.
	//nolint:gosec // G204: the package's own initdb, arguments fixed here
	initdb := exec.CommandContext(ctx, filepath.Join(BinDir(), "initdb"),
		"-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync")
	initdb.SysProcAttr = procAttr(cred)
	initdb.Dir = c.dir
	if out, err := initdb.CombinedOutput(); err != nil {
		return fmt.Errorf("initdb: %w\n%s", err, out)
	}
	ports, err := testutil.FreePorts(1)
	if err != nil {
		return err
	}
	c.port = ports[0]
	logf, err := os.Create(c.log)
	if err != nil {
		return fmt.Errorf("log file: %w", err)
	}
	// The child holds its own descriptor; ours was only for handing over.
	defer func() { _ = logf.Close() }()
	//nolint:gosec // G204: the package's own postgres, arguments fixed here
	c.cmd = exec.Command(filepath.Join(BinDir(), "postgres"), "-D", data,
		"-p", strconv.Itoa(c.port), "-k", sock,
		"-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "full_page_writes=off",
		"-c", "synchronous_commit=off", "-c", "max_connections=200")
	c.cmd.SysProcAttr = procAttr(cred)
	c.cmd.Dir = c.dir
	c.cmd.Stdout, c.cmd.Stderr = logf, logf
	if err := c.cmd.Start(); err != nil {
		return fmt.Errorf("start postgres: %w", err)
	}
	go func() {
		_ = c.cmd.Wait()
		close(c.exit)
	}()
	return c.waitReady(ctx)
}

// waitReady polls until the server accepts a connection, as pg_isready
// would, failing at once with the server's log when the server exits.
func (c *Cluster) waitReady(ctx context.Context) error {
	interval := 10 * time.Millisecond
	for {
		conn, err := pgx.Connect(ctx, c.url("postgres"))
		if err == nil {
			return conn.Close(ctx)
		}
		t := time.NewTimer(interval)
		select {
		case <-c.exit:
			t.Stop()
			return fmt.Errorf("postgres exited while starting:\n%s", c.Log())
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("postgres did not accept connections within %s: %w\n%s", startTimeout, err, c.Log())
		case <-t.C:
		}
		interval = min(2*interval, 200*time.Millisecond)
	}
}

// Log returns what the server has logged so far, for failure messages.
func (c *Cluster) Log() string {
	b, err := os.ReadFile(c.log)
	if err != nil {
		return "(no log: " + err.Error() + ")"
	}
	return string(b)
}

// Port is the TCP port the server listens on at 127.0.0.1.
func (c *Cluster) Port() int { return c.port }

func (c *Cluster) url(db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", c.port, db)
}

// CreateDB creates an empty database (a copy of template1) and returns
// its URL. FILE_COPY copies template1's few files instead of writing them
// through the WAL (PostgreSQL 15's default), about three times faster
// here: the ~0.1s a test pays for its own database.
func (c *Cluster) CreateDB(ctx context.Context) (string, error) {
	name := fmt.Sprintf("t%d", c.dbs.Add(1))
	conn, err := pgx.Connect(ctx, c.url("postgres"))
	if err != nil {
		return "", fmt.Errorf("connect: %w", err)
	}
	defer func() { _ = conn.Close(ctx) }()
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name+" TEMPLATE template1 STRATEGY file_copy"); err != nil {
		return "", fmt.Errorf("create database: %w", err)
	}
	return c.url(name), nil
}

func (c *Cluster) dropDB(url string) error {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.url("postgres"))
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer func() { _ = conn.Close(ctx) }()
	// FORCE ends sessions a test left open, such as a pool it did not close.
	if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{cfg.Database}.Sanitize()+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("drop database: %w", err)
	}
	return nil
}

// Stop shuts the server down (fast shutdown: sessions are ended) and
// removes its directory.
func (c *Cluster) Stop() error {
	var errs []error
	if c.cmd != nil && c.cmd.Process != nil {
		_ = c.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-c.exit:
		case <-time.After(30 * time.Second):
			_ = c.cmd.Process.Kill()
			<-c.exit
			errs = append(errs, errors.New("postgres did not stop within 30s and was killed"))
		}
	}
	if err := os.RemoveAll(c.dir); err != nil {
		errs = append(errs, fmt.Errorf("remove cluster dir: %w", err))
	}
	return errors.Join(errs...)
}

// unprivileged returns the credential to run PostgreSQL with: nil when we
// are not root, else nobody's, after handing dir to nobody.
func unprivileged(dir string) (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		return nil, fmt.Errorf("running as root, PostgreSQL needs an unprivileged user: %w", err)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err := errors.Join(err1, err2); err != nil {
		return nil, fmt.Errorf("user nobody: %w", err)
	}
	if err := os.Chown(dir, int(uid), int(gid)); err != nil {
		return nil, fmt.Errorf("hand the cluster dir to nobody: %w", err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), NoSetGroups: true}, nil
}
