package bundleserve

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/cli"
)

// TestCommand_usageErrors: a bad level (flag or environment), a stray
// argument and a missing link all exit 2 with the reason on stderr, before
// anything listens.
func TestCommand_usageErrors(t *testing.T) {
	for _, tc := range []struct {
		name, env, want string
		args            []string
	}{
		{name: "bad flag level", args: []string{"--bundle-url", "http://x/b", "--log-level", "loud"}, want: `invalid value "loud" for flag -log-level`},
		{name: "bad env level", env: "loud", args: []string{"--bundle-url", "http://x/b"}, want: cli.EnvLogLevel + `: unknown log level "loud"`},
		{name: "stray argument", args: []string{"--bundle-url", "http://x/b", "extra"}, want: `serve-bundle: unexpected argument "extra"`},
		{name: "no link", args: nil, want: "serve-bundle: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(cli.EnvLogLevel, tc.env)
			var out, errs bytes.Buffer
			args := append([]string{"--addr", "127.0.0.1:0", "--data-dir", t.TempDir()}, tc.args...)
			if code := Command(context.Background(), args, &out, &errs); code != cli.ExitUsage || !strings.Contains(errs.String(), tc.want) {
				t.Fatalf("exit %d, stderr %q; want 2 saying %q", code, errs.String(), tc.want)
			}
			if out.Len() != 0 {
				t.Fatalf("stdout %q: nothing should have started", out.String())
			}
		})
	}
}
