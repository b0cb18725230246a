package apiserver_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
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
			if code := apiserver.Command(context.Background(), args, &out, &errs); code != cli.ExitUsage || !strings.Contains(errs.String(), tc.want) {
				t.Fatalf("exit %d, stderr %q; want 2 saying %q", code, errs.String(), tc.want)
			}
			if out.Len() != 0 {
				t.Fatalf("stdout %q: the server should not have started", out.String())
			}
		})
	}
}
