package apiserver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// writeHostileSite writes a docs source whose custom components attack
// the server: the first pages each ask for a 1 GiB typed array, the rest
// each run a regular expression that backtracks for longer than any
// deadline (60 characters: hours).
func writeHostileSite(t *testing.T, dir string, memoryPages, regexPages int) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var pages []string
	write := func(name, component string) {
		pages = append(pages, strconv.Quote(name))
		body := "---\ntitle: " + name + "\n---\n\nexport const Attack = () => " + component + ";\n\n# " + name + "\n\n<Attack />\n\nAfter the component.\n"
		if err := os.WriteFile(filepath.Join(dir, name+".mdx"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range memoryPages {
		write(fmt.Sprintf("memory%02d", i), `{ const a = new Uint8Array(1 << 30); a.fill(7); return <p>{a[5]}</p>; }`)
	}
	for i := range regexPages {
		write(fmt.Sprintf("regex%02d", i), `<p>{String(/^(a|aa)+(?=b)c$/.test("a".repeat(60)))}</p>`)
	}
	docs := `{"name": "Hostile", "navigation": {"groups": [{"group": "All", "pages": [` + strings.Join(pages, ",") + `]}]}}`
	if err := os.WriteFile(filepath.Join(dir, "docs.json"), []byte(docs), 0o644); err != nil {
		t.Fatal(err)
	}
}

// peakRSS is a process's peak resident memory, from /proc.
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(raw)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc status")
	return 0
}

// TestHostileComponents_process runs the server as a process with one
// export worker and a hostile source in one organization. Its components
// ask for gigabytes and run regular expressions that never end; before
// they ran in bounded evaluator processes, the regex held the only worker
// past exportTimeout and past a SIGTERM, and the arrays took the server
// past 2 GB. Now: another organization's one-page export finishes within
// the hostile job's exportTimeout of being queued, the hostile job fails
// at its exportTimeout with the pages' warnings, the server's peak RSS
// stays under the chart's 512 MiB, and SIGTERM in the middle of a hostile
// page stops the server within its grace.
func TestHostileComponents_process(t *testing.T) {
	testutil.SkipShort(t, "the reference server as a process and its evaluator processes")
	const exportTimeout = 8 * time.Second
	dir := t.TempDir()
	apiservertest.WriteSites(t, dir)
	writeHostileSite(t, filepath.Join(dir, "hostile"), 2, 20)
	srv, evil, acme := startEvilAndAcme(t, dir, fmt.Sprintf("exportWorkers: 1\nexportTimeout: %s\n", exportTimeout), `
      - id: tricks
        repository: https://git.example.com/evil/tricks
        deployments:
          - {domain: hostile.evil.test, source: ./hostile, kind: cloud}`)
	evil.Domain, acme.Domain = "hostile.evil.test", "docs.acme.test"

	hostile := evil.StartExport(t, api.StartExportRequest{Domain: "hostile.evil.test"}).JobID
	waitRunning(t, evil, hostile)
	queued := time.Now()
	page := acme.StartExport(t, api.StartExportRequest{Domain: "docs.acme.test", Paths: []string{"quickstart"}}).JobID
	job := acme.WaitExport(t, page)
	waited := time.Since(queued)
	if job.Status != api.ExportCompleted || job.PageCount != 1 {
		t.Fatalf("acme's one-page export: %+v", job)
	}
	// The bound is exportTimeout; the slack is for a loaded machine
	// (the one-page export itself, and the status polls).
	if waited > exportTimeout+20*time.Second {
		t.Errorf("acme's one-page export finished %v after it was queued behind the hostile job (exportTimeout %v)", waited, exportTimeout)
	}
	t.Logf("acme's one-page export finished %v after it was queued", waited.Round(time.Millisecond))

	got := evil.WaitExport(t, hostile)
	if got.Status != api.ExportFailed || !strings.Contains(got.Error, "exportTimeout") && !strings.Contains(got.Error, "longer than") {
		t.Errorf("hostile job: %+v, want failed at its exportTimeout", got)
	}
	if rss := peakRSS(t, srv.cmd.Process.Pid); rss > 512<<20 {
		t.Errorf("server peak RSS %d MiB, over the chart's 512 MiB", rss>>20)
	} else {
		t.Logf("server peak RSS %d MiB", rss>>20)
	}

	// A shutdown in the middle of a hostile page.
	again := evil.StartExport(t, api.StartExportRequest{Domain: "hostile.evil.test"}).JobID
	waitRunning(t, evil, again)
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	stopped := make(chan error, 1)
	go func() { stopped <- srv.cmd.Wait() }()
	select {
	case err := <-stopped:
		if err != nil {
			t.Errorf("exit after SIGTERM: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the server was still running 20 s after SIGTERM")
	}
}

// startEvilAndAcme starts the server as a process on the configuration
// in dir: settings, then the organization evil with the projects given
// (YAML list items) and acme with the demo site (apiservertest.WriteSites)
// as docs.acme.test.
func startEvilAndAcme(t *testing.T, dir, settings, evilProjects string) (*child, *apiservertest.Env, *apiservertest.Env) {
	t.Helper()
	evilKey, acmeKey := "dak_"+strings.Repeat("e0", 16), "dak_"+strings.Repeat("a1", 16)
	cfg := settings + fmt.Sprintf(`
organizations:
  - id: evil
    plan: enterprise
    apiKeys: [%q]
    projects:%s
  - id: acme
    plan: enterprise
    apiKeys: [%q]
    projects:
      - id: docs
        repository: https://git.example.com/acme/docs
        deployments:
          - {domain: docs.acme.test, source: ./site, kind: air-gapped}
`, evilKey, evilProjects, acmeKey)
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	args := fmt.Sprintf("--config %s --data-dir %s --addr %s", filepath.Join(dir, "config.yaml"), filepath.Join(dir, "data"), testutil.FreeAddr(t))
	srv := startChild(t, args)
	return srv, &apiservertest.Env{URL: srv.url, Key: evilKey}, &apiservertest.Env{URL: srv.url, Key: acmeKey}
}

func waitRunning(t *testing.T, e *apiservertest.Env, id string) {
	t.Helper()
	testutil.Eventually(t, apiservertest.ExportTimeout, "export "+id+" to run", func() bool {
		var job api.ExportJob
		call(t, "GET", e.URL+"/v1/static-export/jobs/"+id, e.Key, nil).decode(t, &job)
		return job.Status == api.ExportRunning
	})
}
