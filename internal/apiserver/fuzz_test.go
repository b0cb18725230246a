package apiserver_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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

// FuzzHandler varies method, path and authorization as well.
func FuzzHandler(f *testing.F) {
	f.Add("GET", "/v1/static-export/jobs/se_0123456789abcdef", "Bearer dak_x", []byte(nil))
	f.Add("POST", "/v1/static-export/jobs/se_0123456789abcdef/bundle", "", []byte("{}"))
	f.Add("GET", "/bundles/se_0123456789abcdef/bundle.tar.gz?expires=1&signature=zz", "", []byte(nil))
	f.Add("PATCH", "/v2/agent/%2e%2e/job/%00", "Bearer", []byte("x"))
	env := apiservertest.Start(f)
	h := env.Server.Handler()
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
	if rec.Code >= 500 {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	if rec.Code >= 400 && !strings.HasPrefix(rec.Body.String(), `{"error":`) {
		t.Fatalf("status %d without a JSON error: %q", rec.Code, rec.Body)
	}
}
