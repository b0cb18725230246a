package apiservercmd

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/bucket"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore/pgstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/linksign"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/cli"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/fsutil"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/objstore"
)

// adminKeyFile holds the demo admin key in the data dir.
const adminKeyFile = "admin-key"

// Environment variables that set the storage flags.
const (
	// EnvDatabaseURL sets --database-url.
	EnvDatabaseURL = "DOCSADMIN_DATABASE_URL"
	// EnvObjectStore sets --object-store.
	EnvObjectStore = "DOCSADMIN_OBJECT_STORE"
	// EnvControlToken sets --control-token.
	EnvControlToken = "DOCSADMIN_CONTROL_TOKEN" //nolint:gosec // the name of a variable, not a credential
)

// storageFlags are the --database-url and --object-store values, which
// override the config file's storage section.
type storageFlags struct {
	database, objects string
}

// serveFlags are the flags that shape what the server answers.
type serveFlags struct {
	controlToken string
	journalSize  int
	strict       bool
}

// errBadStorage marks a storage setting that cannot be used as given: a
// usage error (exit 2), not a failure of the server.
var errBadStorage = errors.New("bad storage setting")

// Command runs the `apiserver` subcommand until ctx ends or SIGINT/SIGTERM
// arrives, and returns the process exit code.
func Command(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "rotate-signing-key" {
		return RotateCommand(ctx, args[1:], stdout, stderr)
	}
	cmd := cli.New("apiserver", stderr)
	fs := cmd.Flags
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free one)")
	dataDir := fs.String("data-dir", defaultDataDir(), "directory for jobs, bundles and keys")
	configPath := fs.String("config", "", "YAML configuration; without it the embedded demo runs")
	ttl := fs.Duration("bundle-link-ttl", 0, "lifetime of presigned bundle links (overrides the config file)")
	publicURL := fs.String("public-url", "", "base URL of bundle links (default: http://<listen address>)")
	databaseURL := fs.String("database-url", os.Getenv(EnvDatabaseURL),
		"postgres:// URL of a database shared by replicas (env "+EnvDatabaseURL+", config storage.database); needs --object-store")
	objectStore := fs.String("object-store", os.Getenv(EnvObjectStore),
		"s3://BUCKET?endpoint=URL&region=R&path-style=true bucket for sites and archives (env "+EnvObjectStore+
			", config storage.objects); credentials from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
	strict := fs.Bool("strict", false, "leave out what the real service does not document (content version, warnings, "+
		"Idempotency-Key, statuses its reference does not list, each answered as the closest one it does), "+
		"so a suite can prove it does not depend on them")
	controlToken := fs.String("control-token", "",
		"enable the control plane for test suites (/_control/v1/...) with this bearer token (env "+EnvControlToken+", config control.token)")
	journalSize := fs.Int("journal-size", 0, "requests the control plane's journal keeps (default 1000; overrides config control.journalSize)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: terraform-provider-docsadmin apiserver [flags]\n"+
			"       terraform-provider-docsadmin apiserver rotate-signing-key [--data-dir DIR] [--drop-previous]\n\n"+
			"Runs the reference admin API server.\n\n")
		fs.PrintDefaults()
	}
	log, code, ok := cmd.Parse(args)
	if !ok {
		return code
	}
	ctx, stop := cli.WithSignals(ctx)
	defer stop()
	storage := storageFlags{database: *databaseURL, objects: *objectStore}
	// The token is read from the environment here rather than as the
	// flag's default, so -help never prints it.
	token := cmp.Or(*controlToken, os.Getenv(EnvControlToken))
	if err := run(ctx, log, stdout, *addr, *dataDir, *configPath, *ttl, *publicURL, storage, serveFlags{controlToken: token, journalSize: *journalSize, strict: *strict}); err != nil {
		log.Error("apiserver stopped", "error", err)
		if errors.Is(err, apiserver.ErrNeedsObjectStore) || errors.Is(err, errBadStorage) {
			return cli.ExitUsage
		}
		return cli.ExitFailed
	}
	return cli.ExitOK
}

