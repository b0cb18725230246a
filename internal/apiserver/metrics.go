package apiserver

import (
	"net/http"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apimetrics"
)

// PathMetrics is where the server answers Prometheus scrapes. It is not in
// the OpenAPI description: it is for the cluster's monitoring, not for API
// clients, and like /healthz it needs no key.
const PathMetrics = "/metrics"

// metrics are the server's Prometheus metrics (internal/apiserver/apimetrics);
// these short names keep the handlers and workers that record into them as
// they read.
type metrics struct{ m *apimetrics.Metrics }

// newMetrics registers the server's metrics; the job series are read from
// its store at each scrape.
func newMetrics(s *Server) *metrics { return &metrics{apimetrics.New(s.store, s.log)} }

func (m *metrics) handler() http.Handler { return m.m.Handler() }

func (m *metrics) exportFinished(status string, d time.Duration) { m.m.ExportFinished(status, d) }

func (m *metrics) archiveBuilt(err error, d time.Duration) { m.m.ArchiveBuilt(err, d) }

func (m *metrics) linkIssued(err error) error { return m.m.LinkIssued(err) }

func (m *metrics) storeFailed(op string) { m.m.StoreFailed(op) }
