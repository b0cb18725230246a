// Package importcheck is another project's suite in miniature: a module of
// its own that imports docsadmintest through a replace directive, proving
// the package is importable from outside this module (`make test` runs it).
package importcheck

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/docsadmintest"
)

func TestImport_startExportUnderFault(t *testing.T) {
	srv := docsadmintest.New(t)
	if _, err := srv.Control.Fail(t.Context(), docsadmintest.Fault{Path: "/v1/static-export/jobs", Status: 503, Times: 1}); err != nil {
		t.Fatal(err)
	}
	start := func() int {
		body, _ := json.Marshal(map[string]string{"domain": docsadmintest.Domain})
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL+"/v1/static-export/jobs", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+srv.AdminKey)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := start(); got != http.StatusServiceUnavailable {
		t.Fatalf("first start: %d, want the injected 503", got)
	}
	if got := start(); got != http.StatusAccepted {
		t.Fatalf("retried start: %d, want 202", got)
	}
	reqs, err := srv.Control.Journal(t.Context(), docsadmintest.JournalFilter{Method: "POST"})
	if err != nil || len(reqs) != 2 {
		t.Fatalf("journal: %v %v", reqs, err)
	}
	srv.Control.VerifySequence(t, docsadmintest.Match{Method: "POST", Path: "/v1/static-export/jobs"},
		docsadmintest.Match{Status: 503}, docsadmintest.Match{Status: 202})
	srv.Control.VerifyNoUnmatched(t)
}
