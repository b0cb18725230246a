package apimetrics

import (
	"context"
	"net/http"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
)

// Metrics are the server's Prometheus metrics, on a registry of its own so
// that two servers in one process (tests, replicas) never share counters.
// Labels carry only fixed words (a status, an operation, a result): never a
// job id, a domain, an organization or a link, which would leak and would
// grow without bound.
type Metrics struct {
	reg            *prometheus.Registry
	exportSeconds  *prometheus.HistogramVec
	archiveSeconds *prometheus.HistogramVec
	links          *prometheus.CounterVec
	storeErrors    *prometheus.CounterVec
	// claimed and claimedNothing are the two series of
	// docsadmin_export_claims_total, looked up once: a worker counts each
	// claim it makes.
	claimed, claimedNothing prometheus.Counter
}

// durationBuckets span a small site rendered in milliseconds to a large one
// taking minutes.
var durationBuckets = prometheus.ExponentialBuckets(0.05, 2.5, 12)

// Jobs is what the metrics read at scrape time: the store's export jobs.
// A store that also reports its connection pool (PoolStats, PostgreSQL)
// gets the pool's series too.
type Jobs interface {
	ExportJobs(ctx context.Context) ([]*jobstore.ExportJob, error)
}

// New registers the metrics; the job series are read from jobs at each
// scrape, and a failed read is logged to log and counted. ctx is the
// server's lifetime: a prometheus.Collector is not given the scrape's
// request, so a read in flight stops when the server shuts down.
func New(ctx context.Context, jobs Jobs, log hclog.Logger) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		exportSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "docsadmin_export_duration_seconds",
			Help:    "Time an export attempt took to render, by outcome (completed or failed).",
			Buckets: durationBuckets,
		}, []string{"status"}),
		archiveSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "docsadmin_archive_duration_seconds",
			Help:    "Time building a bundle archive took, by result (ok or error).",
			Buckets: durationBuckets,
		}, []string{"result"}),
		links: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsadmin_bundle_links_issued_total",
			Help: "Presigned bundle links handed out, by result (ok or error).",
		}, []string{"result"}),
		storeErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsadmin_store_errors_total",
			Help: "Job store operations that failed, by operation (request, complete, scrape).",
		}, []string{"op"}),
	}
	claims := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "docsadmin_export_claims_total",
		Help: "Claims export workers made, by result (job, or none: the claim found nothing to take, a round trip for nothing on PostgreSQL).",
	}, []string{"result"})
	m.claimed, m.claimedNothing = claims.WithLabelValues("job"), claims.WithLabelValues("none")
	// Pre-create the label values a dashboard expects, so a rate() over a
	// counter that has not moved yet is 0 rather than absent.
	for _, r := range []string{"ok", "error"} {
		m.links.WithLabelValues(r)
		m.archiveSeconds.WithLabelValues(r)
	}
	for _, op := range []string{"request", "complete", "scrape"} {
		m.storeErrors.WithLabelValues(op)
	}
	m.reg.MustRegister(m.exportSeconds, m.archiveSeconds, m.links, m.storeErrors, claims,
		&jobCollector{ctx: ctx, jobs: jobs, log: log, storeErrors: m.storeErrors.WithLabelValues("scrape")},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if p, ok := jobs.(pooled); ok {
		m.reg.MustRegister(poolCollector{p})
	}
	return m
}

// Handler answers scrapes.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// ExportFinished records one attempt's outcome and render time.
func (m *Metrics) ExportFinished(status string, d time.Duration) {
	m.exportSeconds.WithLabelValues(status).Observe(d.Seconds())
}

// ArchiveBuilt records one archive build.
func (m *Metrics) ArchiveBuilt(err error, d time.Duration) {
	m.archiveSeconds.WithLabelValues(result(err)).Observe(d.Seconds())
}

// LinkIssued counts one bundle link and returns err, so a handler can
// return through it.
func (m *Metrics) LinkIssued(err error) error {
	m.links.WithLabelValues(result(err)).Inc()
	return err
}

// Claimed counts a claim that the store answered: with a job or, when
// found is false, with nothing to take.
func (m *Metrics) Claimed(found bool) {
	if found {
		m.claimed.Inc()
		return
	}
	m.claimedNothing.Inc()
}

// StoreFailed counts a store write that failed during op.
func (m *Metrics) StoreFailed(op string) { m.storeErrors.WithLabelValues(op).Inc() }

func result(err error) string {
	if err != nil {
		return "error"
	}
	return "ok"
}

// exportStatuses are every status a job can have, so each series exists
// (at 0) from the first scrape.
var exportStatuses = []string{api.ExportQueued, api.ExportRunning, api.ExportCompleted, api.ExportFailed}

