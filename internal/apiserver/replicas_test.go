package apiserver_test

import (
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// renders counts the renders of each job across servers.
type renders struct {
	mu    sync.Mutex
	byJob map[string]int
}

func renderCounter(servers ...*apiserver.Server) (*renders, []*atomic.Int64) {
	r := &renders{byJob: map[string]int{}}
	per := make([]*atomic.Int64, len(servers))
	for i, s := range servers {
		per[i] = new(atomic.Int64)
		apiserver.OnRender(s, func(id string) {
			per[i].Add(1)
			r.mu.Lock()
			r.byJob[id]++
			r.mu.Unlock()
		})
	}
	return r, per
}

func (r *renders) of(id string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byJob[id]
}

// startOn starts an export through the server at base with key.
func startOn(t *testing.T, base, key, domain string) string {
	t.Helper()
	r := call(t, "POST", base+api.PathExportJobs, key, api.StartExportRequest{Domain: domain})
	if r.status != http.StatusAccepted {
		t.Fatalf("start on %s: %d %s", base, r.status, r.body)
	}
	var job api.ExportJob
	r.decode(t, &job)
	return job.JobID
}

func jobOn(t *testing.T, base, key, id string) api.ExportJob {
	t.Helper()
	var job api.ExportJob
	call(t, "GET", base+api.PathExportJobs+"/"+id, key, nil).decode(t, &job)
	return job
}

// Two servers on one database share the work: 50 exports from two
// organizations, started and polled through both, are each rendered
// exactly once, by either, and download through either.
func TestReplicas_eachExportRenderedOnce(t *testing.T) {
	env := apiservertest.Start(t, apiservertest.WithDatabase(pgtest.DB(t)),
		apiservertest.WithConfig(func(c *apiconfig.Config) { c.MaxActiveExports = 50 }))
	urlB, srvB := env.Replica(t)
	counts, per := renderCounter(env.Server, srvB)
	type started struct{ id, key string }
	var jobs []started
	for i := range 50 {
		base := []string{env.URL, urlB}[i%2]
		key, domain := env.Key, env.Domain
		if i%3 == 0 {
			key, domain = env.OtherKey, apiservertest.OtherDomain
		}
		jobs = append(jobs, started{startOn(t, base, key, domain), key})
	}
	for i, j := range jobs {
		base := []string{urlB, env.URL}[i%2] // polled through the other server
		var got api.ExportJob
		testutil.Eventually(t, apiservertest.ExportTimeout, "export "+j.id+" to finish", func() bool {
			got = jobOn(t, base, j.key, j.id)
			return api.ExportTerminal(got.Status)
		})
		if got.Status != api.ExportCompleted {
			t.Fatalf("export %s: %+v", j.id, got)
		}
		if n := counts.of(j.id); n != 1 {
			t.Fatalf("export %s rendered %d times", j.id, n)
		}
	}
	if per[0].Load() == 0 || per[1].Load() == 0 {
		t.Fatalf("renders per server %d and %d: one server did all the work", per[0].Load(), per[1].Load())
	}
	t.Logf("renders: %d on the first server, %d on the second", per[0].Load(), per[1].Load())
	for i, base := range []string{env.URL, urlB} {
		var b api.Bundle
		r := call(t, "POST", base+api.PathExportJobs+"/"+jobs[1+i].id+"/bundle", jobs[1+i].key, nil)
		r.decode(t, &b)
		download(t, b.BundleURL, b.SizeBytes)
	}
}

// A server that stops renewing mid-render, as a hung or dead replica
// would, loses the job to the other once the lease has run out; the other
// renders it from scratch, and its result stands when the first one wakes
// up and finishes its stale render.
func TestReplicas_leaseTakeover(t *testing.T) {
	const lease = 2 * time.Second
	var log testutil.SyncBuffer
	// One worker per server: the first server's only worker hangs, so
	// the job can go nowhere but to the other server.
	env := apiservertest.Start(t, apiservertest.WithDatabase(pgtest.DB(t)), apiservertest.WithExportLease(lease),
		apiservertest.WithConfig(func(c *apiconfig.Config) { c.ExportWorkers = 1 }),
		apiservertest.WithLogger(hclog.New(&hclog.LoggerOptions{Output: &log, Level: hclog.Info})))
	hung, release := make(chan string, 1), make(chan struct{})
	apiserver.StopLeaseRenewal(env.Server)
	apiserver.OnRender(env.Server, func(id string) {
		hung <- id
		<-release
	})
	id := env.StartExport(t, api.StartExportRequest{Domain: env.Domain}).JobID
	select {
	case held := <-hung:
		if held != id {
			t.Fatalf("rendering %s, started %s", held, id)
		}
	case <-time.After(apiservertest.ExportTimeout):
		t.Fatal("the first server did not start rendering")
	}
	// The second replica comes up while the first holds the job.
	urlB, srvB := env.Replica(t)
	var rendersB atomic.Int64
	apiserver.OnRender(srvB, func(string) { rendersB.Add(1) })
	if got := jobOn(t, urlB, env.Key, id); got.Status != api.ExportRunning {
		t.Fatalf("while the first server holds it: %+v", got)
	}
	// The lease is measured on the injected clock: move it past the end.
	env.Clock.Advance(lease + time.Second)
	var got api.ExportJob
	testutil.Eventually(t, apiservertest.ExportTimeout, "the second server to finish the job", func() bool {
		got = jobOn(t, urlB, env.Key, id)
		return got.Status == api.ExportCompleted
	})
	if n := rendersB.Load(); n != 1 {
		t.Fatalf("the second server rendered %d times, want 1", n)
	}
	close(release) // the first server renders its stale attempt to the end
	testutil.Eventually(t, apiservertest.ExportTimeout, "the first server to give its stale attempt up", func() bool {
		// Refused before publishing its files or when writing its outcome,
		// depending on whether it saw the new owner's site first.
		l := log.String()
		return strings.Contains(l, "export lease lost") || strings.Contains(l, "export outcome discarded")
	})
	after := jobOn(t, env.URL, env.Key, id)
	if after.Status != api.ExportCompleted || after.Version != got.Version || after.PageCount != got.PageCount {
		t.Fatalf("after the stale attempt: %+v, want %+v", after, got)
	}
	var b api.Bundle
	call(t, "POST", env.URL+api.PathExportJobs+"/"+id+"/bundle", env.Key, nil).decode(t, &b)
	download(t, b.BundleURL, b.SizeBytes)
}

// A server restarted while it renders hands its job back: the next one
// (or, on PostgreSQL, any replica) resumes it at once, not after the
// lease, and the job queued behind it runs too.
func TestRestart_resumesInterruptedExport(t *testing.T) {
	dir := t.TempDir()
	writeLargeSite(t, dir, 1000) // large enough to be caught mid-render
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		// A lease far longer than the test: only a handed-back job resumes.
		env := apiservertest.Start(t, db, apiservertest.WithDeployment("large.acme.test", dir), apiservertest.WithExportLease(time.Hour),
			apiservertest.WithConfig(func(c *apiconfig.Config) { c.ExportWorkers = 1 }))
		large := env.StartExport(t, api.StartExportRequest{Domain: "large.acme.test"}).JobID
		queued := env.StartExport(t, api.StartExportRequest{Domain: env.Domain}).JobID
		testutil.Eventually(t, apiservertest.ExportTimeout, "the large export to run", func() bool {
			job := jobOn(t, env.URL, env.Key, large)
			if api.ExportTerminal(job.Status) {
				t.Fatalf("large export never seen running: %+v", job)
			}
			return job.Status == api.ExportRunning && job.PageCount > 0
		})
		env.Restart(t, nil)
		for _, id := range []string{large, queued} {
			if job := env.WaitExport(t, id); job.Status != api.ExportCompleted {
				t.Fatalf("export %s after the restart: %+v", id, job)
			}
		}
	})
}

