package apiserver_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/httpapi"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
)

// BenchmarkStatusRead_handler serves one completed export's status
// through the server's handler in-process, without a network, so its
// ns/op, allocs/op and a -cpuprofile show the server's own work per
// status read apart from the kernel's. Answers go to an
// httpapi.DiscardWriter (a fresh header map per answer, the body
// dropped, as net/http's own writer costs a handler), not an
// httptest.ResponseRecorder, whose copies of the headers would be a third
// of the allocations measured.
func BenchmarkStatusRead_handler(b *testing.B) {
	for _, tc := range []struct {
		name     string
		postgres bool
	}{{"embedded", false}, {"postgres", true}} {
		b.Run(tc.name, func(b *testing.B) {
			db := apiservertest.WithDatabase("")
			if tc.postgres {
				db = apiservertest.WithDatabase(pgtest.DB(b))
			}
			env := apiservertest.Start(b, db)
			job := env.StartExportAndWait(b, api.StartExportRequest{Domain: env.Domain})
			h := env.Server.Handler()
			req := httptest.NewRequest(http.MethodGet, api.PathExportJobs+"/"+job.JobID, nil)
			req.Header.Set("Authorization", "Bearer "+env.Key)
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					w := httpapi.NewDiscardWriter()
					h.ServeHTTP(w, req)
					if w.Status() != http.StatusOK {
						b.Errorf("status %d", w.Status())
						return
					}
				}
			})
		})
	}
}
