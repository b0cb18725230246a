package apiserver_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// writeRefFanOut writes a docs source of about size bytes in levels files
// (fewer than the 32 $ref may nest): its docs.json names level1.json
// width times, which names level2.json width times, and so on, width
// being what makes up the size. Written out, it is width to the power of
// levels.
func writeRefFanOut(t *testing.T, dir string, levels, size int) {
	t.Helper()
	width := size / levels / len(`{"$ref": "level10.json"},`)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	refs := func(level int) string {
		one := fmt.Sprintf(`{"$ref": "level%d.json"}`, level)
		return "[" + strings.TrimSuffix(strings.Repeat(one+",", width), ",") + "]"
	}
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("index.mdx", "# Fan\n\nA page.\n")
	write("docs.json", `{"name": "Fan", "navigation": {"pages": ["index"]}, "x": `+refs(1)+`}`)
	for i := 1; i < levels; i++ {
		write(fmt.Sprintf("level%d.json", i), refs(i+1))
	}
	write(fmt.Sprintf("level%d.json", levels), `{"group": "leaf", "pages": ["index"]}`)
}

// timedCall is a call and how long its answer took.
type timedCall struct {
	status int
	took   time.Duration
	body   string
}

// concurrently makes n identical calls at once.
func concurrently(t *testing.T, n int, method, url, key string, body any) []timedCall {
	t.Helper()
	out := make([]timedCall, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			r := call(t, method, url, key, body)
			out[i] = timedCall{status: r.status, took: time.Since(start), body: string(r.body)}
		}()
	}
	wg.Wait()
	return out
}

// slowest is the longest any of calls took.
func slowest(calls []timedCall) time.Duration {
	var d time.Duration
	for _, c := range calls {
		d = max(d, c.took)
	}
	return d.Round(time.Millisecond)
}

