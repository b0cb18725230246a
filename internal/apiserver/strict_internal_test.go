package apiserver

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// Where an operation documents no status that fits an error (reading an
// export on a failing store), a strict server closes the connection
// rather than answer a status the reference does not list; by default it
// is the 500.
func TestStrictError_closesWhenNothingFits(t *testing.T) {
	for _, strict := range []bool{false, true} {
		s := &Server{strict: strict, log: hclog.NewNullLogger()}
		mux := http.NewServeMux()
		mux.HandleFunc(http.MethodGet+" "+api.PathExportJob, func(w http.ResponseWriter, r *http.Request) {
			s.serveError(w, r, errors.New("load export job: the store failed"))
		})
		srv := httptest.NewServer(mux)
		resp, err := http.Get(srv.URL + "/v1/static-export/jobs/se_0123456789abcdef")
		switch {
		case strict && err == nil:
			resp.Body.Close()
			t.Errorf("strict: answered %d, want the connection closed", resp.StatusCode)
		case !strict && err != nil:
			t.Errorf("default: %v, want a 500", err)
		case !strict:
			resp.Body.Close()
			if resp.StatusCode != http.StatusInternalServerError {
				t.Errorf("default: %d, want 500", resp.StatusCode)
			}
		}
		srv.Close()
	}
}