// A server given a job store of its own (taken to be a shared database)
// but no shared home for its files refuses to start, says why, and
// closes the store it was given.
func TestNew_databaseWithLocalFilesRefused(t *testing.T) {
	jobs, err := jobstore.OpenBolt(t.Context(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	_, err = apiserver.New(t.Context(), apiserver.Options{
		Config: apiserver.DemoConfig("dak_" + strings.Repeat("ab", 16)), DataDir: t.TempDir(), PublicURL: "http://127.0.0.1:1",
		Jobs: jobs,
	})
	if err == nil || !strings.Contains(err.Error(), "each replica would only see the exports it rendered itself") {
		t.Fatalf("New with a database and local files: %v", err)
	}
	if _, err := jobs.ExportJobs(t.Context()); err == nil {
		t.Fatal("the refused server left the job store it was given open")
	}
}

// A job polled through the server that is not rendering it shows the
// progress recorded with the renderer's lease renewals, not a bare 0.
func TestReplicas_progressThroughOtherServer(t *testing.T) {
	dir := t.TempDir()
	writeLargeSite(t, dir, 1000)
	// A short lease renews (and records progress) every 200ms.
	env := apiservertest.Start(t, apiservertest.WithDatabase(pgtest.DB(t)), apiservertest.WithExportLease(600*time.Millisecond),
		apiservertest.WithDeployment("large.acme.test", dir))
	urlB, srvB := env.Replica(t)
	var renderer atomic.Pointer[string]
	for _, s := range []struct {
		srv   *apiserver.Server
		other string
	}{{env.Server, urlB}, {srvB, env.URL}} {
		apiserver.OnRender(s.srv, func(string) { renderer.Store(&s.other) })
	}
	id := env.StartExport(t, api.StartExportRequest{Domain: "large.acme.test"}).JobID
	var seen api.ExportJob
	testutil.Eventually(t, apiservertest.ExportTimeout, "progress through the other server", func() bool {
		other := renderer.Load()
		if other == nil {
			return false
		}
		seen = jobOn(t, *other, env.Key, id)
		if api.ExportTerminal(seen.Status) {
			t.Fatalf("the export finished before the other server saw progress: %+v", seen)
		}
		return seen.PageCount > 0 && seen.Progress > 0
	})
	if got := env.WaitExport(t, id); got.Status != api.ExportCompleted || got.PageCount < seen.PageCount {
		t.Fatalf("after progress %+v: %+v", seen, got)
	}
}

// The hourly agent-job limit is one limit across replicas: requests sent
// at once through both servers create exactly the limit, the rest get
// 429 with Retry-After.
func TestReplicas_agentJobLimit(t *testing.T) {
	const limit, tries = 4, 12
	env := apiservertest.Start(t, apiservertest.WithDatabase(pgtest.DB(t)), apiservertest.WithAgentJobsPerHour(limit))
	urlB, _ := env.Replica(t)
	replies := make([]reply, tries)
	var wg sync.WaitGroup
	for i := range tries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			base := []string{env.URL, urlB}[i%2]
			replies[i] = call(t, "POST", base+"/v2/agent/"+env.ProjectID+"/job", env.Key, map[string]string{"prompt": "document the new flag"})
		}()
	}
	wg.Wait()
	created := map[string]bool{}
	for _, r := range replies {
		switch r.status {
		case http.StatusCreated:
			var job api.AgentJob
			r.decode(t, &job)
			created[job.ID] = true
		case http.StatusTooManyRequests:
			if r.header.Get("Retry-After") == "" {
				t.Fatal("429 without Retry-After")
			}
			r.errorMessage(t)
		default:
			t.Fatalf("create agent job: %d %s", r.status, r.body)
		}
	}
	if len(created) != limit {
		t.Fatalf("%d agent jobs created through two servers under a limit of %d", len(created), limit)
	}
}

