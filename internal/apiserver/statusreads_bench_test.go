package apiserver_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// statusConns is how many keep-alive connections read a job's status at
// once, as issue 25 measured it.
const statusConns = 64

// BenchmarkStatusReads reports the status requests per second of one
// completed export's GET at statusConns connections, and their p99, for
// the reference server on the embedded store and on PostgreSQL, beside a
// bare net/http handler that answers the same bytes with the same
// headers to the same request (path and Authorization). The three
// alternate in short rounds (36 of 0.25 s, each side keeping its
// connections open between its rounds), so load from other work on the
// machine falls on each alike; each round starts with the next side, so
// each runs first, second and last equally often and none always
// follows the same one. Each ratio is the median of the rounds'
// own ratios, so a round that a burst of other work (or the client's own
// garbage collection) slowed does not decide it. Ratios print as x-bare
// (goal ≥ 0.85 on the embedded store) and x-embedded (goal ≥ 0.8 for
// PostgreSQL), and the log says each beside its goal with the load
// average and every round's rate.
//
// cpu-x-bare is the same comparison in this process's CPU time per read
// (client and server together, as the median of the rounds' ratios):
// other work on the machine takes time from a round but hardly changes
// what a read costs, so it says whether a low x-bare is the server's
// doing or the machine's. sql-per-read is the PostgreSQL round trips per
// status read. Without PostgreSQL installed only the embedded store is
// measured.
func BenchmarkStatusReads(b *testing.B) {
	const rounds, perRound = 36, 250 * time.Millisecond
	type side struct {
		name, url, key string
		env            *apiservertest.Env
		client         *statusClient
		load           loadResult
		perRound       []float64 // requests per second, round by round
		cpuPerRound    []float64 // reads per CPU second, round by round
		acquires       float64   // database round trips during its rounds
	}
	start := func(name string, opt apiservertest.Option) *side {
		var env *apiservertest.Env
		labelled(func() { env = apiservertest.Start(b, opt) }, "side", name)
		job := env.StartExportAndWait(b, api.StartExportRequest{Domain: env.Domain})
		return &side{name: name, url: env.URL + api.PathExportJobs + "/" + job.JobID, key: env.Key, env: env}
	}
	embedded := start("embedded", apiservertest.WithDatabase(""))
	sides := []*side{embedded}
	var pg *side
	if _, err := os.Stat(filepath.Join(pgtest.BinDir(), "postgres")); err == nil {
		pg = start("postgres", apiservertest.WithDatabase(pgtest.DB(b)))
		sides = append(sides, pg)
	} else {
		b.Logf("PostgreSQL is not installed (%v): measuring the embedded store only", err)
	}
	body, header := readOnce(b, embedded.url, embedded.key)
	// The bare server is sent the very request the others are, path and
	// key included, so the client does the same work for every side and
	// the ratios compare only what the servers do with it.
	bare := &side{name: "bare", key: embedded.key}
	labelled(func() {
		bare.url = bareServer(b, body, header) + strings.TrimPrefix(embedded.url, embedded.env.URL)
	}, "side", bare.name)
	sides = append([]*side{bare}, sides...)
	for _, sd := range sides {
		sd.client = newStatusClient(b, sd.url, sd.key)
	}

	load := loadAverage()
	b.ResetTimer()
	for range b.N {
		for round := range rounds {
			for i := range sides {
				sd := sides[(round+i)%len(sides)]
				var before float64
				if sd.env != nil {
					before = poolAcquires(b, sd.env)
				}
				var r loadResult
				labelled(func() { r = statusLoad(b, sd.client, perRound) }, "side", "client", "of", sd.name)
				sd.perRound = append(sd.perRound, r.perSecond())
				sd.cpuPerRound = append(sd.cpuPerRound, float64(r.requests)/r.cpu)
				sd.load.add(r)
				if sd.env != nil {
					sd.acquires += poolAcquires(b, sd.env) - before
				}
			}
		}
	}
	b.StopTimer()
	load += " → " + loadAverage()
	for _, sd := range sides {
		b.ReportMetric(sd.load.perSecond(), sd.name+"-per-s")
		b.ReportMetric(sd.load.p99().Seconds()*1000, sd.name+"-p99-ms")
		b.Logf("%s: %.0f status reads/s, p99 %.1f ms; rounds %.0f", sd.name, sd.load.perSecond(), sd.load.p99().Seconds()*1000, sd.perRound)
	}
	xBare := medianRatio(embedded.perRound, bare.perRound)
	b.ReportMetric(xBare, "x-bare")
	cpuXBare := medianRatio(embedded.cpuPerRound, bare.cpuPerRound)
	b.ReportMetric(cpuXBare, "cpu-x-bare")
	b.Logf("embedded: %.2f× bare (goal ≥ 0.85%s), %.2f× bare in CPU time per read; load average %s",
		xBare, goalMet(xBare, 0.85), cpuXBare, load)
	if pg == nil {
		return
	}
	perRead := pg.acquires / float64(pg.load.requests)
	b.ReportMetric(perRead, "sql-per-read")
	xEmbedded := medianRatio(pg.perRound, embedded.perRound)
	b.ReportMetric(xEmbedded, "x-embedded")
	b.Logf("postgres: %.2f× embedded (goal ≥ 0.8%s), %.2f× bare; %.3f database round trips per status read (pool acquisitions, background work included)",
		xEmbedded, goalMet(xEmbedded, 0.8), medianRatio(pg.perRound, bare.perRound), perRead)
}

