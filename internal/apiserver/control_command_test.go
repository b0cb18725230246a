package apiserver_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiservercmd"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/cli"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// runCommand runs `apiserver args...` until the test ends and returns its
// base URL and admin key, and the server's log so far.
func runCommand(t *testing.T, args ...string) (base, key string, logs func() string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var (
		mu   sync.Mutex
		errs bytes.Buffer
		done = make(chan int, 1)
	)
	dataDir := filepath.Join(t.TempDir(), "data")
	go func() {
		code := apiservercmd.Command(ctx, append([]string{"--addr", "127.0.0.1:0", "--data-dir", dataDir, "--log-level", "debug"}, args...),
			pw, writerFunc(func(b []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return errs.Write(b) }))
		pw.Close()
		done <- code
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != cli.ExitOK {
			t.Errorf("apiserver exited %d", code)
		}
	})
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		line := sc.Text()
		if k, ok := strings.CutPrefix(line, "demo admin key (also in "); ok {
			key = k[strings.LastIndex(k, " ")+1:]
		}
		if u, ok := strings.CutPrefix(line, "listening on "); ok {
			base = u
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if base == "" || key == "" {
		t.Fatalf("apiserver did not start: %s", errs.String())
	}
	return base, key, func() string { mu.Lock(); defer mu.Unlock(); return errs.String() }
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

// TestCommand_controlTokenFromEnvironmentAndStrict: the token comes from
// DOCSADMIN_CONTROL_TOKEN, is never logged, and --strict leaves version
// out of the export status.
func TestCommand_controlTokenFromEnvironmentAndStrict(t *testing.T) {
	t.Setenv(apiservercmd.EnvControlToken, testControlToken)
	base, key, logs := runCommand(t, "--strict")
	if r := call(t, http.MethodGet, base+api.PathControlClock, testControlToken, nil); r.status != 200 {
		t.Fatalf("control plane: %d %s", r.status, r.body)
	}
	var j api.ExportJob
	call(t, http.MethodPost, base+api.PathExportJobs, key, map[string]string{"domain": apiserver.DemoDomain}).decode(t, &j)
	var raw reply
	testutil.Eventually(t, time.Minute, "the demo export", func() bool {
		raw = call(t, http.MethodGet, base+fill(api.PathExportJob, "jobId", j.JobID), key, nil)
		raw.decode(t, &j)
		return j.Status == api.ExportCompleted
	})
	if strings.Contains(string(raw.body), `"version"`) {
		t.Errorf("--strict answered a field the real service does not document: %s", raw.body)
	}
	if l := logs(); strings.Contains(l, testControlToken) || strings.Contains(l, key) {
		t.Errorf("the log holds a secret:\n%s", l)
	}
}

func TestCommand_noControlTokenNoControlPlane(t *testing.T) {
	t.Setenv(apiservercmd.EnvControlToken, "")
	base, _, _ := runCommand(t)
	if r := call(t, http.MethodGet, base+api.PathControlClock, testControlToken, nil); r.status != 404 {
		t.Fatalf("control plane without a token: %d", r.status)
	}
}

// TestCommand_journalSize: --journal-size bounds the journal.
func TestCommand_journalSize(t *testing.T) {
	t.Setenv(apiservercmd.EnvControlToken, testControlToken)
	base, _, _ := runCommand(t, "--journal-size", "2")
	for range 3 {
		call(t, http.MethodGet, base+"/healthz", "", nil)
	}
	var j api.ControlJournal
	call(t, http.MethodGet, base+api.PathControlRequests, testControlToken, nil).decode(t, &j)
	if len(j.Requests) != 2 || j.Size != 2 || j.Dropped != 1 {
		t.Errorf("--journal-size 2 after 3 requests: %d requests, size %d, dropped %d", len(j.Requests), j.Size, j.Dropped)
	}
}
