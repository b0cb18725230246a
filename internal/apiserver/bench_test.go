package apiserver_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

// BenchmarkBundle_secondCall measures what issuing and re-issuing a link
// costs against the export of a 2,000-page site, which builds the archive
// once, at completion: a bundle call only signs. The goal is a call under
// 5 % of the export (reported as call/export-%), and one archive per job
// however many links are issued.
func BenchmarkBundle_secondCall(b *testing.B) {
	dir := b.TempDir()
	writeLargeSite(b, filepath.Join(dir, "large"), 2000)
	env := apiservertest.Start(b, apiservertest.WithDeployment("large.acme.test", filepath.Join(dir, "large")))
	env.Domain = "large.acme.test"
	start := time.Now()
	id := completedExport(b, env)
	exported := time.Since(start)
	start = time.Now()
	env.Bundle(b, id)
	first := time.Since(start)
	b.ResetTimer()
	for range b.N {
		env.Bundle(b, id)
	}
	b.StopTimer()
	second := b.Elapsed() / time.Duration(b.N)
	b.ReportMetric(float64(exported.Milliseconds()), "export-ms")
	b.ReportMetric(float64(first.Microseconds())/1000, "first-call-ms")
	b.ReportMetric(float64(second.Microseconds())/1000, "second-call-ms")
	b.ReportMetric(100*max(first, second).Seconds()/exported.Seconds(), "call/export-%")
	n := env.Server.ArchivesBuilt()
	b.ReportMetric(float64(n), "archives/job")
	if n != 1 {
		b.Fatalf("%d archives built for one job", n)
	}
}
