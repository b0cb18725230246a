package apiserver_test

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiservercmd"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/cli"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/s3test"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// With a database and an object store the server starts as a process, is
// ready, exports the demo and hands out a link that MinIO itself serves.
func TestCommand_databaseAndObjectStoreStart(t *testing.T) {
	b := s3test.Start(t)
	db := pgtest.DB(t)
	b.SetEnv(t) // the child inherits the credentials
	dataDir := filepath.Join(t.TempDir(), "data")
	c := startChild(t, "--addr 127.0.0.1:0 --data-dir "+dataDir+" --database-url "+db+" --object-store "+b.URL())
	if r := call(t, "GET", c.url+api.PathReadyz, "", nil); r.status != http.StatusOK {
		t.Fatalf("readyz: %d %s", r.status, r.body)
	}
	key, err := os.ReadFile(filepath.Join(dataDir, "admin-key"))
	if err != nil {
		t.Fatal(err)
	}
	k := strings.TrimSpace(string(key))
	id := startOn(t, c.url, k, apiserver.DemoDomain)
	testutil.Eventually(t, time.Minute, "demo export completes", func() bool {
		return jobOn(t, c.url, k, id).Status == api.ExportCompleted
	})
	r := call(t, "POST", c.url+api.PathExportJobs+"/"+id+"/bundle", k, map[string]any{})
	if r.status != http.StatusOK {
		t.Fatalf("bundle: %d %s", r.status, r.body)
	}
	var bun api.Bundle
	r.decode(t, &bun)
	u, err := url.Parse(bun.BundleURL)
	if err != nil || u.Host != strings.TrimPrefix(b.Endpoint, "http://") || u.Query().Get("X-Amz-Signature") == "" {
		t.Fatalf("bundle link %q is not a presigned link of the store at %s", bun.BundleURL, b.Endpoint)
	}
	download(t, bun.BundleURL, bun.SizeBytes)
}

// Storage that cannot be used stops the start with a message that says
// which and why: exit 1 for an unreachable database or bucket, exit 2 for
// a setting that cannot be right.
func TestCommand_storageUnusableAtStart(t *testing.T) {
	b := s3test.Start(t)
	db := pgtest.DB(t)
	b.SetEnv(t)
	deadDB := "postgres://docs:pw-not-shown@127.0.0.1:1/docs?connect_timeout=2"
	deadBucket := "s3://" + b.Name + "?endpoint=http://127.0.0.1:1&path-style=true"
	for _, tc := range []struct {
		name     string
		args     []string
		env      map[string]string
		code     int
		want     []string
		wantNone string
	}{
		{name: "database unreachable", args: []string{"--database-url", deadDB, "--object-store", b.URL()},
			code: cli.ExitFailed, want: []string{"connect to database"}, wantNone: "pw-not-shown"},
		{name: "bucket unreachable", args: []string{"--database-url", db, "--object-store", deadBucket},
			code: cli.ExitFailed, want: []string{"object store unreachable", "127.0.0.1:1"}},
		{name: "bucket missing", env: map[string]string{apiservercmd.EnvObjectStore: strings.Replace(b.URL(), b.Name, "no-such-bucket-here", 1)},
			args: []string{"--database-url", db}, code: cli.ExitFailed, want: []string{"bucket does not exist"}},
		{name: "wrong secret", env: map[string]string{"AWS_SECRET_ACCESS_KEY": "wrong-secret-not-shown"},
			args: []string{"--object-store", b.URL()}, code: cli.ExitFailed, want: []string{"AWS_SECRET_ACCESS_KEY"}, wantNone: "wrong-secret-not-shown"},
		{name: "malformed object store URL", args: []string{"--database-url", db, "--object-store", "http://bucket"},
			code: cli.ExitUsage, want: []string{"--object-store"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			args := append([]string{"--addr", "127.0.0.1:0", "--data-dir", filepath.Join(t.TempDir(), "data")}, tc.args...)
			var out, errs bytes.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			code := apiservercmd.Command(ctx, args, &out, &errs)
			msg := errs.String()
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, tc.code, msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("stderr %q does not say %q", msg, w)
				}
			}
			if tc.wantNone != "" && strings.Contains(msg, tc.wantNone) {
				t.Errorf("stderr %q leaks %q", msg, tc.wantNone)
			}
			if strings.Contains(out.String(), "listening") {
				t.Fatalf("stdout %q: the server started", out.String())
			}
		})
	}
}
