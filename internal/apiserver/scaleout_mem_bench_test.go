package apiserver_test

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

// BenchmarkLargeSiteMemory exports one synthetic site of
// DOCSADMIN_BENCH_PAGES pages (2,000 unless set; 20,000 is the size
// issue 25 asks to fit in a 512 MiB container) on the embedded store and
// on postgres+s3, builds its archive, and reports the time of each and
// the server process's peak resident memory over both (peak-rss-MiB,
// VmHWM, reset before each case). Run one case per process (-bench
// 'BenchmarkLargeSiteMemory/postgres') so that nothing of another case
// is counted.
func BenchmarkLargeSiteMemory(b *testing.B) {
	pages := 2000
	if v := os.Getenv("DOCSADMIN_BENCH_PAGES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			b.Fatalf("DOCSADMIN_BENCH_PAGES=%q: want a number of pages", v)
		}
		pages = n
	}
	dir := b.TempDir()
	writeLargeSite(b, dir, pages)
	const domain = "large.acme.test"
	for _, tc := range []scaleCase{{"embedded", false, false, 1}, {"postgres+s3", true, true, 1}} {
		b.Run(fmt.Sprintf("%s-%d", tc.name, pages), func(b *testing.B) {
			run := startScale(b, tc, apiservertest.WithDeployment(domain, dir))
			run.timeout = time.Hour
			resetPeakRSS(b)
			var render, archive time.Duration
			for range b.N {
				start := time.Now()
				id := run.exportBatch(b, domain, 1)[0]
				render += time.Since(start)
				start = time.Now()
				run.bundle(b, id)
				archive += time.Since(start)
			}
			b.ReportMetric(render.Seconds()/float64(b.N), "export-s")
			b.ReportMetric(archive.Seconds()/float64(b.N), "archive-s")
			b.ReportMetric(peakRSSMiB(b), "peak-rss-MiB")
		})
	}
}

// resetPeakRSS sets the process's VmHWM back to its current RSS (Linux:
// writing 5 to clear_refs).
func resetPeakRSS(b *testing.B) {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Logf("peak RSS not reset, it covers the whole process: %v", err)
	}
}

func peakRSSMiB(b *testing.B) float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close() // read-only: Close cannot lose data
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				b.Fatal(err)
			}
			return float64(kb) / 1024
		}
	}
	b.Fatal("no VmHWM in /proc/self/status")
	return 0
}