// labelled runs f with profiler labels (key, value pairs), which every
// goroutine f starts inherits: a server's connections and background
// work, or the client's. "go test -cpuprofile" then tells the sides
// apart: go tool pprof -tagfocus side=embedded, or side=client,of=bare.
func labelled(f func(), labels ...string) {
	pprof.Do(context.Background(), pprof.Labels(labels...), func(context.Context) { f() })
}

// medianRatio is the median of a[i]/b[i], rounds measured side by side.
func medianRatio(a, b []float64) float64 {
	med, _, _ := medianInterval(sortedRatios(a, b))
	return med
}

// sortedRatios returns a[i]/b[i], rounds measured side by side, in
// ascending order.
func sortedRatios(a, b []float64) []float64 {
	r := make([]float64, min(len(a), len(b)))
	for i := range r {
		r[i] = a[i] / b[i]
	}
	slices.Sort(r)
	return r
}

// goalMet says whether ratio reaches goal.
func goalMet(ratio, goal float64) string {
	if ratio >= goal {
		return ": met"
	}
	return ": NOT met"
}

// loadAverage is the machine's 1-minute load average, for reading a
// figure measured beside other work.
func loadAverage() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(raw)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "unknown"
}

// poolAcquires is the server's docsadmin_db_pool_acquires_total, 0 on the
// embedded store.
func poolAcquires(b *testing.B, env *apiservertest.Env) float64 {
	b.Helper()
	v, _ := testutil.Scrape(b, env.URL+apiserver.PathMetrics).Value("docsadmin_db_pool_acquires_total")
	return v
}

// readOnce returns a status answer's body and the headers a bare handler
// must repeat to send the same bytes.
func readOnce(b *testing.B, url, key string) ([]byte, http.Header) {
	b.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("status read: %d %v %s", resp.StatusCode, err, body)
	}
	h := resp.Header.Clone()
	h.Del("Date")
	h.Del("Content-Length")
	return body, h
}

// bareServer serves body with header on 127.0.0.1 from a handler that
// does nothing else, whatever the path and headers of the request: the
// ceiling a status read could reach. It returns the server's URL without
// a path.
func bareServer(b *testing.B, body []byte, header http.Header) string {
	b.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		for k, v := range header {
			w.Header()[k] = v
		}
		_, _ = w.Write(body)
	}), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	b.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return "http://" + ln.Addr().String()
}

type loadResult struct {
	requests  int
	elapsed   time.Duration
	cpu       float64 // seconds of the process's CPU time, user and system
	latencies []time.Duration
}

func (r *loadResult) add(o loadResult) {
	r.requests += o.requests
	r.elapsed += o.elapsed
	r.cpu += o.cpu
	r.latencies = append(r.latencies, o.latencies...)
}

func (r *loadResult) perSecond() float64 { return float64(r.requests) / r.elapsed.Seconds() }

func (r *loadResult) p99() time.Duration {
	if len(r.latencies) == 0 {
		return 0
	}
	slices.Sort(r.latencies)
	return r.latencies[len(r.latencies)*99/100]
}

// statusClient reads one side's status URL. It keeps its statusConns
// connections from round to round, so a round does not start with 64
// connections to open.
type statusClient struct {
	url    string
	auth   []string // the Authorization header, shared: the transport only reads it
	client *http.Client
}

func newStatusClient(b *testing.B, url, key string) *statusClient {
	tr := &http.Transport{MaxIdleConnsPerHost: statusConns, MaxConnsPerHost: statusConns, DisableCompression: true}
	b.Cleanup(tr.CloseIdleConnections)
	return &statusClient{url: url, auth: []string{"Bearer " + key}, client: &http.Client{Transport: tr, Timeout: 30 * time.Second}}
}

// statusLoad reads c's URL from statusConns keep-alive connections for d
// and returns how many answers came and how long each took. Every answer
// must be a 200.
func statusLoad(b *testing.B, c *statusClient, d time.Duration) loadResult {
	b.Helper()
	var (
		mu    sync.Mutex
		out   loadResult
		first error
		wg    sync.WaitGroup
	)
	cpu0 := processCPU(b)
	start := time.Now()
	deadline := start.Add(d)
	for range statusConns {
		wg.Go(func() {
			var lat []time.Duration
			var failed error
			for time.Now().Before(deadline) {
				req, _ := http.NewRequest(http.MethodGet, c.url, nil)
				req.Header["Authorization"] = c.auth
				t0 := time.Now()
				resp, err := c.client.Do(req)
				if err == nil {
					_, err = io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if err == nil && resp.StatusCode != http.StatusOK {
						err = fmt.Errorf("status %d", resp.StatusCode)
					}
				}
				if err != nil {
					failed = err
					break
				}
				lat = append(lat, time.Since(t0))
			}
			mu.Lock()
			defer mu.Unlock()
			out.latencies = append(out.latencies, lat...)
			if failed != nil && first == nil {
				first = failed
			}
		})
	}
	wg.Wait()
	out.elapsed = time.Since(start)
	out.cpu = processCPU(b) - cpu0 // scaleout_mem_bench_test.go
	out.requests = len(out.latencies)
	if first != nil {
		b.Fatalf("status read: %v", first)
	}
	return out
}
