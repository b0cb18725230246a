package bundleserve

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are serve-bundle's Prometheus metrics. They are served on a
// listener of their own (--metrics-addr), not next to the site: a docs
// page may well be called /metrics, and the site's URL space is the
// bundle's. No label holds the link; the content version is a hash of the
// content, published in the site's own X-Bundle-Version header anyway.
type metrics struct {
	reg          *prometheus.Registry
	lastVerified prometheus.Gauge
	bytesServed  prometheus.Counter
	failures     prometheus.Counter
}

var servedDesc = prometheus.NewDesc("docsadmin_bundle_served_info",
	"The content version being served (1 while a verified site is served, absent before the first).",
	[]string{"version"}, nil)

func newMetrics(s *Server) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		lastVerified: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "docsadmin_bundle_last_verification_timestamp_seconds",
			Help: "When a bundle last downloaded and verified against its manifest (Unix time; 0: not yet).",
		}),
		bytesServed: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "docsadmin_bundle_served_bytes_total",
			Help: "Bytes of site files (pages, assets, the 404 page) written to clients.",
		}),
		failures: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "docsadmin_bundle_update_failures_total",
			Help: "Bundle updates that failed (download, verification, a refused pinned version); the old site kept serving.",
		}),
	}
	m.reg.MustRegister(m.lastVerified, m.bytesServed, m.failures, servedCollector{s},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// MetricsHandler serves the metrics in the Prometheus text format.
func (s *Server) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{})
}

// updated records the outcome of an Update that fetched.
func (m *metrics) updated(err error, now time.Time) {
	if err != nil {
		m.failures.Inc()
		return
	}
	m.lastVerified.Set(float64(now.Unix()))
}

// servedCollector reads the served version at scrape time.
type servedCollector struct{ s *Server }

func (c servedCollector) Describe(ch chan<- *prometheus.Desc) { ch <- servedDesc }

func (c servedCollector) Collect(ch chan<- prometheus.Metric) {
	if v := c.s.Version(); v != "" && c.s.serving() == nil {
		ch <- prometheus.MustNewConstMetric(servedDesc, prometheus.GaugeValue, 1, v)
	}
}

// countingWriter counts the body bytes written through it.
type countingWriter struct {
	http.ResponseWriter
	n int64
}

func (w *countingWriter) Write(p []byte) (int, error) {
	n, err := w.ResponseWriter.Write(p)
	w.n += int64(n)
	return n, err
}