// A job started on a server whose workers are busy is claimed at once by
// the other server, told through LISTEN/NOTIFY: with a claim interval of
// an hour, nothing else would wake it.
func TestReplicas_startWakesOtherServer(t *testing.T) {
	env := apiservertest.Start(t, apiservertest.WithDatabase(pgtest.DB(t)), apiservertest.WithClaimInterval(time.Hour),
		apiservertest.WithConfig(func(c *apiconfig.Config) { c.ExportWorkers = 1 }))
	hung, release := make(chan string, 1), make(chan struct{})
	defer close(release)
	apiserver.OnRender(env.Server, func(id string) {
		hung <- id
		<-release
	})
	first := env.StartExport(t, api.StartExportRequest{Domain: env.Domain}).JobID
	select {
	case id := <-hung:
		if id != first {
			t.Fatalf("the first server renders %s, want %s", id, first)
		}
	case <-time.After(apiservertest.ExportTimeout):
		t.Fatal("the first server did not start rendering")
	}
	urlB, _ := env.Replica(t)
	// The first job after the replica's start may be seen by the claim
	// it makes when it starts listening; the one after it only if told.
	for _, n := range []string{"second", "third"} {
		id := env.StartExport(t, api.StartExportRequest{Domain: env.Domain}).JobID
		testutil.Eventually(t, apiservertest.ExportTimeout, "the other server to render the "+n+" job", func() bool {
			return jobOn(t, urlB, env.Key, id).Status == api.ExportCompleted
		})
	}
}

