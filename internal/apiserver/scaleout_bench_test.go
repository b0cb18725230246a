package apiserver_test

import (
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// BenchmarkScaleOut reports export throughput (exports-per-s, a batch of
// 20 demo-site exports started and polled through every server) and
// status requests per second (one client, round-robin) for the embedded
// store with one server, for PostgreSQL (sites in a shared data dir) with
// one and two servers, and for PostgreSQL with a MinIO bucket with one
// and two servers; the ratios against the first case print as x-embedded.
func BenchmarkScaleOut(b *testing.B) {
	var base struct{ exports, status float64 }
	for _, tc := range []struct {
		name              string
		postgres, objects bool
		servers           int
	}{
		{"embedded-1", false, false, 1}, {"postgres-1", true, false, 1}, {"postgres-2", true, false, 2},
		{"postgres+s3-1", true, true, 1}, {"postgres+s3-2", true, true, 2},
	} {
		b.Run(tc.name, func(b *testing.B) {
			db := apiservertest.WithDatabase("")
			switch {
			case tc.objects:
				opts, _ := onObjects(b)
				db = apiservertest.Combine(opts...)
			case tc.postgres:
				db = apiservertest.WithDatabase(pgtest.DB(b))
			}
			env := apiservertest.Start(b, db, apiservertest.WithConfig(func(c *apiconfig.Config) { c.MaxActiveExports = 1000 }))
			urls := []string{env.URL}
			for len(urls) < tc.servers {
				u, _ := env.Replica(b)
				urls = append(urls, u)
			}
			const batch = 20
			var last string
			b.ResetTimer()
			for range b.N {
				ids := make([]string, batch)
				for i := range ids {
					ids[i] = startOnB(b, urls[i%len(urls)], env.Key, env.Domain)
				}
				for i, id := range ids {
					testutil.Eventually(b, apiservertest.ExportTimeout, "export "+id, func() bool {
						var job api.ExportJob
						call(b, "GET", urls[(i+1)%len(urls)]+api.PathExportJobs+"/"+id, env.Key, nil).decode(b, &job)
						return job.Status == api.ExportCompleted
					})
				}
				last = ids[0]
			}
			b.StopTimer()
			exports := float64(b.N*batch) / b.Elapsed().Seconds()
			const polls = 500
			start := time.Now()
			for i := range polls {
				call(b, "GET", urls[i%len(urls)]+api.PathExportJobs+"/"+last, env.Key, nil)
			}
			status := polls / time.Since(start).Seconds()
			b.ReportMetric(exports, "exports-per-s")
			b.ReportMetric(status, "status-per-s")
			if tc.name == "embedded-1" {
				base.exports, base.status = exports, status
			} else if base.exports > 0 {
				b.ReportMetric(exports/base.exports, "exports-x-embedded")
				b.ReportMetric(status/base.status, "status-x-embedded")
			}
		})
	}
}

func startOnB(b *testing.B, base, key, domain string) string {
	b.Helper()
	var job api.ExportJob
	r := call(b, "POST", base+api.PathExportJobs, key, api.StartExportRequest{Domain: domain})
	if r.status != 202 {
		b.Fatalf("start: %d %s", r.status, r.body)
	}
	r.decode(b, &job)
	return job.JobID
}

// BenchmarkTakeover reports how long after its lease ends a job whose
// server stopped renewing is finished by the other server (takeover-ms,
// real time after the injected clock passed the lease): the claim
// interval plus one render. A dead replica's job is therefore done about
// ExportLease (30s by default) plus this after it died.
func BenchmarkTakeover(b *testing.B) {
	b.Run("postgres", func(b *testing.B) { benchTakeover(b, apiservertest.WithDatabase(pgtest.DB(b))) })
	b.Run("postgres+s3", func(b *testing.B) {
		opts, _ := onObjects(b)
		benchTakeover(b, apiservertest.Combine(opts...))
	})
}

func benchTakeover(b *testing.B, backend apiservertest.Option) {
	const lease = 4 * time.Second
	// One worker per server: the first server's only worker hangs, so
	// the job can go nowhere but to the other server.
	env := apiservertest.Start(b, backend, apiservertest.WithExportLease(lease),
		apiservertest.WithConfig(func(c *apiconfig.Config) { c.ExportWorkers = 1 }))
	urlB, _ := env.Replica(b)
	apiserver.StopLeaseRenewal(env.Server)
	release, hung := make(chan struct{}), make(chan string, 1)
	apiserver.OnRender(env.Server, func(id string) {
		hung <- id
		<-release
	})
	var total time.Duration
	taken := 0
	for range b.N {
		id := env.StartExport(b, api.StartExportRequest{Domain: env.Domain}).JobID
		// Wait until one of the servers has claimed it; only the first
		// one's renders hang, so a claim by the second is done at once.
		var byFirst bool
		testutil.Eventually(b, apiservertest.ExportTimeout, "a claim of "+id, func() bool {
			select {
			case <-hung:
				byFirst = true
				return true
			default:
			}
			var job api.ExportJob
			call(b, "GET", urlB+api.PathExportJobs+"/"+id, env.Key, nil).decode(b, &job)
			return job.Status == api.ExportCompleted
		})
		if !byFirst {
			continue
		}
		env.Clock.Advance(lease + time.Second)
		start := time.Now()
		testutil.Eventually(b, apiservertest.ExportTimeout, "the takeover of "+id, func() bool {
			var job api.ExportJob
			call(b, "GET", urlB+api.PathExportJobs+"/"+id, env.Key, nil).decode(b, &job)
			return job.Status == api.ExportCompleted
		})
		total += time.Since(start)
		taken++
		release <- struct{}{} // the stale render ends, fenced; the worker is free again
	}
	if taken > 0 {
		b.ReportMetric(float64(total.Milliseconds())/float64(taken), "takeover-ms")
	}
}
