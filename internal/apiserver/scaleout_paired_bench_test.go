package apiserver_test

import (
	"fmt"
	"testing"
	"time"
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
	cases := []scaleCase{
		{"embedded-1", false, false, 1}, {"postgres+s3-1", true, true, 1}, {"postgres+s3-2", true, true, 2},
	}
	runs := make([]*scaleRun, len(cases))
	for i, tc := range cases {
		runs[i] = startScale(b, tc)
	}
	const batch = 20
	took := make([]time.Duration, len(cases))
	b.ResetTimer()
	for n := range b.N {
		for k := range cases {
			i := (n + k) % len(cases)
			start := time.Now()
			ids := runs[i].exportBatch(b, runs[i].env.Domain, batch)
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
	b.ReportMetric(rate[1]/rate[0], "s3-1-x-embedded")
	b.ReportMetric(rate[2]/rate[1], "s3-2-x-s3-1")
	goal(b, "postgres+s3, one replica, exports/s against embedded (interleaved)", rate[1]/rate[0], goalObjectsVsEmbedded)
	goal(b, fmt.Sprintf("postgres+s3, two replicas against one (interleaved, %d batches each)", b.N), rate[2]/rate[1], goalTwoVsOne)
}
