package apiserver_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// An error repeats at most api.MaxEcho bytes of what the client sent,
// marked "…": a near-1 MiB domain, field name or path gets a short 400
// that still says what is wrong.
func TestStartExport_hugeInputIsNotEchoed(t *testing.T) {
	env := apiservertest.Start(t)
	exports := env.URL + "/v1/static-export/jobs"
	big := strings.Repeat("a", api.MaxRequestBodyBytes-100)
	for _, tc := range []struct {
		name, body, want string
	}{
		{"domain", `{"domain": "` + big + `"}`, "is not a valid hostname"},
		{"domain with a path", `{"domain": "` + big + `/x"}`, "without a path"},
		{"unknown field", `{"domain": "docs.acme.test", "` + big + `": 1}`, "unknown field"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := call(t, http.MethodPost, exports, env.Key, tc.body)
			msg := r.errorMessage(t)
			if r.status != http.StatusBadRequest || !strings.Contains(msg, tc.want) {
				t.Fatalf("%d %.300q; want 400 saying %q", r.status, msg, tc.want)
			}
			if len(r.body) > 2*api.MaxEcho+200 || strings.Contains(msg, big[:api.MaxEcho+1]) {
				t.Fatalf("the error repeats %d bytes of input: %.300q", len(r.body), msg)
			}
		})
	}
	r := call(t, http.MethodPost, exports, env.Key, `{"domain": "`+big+`"}`)
	if msg := r.errorMessage(t); !strings.Contains(msg, strings.Repeat("a", api.MaxEcho)+"…") {
		t.Fatalf("no mark where the input was cut: %.300q", msg)
	}
	r = call(t, http.MethodGet, env.URL+"/v1/"+strings.Repeat("p", 8<<10), env.Key, nil)
	if msg := r.errorMessage(t); r.status != http.StatusNotFound || len(msg) > 2*api.MaxEcho {
		t.Fatalf("unknown 8 KiB path: %d, %d bytes of message", r.status, len(msg))
	}
}

func TestClip(t *testing.T) {
	if got := api.Clip("short"); got != "short" {
		t.Fatalf("short input changed: %q", got)
	}
	// A cut never splits a character: "é" is two bytes, the cut falls
	// inside the 101st.
	long := strings.Repeat("é", 150)
	got := api.Clip(long)
	if got != strings.Repeat("é", 100)+"…" {
		t.Fatalf("clip of 300 bytes of é: %q (%d bytes)", got, len(got))
	}
}

// A failed export whose cause is a file operation on the server tells the
// client what failed and why, without the server's data-dir path; the log
// keeps the path for the operator.
func TestExport_failureHidesDataDir(t *testing.T) {
	log := &testutil.SyncBuffer{}
	env := apiservertest.Start(t, apiservertest.WithLogger(hclog.New(&hclog.LoggerOptions{Output: log})))
	// The exports directory turns into a file: every render fails on
	// creating its directory, as it would on a broken or full disk.
	exports := filepath.Join(env.DataDir, "exports")
	if err := os.RemoveAll(exports); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exports, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	job := env.WaitExport(t, env.StartExport(t, api.StartExportRequest{Domain: env.Domain}).JobID)
	if job.Status != api.ExportFailed {
		t.Fatalf("export ended %s", job.Status)
	}
	if job.Error == "" || strings.Contains(job.Error, env.DataDir) || !strings.Contains(job.Error, "not a directory") {
		t.Fatalf("error %q: want the cause without %s", job.Error, env.DataDir)
	}
	r := call(t, http.MethodPost, env.URL+"/v1/static-export/jobs/"+job.JobID+"/bundle", env.Key, nil)
	if msg := r.errorMessage(t); r.status != http.StatusConflict || strings.Contains(msg, env.DataDir) {
		t.Fatalf("bundle of the failed job: %d %q", r.status, msg)
	}
	if !strings.Contains(log.String(), exports) {
		t.Fatalf("the log lost the path:\n%s", log.String())
	}
}
