package apiservercmd_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiservercmd"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/cli"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/s3test"
)

// A bucket the server's credentials may read but not write: the start
// fails (exit 1) at the write check, naming the bucket, and prints none of
// the credentials (read-only ones from s3test.ReadOnlyCredentials).
func TestCommand_bucketWithoutWritePermission(t *testing.T) {
	b := s3test.Start(t)
	db := pgtest.DB(t)
	c := b.ReadOnlyCredentials(t)
	t.Setenv("AWS_ACCESS_KEY_ID", c.AccessKeyID)
	t.Setenv("AWS_SECRET_ACCESS_KEY", c.SecretAccessKey)
	t.Setenv("AWS_SESSION_TOKEN", c.SessionToken)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	args := []string{"--addr", "127.0.0.1:0", "--data-dir", filepath.Join(t.TempDir(), "data"),
		"--database-url", db, "--object-store", b.URL()}
	var stdout, stderr bytes.Buffer
	code := apiservercmd.Command(ctx, args, &stdout, &stderr)
	msg := stderr.String()
	if code != cli.ExitFailed {
		t.Fatalf("exit %d, want %d; stderr %q", code, cli.ExitFailed, msg)
	}
	if !strings.Contains(msg, "cannot write bucket "+b.Name) {
		t.Errorf("stderr %q does not say the bucket cannot be written", msg)
	}
	for _, secret := range []string{c.SecretAccessKey, c.SessionToken} {
		if strings.Contains(msg, secret) {
			t.Errorf("stderr leaks a credential: %q", msg)
		}
	}
	if strings.Contains(stdout.String(), "listening") {
		t.Fatalf("stdout %q: the server started", stdout.String())
	}
}
