package testutil

import (
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Metrics is one scrape of a /metrics endpoint, parsed as Prometheus does.
type Metrics struct {
	// Body is the text as served, for checks that nothing secret is in it.
	Body     string
	families map[string]*dto.MetricFamily
}

// Scrape GETs url, checks that it answers 200 in the Prometheus text format
// and parses it; a body Prometheus could not parse fails the test.
func Scrape(t testing.TB, url string) Metrics {
	t.Helper()
	resp, err := http.Get(url) //nolint:gosec // tests scrape their own servers on 127.0.0.1
	if err != nil {
		t.Fatalf("scrape %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("scrape %s: %v", url, err)
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("scrape %s: %d %s\n%s", url, resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	p := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("scrape %s: not the Prometheus text format: %v\n%s", url, err, body)
	}
	return Metrics{Body: string(body), families: fams}
}

// Value returns the value of the series name with exactly the label pairs
// given ("status", "completed", ...): a counter's or gauge's value, a
// histogram's sample count. ok is false when there is no such series.
func (m Metrics) Value(name string, labels ...string) (v float64, ok bool) {
	s := m.series(name, labels...)
	switch {
	case s == nil:
		return 0, false
	case s.Counter != nil:
		return s.GetCounter().GetValue(), true
	case s.Gauge != nil:
		return s.GetGauge().GetValue(), true
	case s.Histogram != nil:
		return float64(s.GetHistogram().GetSampleCount()), true
	case s.Untyped != nil:
		return s.GetUntyped().GetValue(), true
	}
	return 0, false
}

// HistogramSum is the sum of the observations of histogram name with the
// given label pairs, and whether that series exists.
func (m Metrics) HistogramSum(name string, labels ...string) (float64, bool) {
	s := m.series(name, labels...)
	if s == nil || s.Histogram == nil {
		return 0, false
	}
	return s.GetHistogram().GetSampleSum(), true
}

// series finds the series name with exactly the label pairs given, nil
// when there is none.
func (m Metrics) series(name string, labels ...string) *dto.Metric {
	f := m.families[name]
	if f == nil {
		return nil
	}
	want := labelKey(labels...)
	for _, s := range f.GetMetric() {
		var kv []string
		for _, l := range s.GetLabel() {
			kv = append(kv, l.GetName(), l.GetValue())
		}
		if labelKey(kv...) == want {
			return s
		}
	}
	return nil
}

// Must is Value that fails the test when the series is missing.
func (m Metrics) Must(t testing.TB, name string, labels ...string) float64 {
	t.Helper()
	v, ok := m.Value(name, labels...)
	if !ok {
		t.Fatalf("no series %s{%s} in the scrape:\n%s", name, labelKey(labels...), m.Body)
	}
	return v
}

// labelKey is a canonical form of label pairs, in name order.
func labelKey(kv ...string) string {
	pairs := make([]string, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		pairs = append(pairs, fmt.Sprintf("%s=%q", kv[i], kv[i+1]))
	}
	sort.Strings(pairs)
	return strings.Join(pairs, ",")
}