func run(ctx context.Context, log hclog.Logger, stdout io.Writer, addr, dataDir, configPath string, ttl time.Duration, publicURL string, storage storageFlags, serve serveFlags) (err error) {
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return fmt.Errorf("data dir: %w", err)
	}
	if storage.database != "" && storage.objects == "" && configPath == "" {
		// Refused before anything is read or listens: see errNeedsObjectStore.
		return apiserver.ErrNeedsObjectStore
	}
	var cfg *apiconfig.Config
	if configPath != "" {
		c, err := apiconfig.LoadConfig(configPath)
		if err != nil {
			return err
		}
		cfg = c
	} else {
		key, created, err := demoKey(dataDir)
		if err != nil {
			return err
		}
		cfg = apiserver.DemoConfig(key)
		keyPath := filepath.Join(dataDir, adminKeyFile)
		if created {
			// The one time the key is shown: it is what the user logs in with.
			fmt.Fprintf(stdout, "demo admin key (also in %s): %s\n", keyPath, key)
		} else {
			fmt.Fprintf(stdout, "demo admin key: see %s\n", keyPath)
		}
	}
	if storage.database == "" {
		storage.database = cfg.Storage.Database
	}
	if storage.objects == "" {
		storage.objects = cfg.Storage.Objects
	}
	if storage.database != "" && storage.objects == "" {
		return apiserver.ErrNeedsObjectStore
	}
	if storage.objects != "" {
		if _, err := objstore.ParseURL(storage.objects); err != nil {
			return fmt.Errorf("%w: --object-store: %w", errBadStorage, err)
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	defer ln.Close()
	base := "http://" + ln.Addr().String()
	if publicURL == "" {
		publicURL = base
	}
	opts := apiserver.Options{
		Config: cfg, DataDir: dataDir, PublicURL: publicURL, BundleLinkTTL: ttl, Logger: log,
		ControlToken: serve.controlToken, JournalSize: serve.journalSize, Strict: serve.strict,
	}
	if storage.database != "" {
		// Taken over by New, which closes it with the server.
		if opts.Jobs, err = pgstore.Open(ctx, storage.database); err != nil {
			return fmt.Errorf("apiserver: %w", err)
		}
	}
	if storage.objects != "" {
		opts.Bundles = bucket.Opener(storage.objects, objstore.Options{})
	}
	srv, err := apiserver.New(ctx, opts)
	if err != nil {
		return err
	}
	// Close stops the export workers and closes the store, releasing the
	// data dir for the next server.
	defer func() {
		if cerr := srv.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close: %w", cerr)
		}
	}()
	fmt.Fprintf(stdout, "listening on %s\n", base)
	log.Info("serving", "addr", base, "data_dir", dataDir, "bundle_link_ttl", srv.BundleLinkTTL(),
		"database", storage.database != "", "object_store", storage.objects != "", "control_plane", srv.ControlPlane())
	return cli.Serve(ctx, ln, srv.Handler(), func() {
		log.Info("shutting down")
		srv.Drain() // readyz fails from here on
	})
}

// demoKey reads the demo admin key from the data dir, generating it on the
// first start so restarts keep the same key.
func demoKey(dataDir string) (key string, created bool, err error) {
	path := filepath.Join(dataDir, adminKeyFile)
	b, err := os.ReadFile(path)
	if err == nil {
		return strings.TrimSpace(string(b)), false, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return "", false, fmt.Errorf("read admin key: %w", err)
	}
	secret, err := linksign.RandomHex(rand.Reader, 20)
	if err != nil {
		return "", false, fmt.Errorf("generate admin key: %w", err)
	}
	key = api.DefaultKeyPrefix + "_" + secret
	if err := fsutil.WriteFileAtomic(path, []byte(key+"\n"), 0o600); err != nil {
		return "", false, fmt.Errorf("write admin key: %w", err)
	}
	return key, true, nil
}

func defaultDataDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "docsadmin", "apiserver")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "state", "docsadmin", "apiserver")
	}
	return ".docsadmin-apiserver"
}
