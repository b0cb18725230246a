package apiserver_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

// FuzzDecodeStartExport throws arbitrary bodies at the two endpoints that
// decode JSON. Whatever arrives, the answer is a 4xx or a success with a
// JSON body, never a 5xx or a panic.
func FuzzDecodeStartExport(f *testing.F) {
	for _, s := range []string{
		`{"domain": "docs.acme.test"}`,
		`{"domain": "docs.acme.test", "version": "v1", "paths": ["index", "quickstart"]}`,
		`{"domain": "DOCS.ACME.TEST", "paths": ["../x", "/y", "a//b"]}`,
		`{"prompt": "hello"}`, `{"prompt": null}`, `[]`, `null`, `"x"`, `{"domain": 1e999}`,
		`{"paths": [null, 1, {}]}`, "{\"domain\": \"\u0000\"}", `{"domain":"a"}{}`,
		`{"domain": "docs.acme.test", "DOMAIN": "x"}`, `{"prompt": "a", "prompt": {"x": 1, "x": 2}}`,
	} {
		f.Add([]byte(s))
	}
	env := apiservertest.Start(f)
	h := env.Server.Handler()
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, path := range []string{"/v1/static-export/jobs", "/v2/agent/" + env.ProjectID + "/job"} {
			req := httptest.NewRequest("POST", path, bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+env.Key)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			checkAnswer(t, rec)
		}
	})
}

// FuzzHandler varies method, path and authorization as well. The
// authorization "key" stands for the environment's valid key, which the
// fuzzer could never guess: the seeds that carry it, on a real completed job
// and its real link, are what lead it past the 401 into every handler.
func FuzzHandler(f *testing.F) {
	f.Add("GET", "/v1/static-export/jobs/se_0123456789abcdef", "Bearer dak_x", []byte(nil))
	f.Add("POST", "/v1/static-export/jobs/se_0123456789abcdef/bundle", "", []byte("{}"))
	f.Add("GET", "/bundles/se_0123456789abcdef/bundle.tar.gz?expires=1&signature=zz", "", []byte(nil))
	f.Add("PATCH", "/v2/agent/%2e%2e/job/%00", "Bearer", []byte("x"))
	env := apiservertest.Start(f)
	h := env.Server.Handler()
	job := env.StartExportAndWait(f, api.StartExportRequest{Domain: env.Domain})
	link, err := url.Parse(env.Bundle(f, job.JobID).BundleURL)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []struct {
		method, path string
		body         string
	}{
		{"GET", "/v1/static-export/jobs/" + job.JobID, ""},
		{"POST", "/v1/static-export/jobs/" + job.JobID + "/bundle", ""},
		{"POST", "/v1/static-export/jobs", `{"domain": "docs.acme.test", "version": "v1", "paths": ["index"]}`},
		{"POST", "/v1/static-export/jobs", `{"domain": "docs.other.test"}`}, // another organization's
		{"POST", "/v2/agent/" + env.ProjectID + "/job", `{"prompt": "Document bundles"}`},
		{"GET", "/v2/agent/" + env.ProjectID + "/job/aj_0123456789abcdef", ""},
		{"DELETE", "/v1/static-export/jobs/" + job.JobID, ""},
		{"GET", "/openapi.json", ""},
		{"GET", "/readyz", ""},
	} {
		f.Add(s.method, s.path, "key", []byte(s.body))
	}
	f.Add("GET", link.RequestURI(), "", []byte(nil)) // a valid download
	f.Fuzz(func(t *testing.T, method, path, auth string, body []byte) {
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		req, err := http.NewRequest(method, "http://x"+path, bytes.NewReader(body))
		if err != nil {
			return // not a request a client could send
		}
		if auth == "key" {
			auth = "Bearer " + env.Key
		}
		req.Header.Set("Authorization", auth)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		checkAnswer(t, rec)
	})
}

func checkAnswer(t *testing.T, rec *httptest.ResponseRecorder) {
	t.Helper()
	// 507 is documented: an organization that stores the most exports
	// allowed (a long fuzz run starts many).
	if rec.Code >= 500 && rec.Code != http.StatusInsufficientStorage {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	if rec.Code >= 400 && !strings.HasPrefix(rec.Body.String(), `{"error":`) {
		t.Fatalf("status %d without a JSON error: %q", rec.Code, rec.Body)
	}
}
