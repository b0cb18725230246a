package apiservercmd_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiservercmd"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/cli"
)

// TestCommand_badLogLevelIsUsage: a level that does not exist, given as the
// flag or in the environment, stops the server before it touches its data
// dir, with exit 2 and the reason on stderr.
func TestCommand_badLogLevelIsUsage(t *testing.T) {
	for _, tc := range []struct {
		name, env, want string
		args            []string
	}{
		{name: "flag", args: []string{"--log-level", "loud"}, want: `invalid value "loud" for flag -log-level`},
		{name: "environment", env: "loud", want: cli.EnvLogLevel + `: unknown log level "loud"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(cli.EnvLogLevel, tc.env)
			dataDir := filepath.Join(t.TempDir(), "data")
			args := append([]string{"--addr", "127.0.0.1:0", "--data-dir", dataDir}, tc.args...)
			var out, errs bytes.Buffer
			if code := apiservercmd.Command(context.Background(), args, &out, &errs); code != cli.ExitUsage || !strings.Contains(errs.String(), tc.want) {
				t.Fatalf("exit %d, stderr %q; want 2 saying %q", code, errs.String(), tc.want)
			}
			if out.Len() != 0 {
				t.Fatalf("stdout %q: the server should not have started", out.String())
			}
		})
	}
}

// A database given by flag, environment or config file is refused at
// start, with the reason, while sites are local files: replicas sharing
// the database would not see each other's exports.
func TestCommand_databaseNeedsObjectStore(t *testing.T) {
	const url = "postgres://docs:pw-not-shown@127.0.0.1:1/docs"
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "config.yaml")
	cfg := "storage: {database: " + url + "}\norganizations: [{id: acme, plan: enterprise, apiKeys: [dak_0123456789abcdef0123456789abcdef]}]\n"
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, env string
		args      []string
	}{
		{name: "flag", args: []string{"--database-url", url}},
		{name: "environment", env: url},
		{name: "config file", args: []string{"--config", cfgPath}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(apiservercmd.EnvDatabaseURL, tc.env)
			args := append([]string{"--addr", "127.0.0.1:0", "--data-dir", filepath.Join(t.TempDir(), "data")}, tc.args...)
			var out, errs bytes.Buffer
			code := apiservercmd.Command(context.Background(), args, &out, &errs)
			msg := errs.String()
			if code != cli.ExitUsage || !strings.Contains(msg, "needs an object store") || !strings.Contains(msg, "each replica would only see") ||
				!strings.Contains(msg, apiservercmd.EnvObjectStore) {
				t.Fatalf("exit %d, stderr %q; want 2 saying why", code, msg)
			}
			if strings.Contains(msg, "pw-not-shown") || strings.Contains(out.String(), "listening") {
				t.Fatalf("stdout %q stderr %q: leaked the password or started", out.String(), msg)
			}
		})
	}
}