var (
	exportsDesc = prometheus.NewDesc("docsadmin_exports",
		"Export jobs in the store, by status.", []string{"status"}, nil)
	queueDesc = prometheus.NewDesc("docsadmin_export_queue_depth",
		"Export jobs waiting for a worker (status queued).", nil, nil)
)

// jobCollector reads the job counts from the store at scrape time rather
// than keeping gauges in step with every write: with replicas sharing a
// database, only the store knows what the others queued and finished.
type jobCollector struct {
	ctx         context.Context
	jobs        Jobs
	log         hclog.Logger
	storeErrors prometheus.Counter
}

func (c *jobCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- exportsDesc
	ch <- queueDesc
}

func (c *jobCollector) Collect(ch chan<- prometheus.Metric) {
	jobs, err := c.jobs.ExportJobs(c.ctx)
	if err != nil {
		// A scrape without the job series (the others stay) and a
		// counted error: the alert on store errors says why.
		c.storeErrors.Inc()
		c.log.Warn("metrics: list export jobs", "error", err)
		return
	}
	n := make(map[string]int, len(exportStatuses))
	for _, j := range jobs {
		n[j.Status]++
	}
	for _, st := range exportStatuses {
		ch <- prometheus.MustNewConstMetric(exportsDesc, prometheus.GaugeValue, float64(n[st]), st)
	}
	ch <- prometheus.MustNewConstMetric(queueDesc, prometheus.GaugeValue, float64(n[api.ExportQueued]))
}

// pooled is a store on a database connection pool (PostgreSQL).
type pooled interface{ PoolStats() jobstore.PoolStats }

var (
	poolAcquiresDesc = prometheus.NewDesc("docsadmin_db_pool_acquires_total",
		"Connections taken from the database pool: one per query or transaction, so the store's round trips.", nil, nil)
	poolWaitsDesc = prometheus.NewDesc("docsadmin_db_pool_waits_total",
		"Pool acquisitions that found every connection taken and waited.", nil, nil)
	poolAcquireSecondsDesc = prometheus.NewDesc("docsadmin_db_pool_acquire_seconds_total",
		"Time pool acquisitions took in all, most of it waiting for a connection.", nil, nil)
	poolConnsDesc = prometheus.NewDesc("docsadmin_db_pool_connections",
		"Database connections by state (in_use, idle).", []string{"state"}, nil)
	poolMaxDesc = prometheus.NewDesc("docsadmin_db_pool_max_connections",
		"The most connections the pool opens.", nil, nil)
	pollsFromMemoryDesc = prometheus.NewDesc("docsadmin_db_status_polls_from_memory_total",
		"Status polls answered from this replica's memory of job records, without a round trip.", nil, nil)
	changesHeardDesc = prometheus.NewDesc("docsadmin_db_job_changes_heard",
		"1 while the connection that hears job changes from the database listens and its heartbeat comes back; "+
			"0 while every status poll is a query.", nil, nil)
)

// poolCollector reads the database pool's figures at scrape time: whether
// requests wait for connections, and how many round trips they make.
type poolCollector struct{ p pooled }

func (c poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{poolAcquiresDesc, poolWaitsDesc, poolAcquireSecondsDesc, poolConnsDesc, poolMaxDesc,
		pollsFromMemoryDesc, changesHeardDesc} {
		ch <- d
	}
}

func (c poolCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.p.PoolStats()
	ch <- prometheus.MustNewConstMetric(poolAcquiresDesc, prometheus.CounterValue, float64(st.Acquires))
	ch <- prometheus.MustNewConstMetric(poolWaitsDesc, prometheus.CounterValue, float64(st.Waits))
	ch <- prometheus.MustNewConstMetric(poolAcquireSecondsDesc, prometheus.CounterValue, st.AcquireTime.Seconds())
	ch <- prometheus.MustNewConstMetric(poolConnsDesc, prometheus.GaugeValue, float64(st.InUse), "in_use")
	ch <- prometheus.MustNewConstMetric(poolConnsDesc, prometheus.GaugeValue, float64(st.Idle), "idle")
	ch <- prometheus.MustNewConstMetric(poolMaxDesc, prometheus.GaugeValue, float64(st.Max))
	ch <- prometheus.MustNewConstMetric(pollsFromMemoryDesc, prometheus.CounterValue, float64(st.PollsFromMemory))
	heard := 0.0
	if st.ChangesHeard {
		heard = 1
	}
	ch <- prometheus.MustNewConstMetric(changesHeardDesc, prometheus.GaugeValue, heard)
}
