package jobstore

import (
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func newExport(id, org string, at time.Time) *ExportJob {
	return &ExportJob{JobID: id, OrgID: org, Domain: "docs.acme.test", Status: api.ExportQueued, CreatedAt: at, UpdatedAt: at}
}
