package rolloutcmd

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are the renewer's Prometheus metrics, one series per release
// (labels namespace and release: names a cluster's users see anyway, never
// a link, a key or a job id).
type Metrics struct {
	reg         *prometheus.Registry
	expiry      *prometheus.GaugeVec
	lastSuccess *prometheus.GaugeVec
	failures    *prometheus.CounterVec
	attention   *prometheus.GaugeVec
	drift       *prometheus.GaugeVec
}

// NewMetrics returns the renewer's metrics on a registry of their own.
func NewMetrics() *Metrics {
	labels := []string{"namespace", "release"}
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		expiry: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "docsadmin_renewer_link_expiry_timestamp_seconds",
			Help: "When the bundle link the release carries expires (Unix time). Alert on this minus time().",
		}, labels),
		lastSuccess: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "docsadmin_renewer_last_success_timestamp_seconds",
			Help: "When the release was last seen carrying a live link, renewed or not (Unix time).",
		}, labels),
		failures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "docsadmin_renewer_failures_total",
			Help: "Renewal attempts that failed (export, link, upgrade or cluster errors).",
		}, labels),
		attention: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "docsadmin_renewer_needs_attention",
			Help: "1 while the renewer has stopped retrying the release and waits for a person (rollout --retry, or changed inputs).",
		}, labels),
		drift: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Name: "docsadmin_renewer_drifted_fields",
			Help: "Fields (or whole objects) of the release's objects that differ from the release at the last check (--drift warn or correct).",
		}, labels),
	}
	m.reg.MustRegister(m.expiry, m.lastSuccess, m.failures, m.attention, m.drift,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler { return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}) }

// The recorders below accept a nil *Metrics, so a Runner without metrics
// (one-off runs, tests) needs no checks at its call sites.

func (m *Metrics) renewed(ns, release string, expires, now time.Time) {
	if m == nil {
		return
	}
	m.expiry.WithLabelValues(ns, release).Set(float64(expires.Unix()))
	m.lastSuccess.WithLabelValues(ns, release).Set(float64(now.Unix()))
	m.attention.WithLabelValues(ns, release).Set(0)
	m.failures.WithLabelValues(ns, release) // the series exists at 0
}

func (m *Metrics) failed(ns, release string) {
	if m == nil {
		return
	}
	m.failures.WithLabelValues(ns, release).Inc()
}

func (m *Metrics) needsAttention(ns, release string, on bool) {
	if m == nil {
		return
	}
	v := 0.0
	if on {
		v = 1
	}
	m.attention.WithLabelValues(ns, release).Set(v)
}

func (m *Metrics) drifted(ns, release string, n int) {
	if m == nil {
		return
	}
	m.drift.WithLabelValues(ns, release).Set(float64(n))
}

// forget drops a release's series once it has left the fleet, so an alert
// on its expiry does not fire for a release nobody renews on purpose.
func (m *Metrics) forget(ns, release string) {
	if m == nil {
		return
	}
	for _, v := range []interface {
		DeleteLabelValues(...string) bool
	}{m.expiry, m.lastSuccess, m.failures, m.attention, m.drift} {
		v.DeleteLabelValues(ns, release)
	}
}