// Claims go where there is work. Of two idle servers on one database, an
// export started on the first is claimed by an idle worker of its own, and
// the second, told that the job is taken care of, does not wake a worker
// to race for it; a worker that has rendered a job waits for a wake
// rather than claim again at once. Each start used to cost two claims
// that found nothing, each a round trip: one by a worker of the other
// server, one by the worker that rendered it, as it finished.
func TestReplicas_claimsOnlyWhereThereIsWork(t *testing.T) {
	env := apiservertest.Start(t, apiservertest.WithDatabase(pgtest.DB(t)), apiservertest.WithClaimInterval(time.Hour),
		apiservertest.WithConfig(func(c *apiconfig.Config) { c.ExportWorkers = 2 }))
	urlB, _ := env.Replica(t)
	claims := func(base string) (job, none float64) {
		m := testutil.Scrape(t, base+apiserver.PathMetrics)
		job, _ = m.Value("docsadmin_export_claims_total", "result", "job")
		none, _ = m.Value("docsadmin_export_claims_total", "result", "none")
		return job, none
	}
	export := func() {
		id := env.StartExport(t, api.StartExportRequest{Domain: env.Domain}).JobID
		testutil.Eventually(t, apiservertest.ExportTimeout, "export "+id, func() bool {
			return jobOn(t, env.URL, env.Key, id).Status == api.ExportCompleted
		})
	}
	// Each worker claims as it starts, for jobs left from before, and
	// each server once more when it begins to listen for other replicas'
	// jobs: one export first, so that all of those are counted before.
	export()
	// The second server's start-up claims (one per worker, one as it
	// begins to listen) run on their own goroutines; on a loaded machine
	// the last may come after that export. Wait for all three.
	testutil.Eventually(t, 10*time.Second, "the second server's start-up claims", func() bool {
		job, none := claims(urlB)
		return job+none >= 3
	})
	jobA0, noneA0 := claims(env.URL)
	jobB0, noneB0 := claims(urlB)
	const n = 6
	for range n {
		export()
	}
	for _, c := range []struct {
		server, url string
		job0, none0 float64
		want        float64
	}{{"first", env.URL, jobA0, noneA0, n}, {"second", urlB, jobB0, noneB0, 0}} {
		job, none := claims(c.url)
		if job-c.job0 != c.want || none != c.none0 {
			t.Errorf("over %d exports the %s server claimed %v jobs and found nothing %v times, want %v and 0",
				n, c.server, job-c.job0, none-c.none0, c.want)
		}
	}
}
