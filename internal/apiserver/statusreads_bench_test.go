package apiserver_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
)

// statusConns is how many keep-alive connections read a job's status at
// once, as issue 25 measured it.
const statusConns = 64

// BenchmarkStatusReads reports the status requests per second of one
// completed export's GET at statusConns connections, and their p99, for
// the reference server on the embedded store and on PostgreSQL, each
// beside a bare net/http handler that answers the same bytes with the
// same headers. The sides alternate round by round, so load from other
// work on the machine falls on each alike. Ratios print as x-bare (goal
// ≥ 0.85 embedded) and x-embedded (goal ≥ 0.8 for PostgreSQL).
func BenchmarkStatusReads(b *testing.B) {
	const rounds, perRound = 3, 1500 * time.Millisecond
	var embedded float64
	for _, tc := range []struct {
		name     string
		postgres bool
	}{{"embedded", false}, {"postgres", true}} {
		b.Run(tc.name, func(b *testing.B) {
			db := apiservertest.WithDatabase("")
			if tc.postgres {
				db = apiservertest.WithDatabase(pgtest.DB(b))
			}
			env := apiservertest.Start(b, db)
			job := env.StartExportAndWait(b, api.StartExportRequest{Domain: env.Domain})
			url := env.URL + api.PathExportJobs + "/" + job.JobID
			body, header := readOnce(b, url, env.Key)
			bare := bareServer(b, body, header)

			var ours, base loadResult
			b.ResetTimer()
			for range b.N {
				for range rounds {
					base.add(statusLoad(b, bare, "", perRound))
					ours.add(statusLoad(b, url, env.Key, perRound))
				}
			}
			b.StopTimer()
			b.ReportMetric(ours.perSecond(), "status-per-s")
			b.ReportMetric(ours.p99().Seconds()*1000, "p99-ms")
			b.ReportMetric(base.perSecond(), "bare-per-s")
			b.ReportMetric(base.p99().Seconds()*1000, "bare-p99-ms")
			b.ReportMetric(ours.perSecond()/base.perSecond(), "x-bare")
			if tc.postgres && embedded > 0 {
				b.ReportMetric(ours.perSecond()/embedded, "x-embedded")
			} else {
				embedded = ours.perSecond()
			}
		})
	}
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
// does nothing else: the ceiling a status read could reach.
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
	return "http://" + ln.Addr().String() + "/"
}

type loadResult struct {
	requests  int
	elapsed   time.Duration
	latencies []time.Duration
}

func (r *loadResult) add(o loadResult) {
	r.requests += o.requests
	r.elapsed += o.elapsed
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

// statusLoad reads url from statusConns keep-alive connections for d and
// returns how many answers came and how long each took. Every answer must
// be a 200.
func statusLoad(b *testing.B, url, key string, d time.Duration) loadResult {
	b.Helper()
	tr := &http.Transport{MaxIdleConnsPerHost: statusConns, MaxConnsPerHost: statusConns, DisableCompression: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	var (
		mu    sync.Mutex
		out   loadResult
		first error
		wg    sync.WaitGroup
	)
	start := time.Now()
	deadline := start.Add(d)
	for range statusConns {
		wg.Go(func() {
			var lat []time.Duration
			var failed error
			for time.Now().Before(deadline) {
				req, _ := http.NewRequest(http.MethodGet, url, nil)
				if key != "" {
					req.Header.Set("Authorization", "Bearer "+key)
				}
				t0 := time.Now()
				resp, err := client.Do(req)
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
	out.requests = len(out.latencies)
	if first != nil {
		b.Fatalf("status read: %v", first)
	}
	return out
}