// TestHostileSources_process runs the server as a process with one export
// worker against sources of the sizes issue 39 measured: a 44 KB and a
// 1 MB docs.json whose $ref fan out, and a source with a 400 MB file.
// Before docs.json was loaded in the worker under a budget, a start of the
// 44 KB source spent 16–23 s and ~900 MB in its handler before its 429
// was checked, the 1 MB one ran 7 minutes at 12 GB, and eight update
// triggers read the 400 MB file whole each, 3.4 GB, with their 429s after
// 11–12 s. Now: starts and triggers answer at once, 429s included; the
// fan-out jobs fail in the worker with the bound named; another
// organization's one-page export is not held up; the big file's updates
// succeed; and the server's peak RSS stays under the chart's 512 MiB.
func TestHostileSources_process(t *testing.T) {
	testutil.SkipShort(t, "the reference server as a process, a 400 MB file and $ref fan-outs")
	const exportTimeout = 8 * time.Second
	dir := t.TempDir()
	apiservertest.WriteSites(t, dir)
	writeRefFanOut(t, filepath.Join(dir, "fan44k"), 20, 44<<10)
	writeRefFanOut(t, filepath.Join(dir, "fan1m"), 20, 1<<20)
	huge := filepath.Join(dir, "huge")
	if err := os.CopyFS(huge, os.DirFS(filepath.Join(dir, "site"))); err != nil {
		t.Fatal(err)
	}
	// Sparse: made at once, but every byte of it read by a snapshot.
	f, err := os.Create(filepath.Join(huge, "images", "huge.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(400 << 20); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	srv, evil, acme := startEvilAndAcme(t, dir, fmt.Sprintf("exportWorkers: 1\nexportTimeout: %s\nmaxActiveExports: 2\n", exportTimeout), `
      - id: fan
        repository: https://git.example.com/evil/fan
        deployments:
          - {domain: fan1m.evil.test, source: ./fan1m, kind: cloud}
          - {domain: fan44k.evil.test, source: ./fan44k, kind: cloud}
      - id: huge
        repository: https://git.example.com/evil/huge
        deployments:
          - {domain: huge.evil.test, source: ./huge, kind: cloud}`)
	// An answer that does no work on the source comes within this, on
	// a loaded machine.
	const prompt = 3 * time.Second

	// Four starts of the 44 KB fan-out at once: two accepted, two over
	// maxActiveExports, all at once.
	starts := concurrently(t, 4, http.MethodPost, srv.url+api.PathExportJobs, evil.Key, api.StartExportRequest{Domain: "fan44k.evil.test"})
	var accepted, limited int
	for _, c := range starts {
		switch {
		case c.took > prompt:
			t.Errorf("a start of the fan-out source answered %d after %v", c.status, c.took)
		case c.status == http.StatusAccepted:
			accepted++
		case c.status == http.StatusTooManyRequests:
			limited++
		default:
			t.Errorf("a start of the fan-out source: %d %s", c.status, c.body)
		}
	}
	if accepted != 2 || limited != 2 {
		t.Fatalf("starts: %d accepted, %d limited; want 2 and 2: %+v", accepted, limited, starts)
	}
	t.Logf("four concurrent starts of the 44 KB fan-out answered within %v", slowest(starts))
	// acme's one-page export, queued behind them, is not held up.
	queued := time.Now()
	page := acme.StartExport(t, api.StartExportRequest{Domain: "docs.acme.test", Paths: []string{"quickstart"}}).JobID
	if job := acme.WaitExport(t, page); job.Status != api.ExportCompleted || job.PageCount != 1 {
		t.Fatalf("acme's one-page export: %+v", job)
	}
	if waited := time.Since(queued); waited > exportTimeout+20*time.Second {
		t.Errorf("acme's one-page export finished %v after it was queued behind the fan-out jobs (exportTimeout %v)", waited, exportTimeout)
	} else {
		t.Logf("acme's one-page export finished %v after it was queued behind two fan-out jobs", waited.Round(time.Millisecond))
	}

	// The 1 MB fan-out fails in the worker, with the bound, in far less
	// than its exportTimeout.
	startedBig := time.Now()
	big := evil.WaitExport(t, evil.StartExport(t, api.StartExportRequest{Domain: "fan1m.evil.test"}).JobID)
	if big.Status != api.ExportFailed || !strings.Contains(big.Error, "written out") || !strings.Contains(big.Error, "more than the limit") {
		t.Errorf("the 1 MB fan-out: %+v, want failed with the bound named", big)
	}
	t.Logf("the 1 MB fan-out failed %v after its start: %s", time.Since(startedBig).Round(time.Millisecond), big.Error)

	// Eight update triggers of the source with the 400 MB file: five
	// accepted, three refused at once.
	triggers := concurrently(t, 8, http.MethodPost, srv.url+api.FillPath(api.PathProjectUpdate, map[string]string{"projectId": "huge"}), evil.Key, nil)
	accepted, limited = 0, 0
	var first string
	for _, c := range triggers {
		switch c.status {
		case http.StatusAccepted:
			accepted++
			if first == "" {
				var out api.TriggerUpdateResponse
				reply{status: c.status, body: []byte(c.body)}.decode(t, &out)
				first = out.StatusID
			}
		case http.StatusTooManyRequests:
			limited++
			if c.took > prompt {
				t.Errorf("a 429 to an update trigger came after %v", c.took)
			}
		default:
			t.Errorf("an update trigger: %d %s", c.status, c.body)
		}
	}
	if accepted != 5 || limited != 3 {
		t.Fatalf("update triggers: %d accepted, %d limited; want 5 and 3: %+v", accepted, limited, triggers)
	}
	t.Logf("eight concurrent update triggers of the 400 MB source answered within %v", slowest(triggers))
	fan := triggerUpdate(t, evil, evil.Key, "fan")
	for id, want := range map[string]string{first: api.UpdateSuccess, fan: api.UpdateFailure} {
		var st api.UpdateStatus
		testutil.Eventually(t, 30*time.Second, "update "+id+" to end", func() bool {
			st = mustUpdate(t, evil, id)
			return st.EndedAt != nil
		})
		if st.Status != want || want == api.UpdateFailure && !strings.Contains(st.Summary, "more than the limit") {
			t.Errorf("update %s: %+v, want %s", id, st, want)
		}
	}

	if rss := peakRSS(t, srv.cmd.Process.Pid); rss > 512<<20 {
		t.Errorf("server peak RSS %d MiB, over the chart's 512 MiB", rss>>20)
	} else {
		t.Logf("server peak RSS %d MiB", rss>>20)
	}
}
