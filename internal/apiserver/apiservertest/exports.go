package apiservertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// ExportTimeout bounds the helpers' wait for an export. The demo site
// renders in well under a second; the margin is for a loaded CI machine and
// the larger generated sites some tests configure.
const ExportTimeout = 60 * time.Second

// The helpers below speak plain HTTP with the environment's Key rather than
// going through internal/client: the client's own tests use them to set the
// scene, and a bug in the client must not hide behind the helper.

// StartExport starts an export with e.Key and returns the accepted job,
// failing the test on any other answer.
func (e *Env) StartExport(t testing.TB, req api.StartExportRequest) api.ExportJob {
	t.Helper()
	var job api.ExportJob
	e.do(t, http.MethodPost, api.PathExportJobs, req, http.StatusAccepted, &job)
	return job
}

// WaitExport polls job id until it is completed or failed, and returns it.
func (e *Env) WaitExport(t testing.TB, id string) api.ExportJob {
	t.Helper()
	var job api.ExportJob
	testutil.Eventually(t, ExportTimeout, "export "+id+" to finish", func() bool {
		e.do(t, http.MethodGet, api.PathExportJobs+"/"+url.PathEscape(id), nil, http.StatusOK, &job)
		return api.ExportTerminal(job.Status)
	})
	return job
}

// StartExportAndWait starts an export and waits until it has completed,
// failing the test if it fails instead.
func (e *Env) StartExportAndWait(t testing.TB, req api.StartExportRequest) api.ExportJob {
	t.Helper()
	job := e.WaitExport(t, e.StartExport(t, req).JobID)
	if job.Status != api.ExportCompleted {
		t.Fatalf("apiservertest: export of %s ended %s: %s", req.Domain, job.Status, job.Error)
	}
	return job
}

// Bundle asks for a presigned link to a completed job's archive.
func (e *Env) Bundle(t testing.TB, jobID string) api.Bundle {
	t.Helper()
	var b api.Bundle
	e.do(t, http.MethodPost, api.PathExportJobs+"/"+url.PathEscape(jobID)+"/bundle", nil, http.StatusOK, &b)
	return b
}

// do sends one request to the server and decodes the answer into out.
func (e *Env) do(t testing.TB, method, path string, body any, want int, out any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, e.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+e.Key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("apiservertest: %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != want {
		err = fmt.Errorf("status %d, want %d: %s", resp.StatusCode, want, data)
	}
	if err == nil {
		err = json.Unmarshal(data, out)
	}
	if err != nil {
		t.Fatalf("apiservertest: %s %s: %v", method, path, err)
	}
}
