package apiserver_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

// BenchmarkScaleOutPaired measures BenchmarkScaleOut's goals of issue 25
// with the cases interleaved: the embedded store, postgres+s3 with one
// replica and with two run side by side, and each iteration runs one
// batch of 20 demo-site exports on each, in an order that rotates. On a
// machine other builds load, BenchmarkScaleOut's cases run some ten
// seconds apart under loads that differ by half; here every case sees
// the same load, so the ratios (x-embedded, two-vs-one) hold what the
// backends do rather than when they ran. Each batch's exports are
// checked to have been rendered exactly once.
func BenchmarkScaleOutPaired(b *testing.B) {
	rate := pairedRates(b, "", 20, []scaleCase{
		{"embedded-1", false, false, 1}, {"postgres+s3-1", true, true, 1}, {"postgres+s3-2", true, true, 2},
	})
	b.ReportMetric(rate[1]/rate[0], "s3-1-x-embedded")
	b.ReportMetric(rate[2]/rate[1], "s3-2-x-s3-1")
	goal(b, "postgres+s3, one replica, exports/s against embedded (interleaved)", rate[1]/rate[0], goalObjectsVsEmbedded)
	goal(b, fmt.Sprintf("postgres+s3, two replicas against one (interleaved, %d batches each)", b.N), rate[2]/rate[1], goalTwoVsOne)
}

// BenchmarkScaleOutLargePaired is BenchmarkScaleOutLarge's throughput
// goal measured as BenchmarkScaleOutPaired measures the small site's: a
// batch of two 2,000-page exports on the embedded store and on
// postgres+s3 with one replica in turn.
func BenchmarkScaleOutLargePaired(b *testing.B) {
	dir := b.TempDir()
	writeLargeSite(b, dir, largePages)
	rate := pairedRates(b, dir, 2, []scaleCase{{"embedded-1", false, false, 1}, {"postgres+s3-1", true, true, 1}})
	b.ReportMetric(rate[1]/rate[0], "s3-1-x-embedded")
	goal(b, fmt.Sprintf("postgres+s3, one replica, %d-page exports/s against embedded (interleaved)", largePages),
		rate[1]/rate[0], goalObjectsVsEmbedded)
}

// pairedRates starts every case (on the site in dir, or the demo site
// when dir is empty), runs b.N batches of batch exports on each in a
// rotating order, and returns each case's exports per second.
func pairedRates(b *testing.B, dir string, batch int, cases []scaleCase) []float64 {
	const largeDomain = "large.acme.test"
	runs := make([]*scaleRun, len(cases))
	for i, tc := range cases {
		if dir == "" {
			runs[i] = startScale(b, tc)
			continue
		}
		runs[i] = startScale(b, tc, apiservertest.WithDeployment(largeDomain, dir))
		runs[i].timeout = 20 * time.Minute
	}
	took := make([]time.Duration, len(cases))
	b.ResetTimer()
	for n := range b.N {
		for k := range cases {
			i := (n + k) % len(cases)
			domain := runs[i].env.Domain
			if dir != "" {
				domain = largeDomain
			}
			start := time.Now()
			ids := runs[i].exportBatch(b, domain, batch)
			took[i] += time.Since(start)
			runs[i].checkRenderedOnce(b, ids)
		}
	}
	b.StopTimer()
	rate := make([]float64, len(cases))
	for i, tc := range cases {
		rate[i] = float64(b.N*batch) / took[i].Seconds()
		b.ReportMetric(rate[i], tc.name+"-exports-per-s")
	}
	return rate
}
