package apiserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiservercmd"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/cli"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/s3test"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// The restart test runs the server as a separate process, so that it can
// be killed with SIGKILL: the test binary re-executes itself with this
// variable set and runs the apiserver command instead of the tests.
const childEnv = "DOCSADMIN_TEST_APISERVER_ARGS"

func TestMain(m *testing.M) {
	if args := os.Getenv(childEnv); args != "" {
		os.Exit(apiservercmd.Command(context.Background(), strings.Fields(args), os.Stdout, os.Stderr))
	}
	// Stops the PostgreSQL cluster and the MinIO server, if tests started them.
	os.Exit(s3test.Wrap(func() int { return pgtest.Main(m) }))
}

type child struct {
	cmd *exec.Cmd
	url string
}

func startChild(t *testing.T, args string) *child {
	t.Helper()
	return startChildLogging(t, args, os.Stderr)
}

// startChildLogging is startChild with the server's log going to stderr;
// a file keeps every line the server wrote before a SIGKILL.
func startChildLogging(t *testing.T, args string, stderr *os.File) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+args, "DOCSADMIN_LOG_LEVEL=warn")
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	// The scanner reads to the end, so the child never blocks on a full
	// pipe, and hands over the first address it announces.
	addr := make(chan string, 1)
	go func() {
		defer close(addr)
		sc := bufio.NewScanner(out)
		announced := false
		for sc.Scan() {
			if u, found := strings.CutPrefix(sc.Text(), "listening on "); found && !announced {
				addr <- u
				announced = true
			}
		}
	}()
	select {
	case u, ok := <-addr:
		if !ok {
			t.Fatal("server exited before listening")
		}
		return &child{cmd: cmd, url: u}
	case <-time.After(30 * time.Second):
		t.Fatal("server did not start within 30s")
	}
	return nil
}

// writeLargeSite writes a docs source with n pages, big enough that an
// export is still running when the test kills the server.
func writeLargeSite(t testing.TB, dir string, n int) {
	t.Helper()
	var pages []string
	for i := range n {
		name := fmt.Sprintf("p/page%04d", i)
		pages = append(pages, `"`+name+`"`)
		body := fmt.Sprintf("---\ntitle: Page %d\n---\n\n# Page %d\n\n%s\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```go\nfunc f%d() {}\n```\n",
			i, i, strings.Repeat("Some words about the product and its settings. ", 30), i)
		if err := os.MkdirAll(filepath.Join(dir, "p"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".mdx"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	docs := `{"name": "Large", "navigation": {"groups": [{"group": "All", "pages": [` + strings.Join(pages, ",") + `]}]}}`
	if err := os.WriteFile(filepath.Join(dir, "docs.json"), []byte(docs), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRestart_killMidExport kills the server with SIGKILL while one export
// renders and another waits, restarts it on the same data dir, and checks
// that nothing was lost: both jobs complete, and a link issued before the
// crash still downloads. On PostgreSQL and S3 the restarted server takes
// the killed one's job over once its lease (2 s here) has lapsed, and the
// link from before the crash is the store's own.
func TestRestart_killMidExport(t *testing.T) {
	t.Run("bbolt", func(t *testing.T) { killMidExport(t, 1500, "", "") })
	t.Run("postgres+s3", func(t *testing.T) {
		b := s3test.Start(t)
		b.SetEnv(t)
		// Uploading the site makes an export slower, so fewer pages keep
		// it running until the kill.
		killMidExport(t, 1000, fmt.Sprintf(" --database-url %s --object-store %s", pgtest.DB(t), b.URL()), "exportLease: 2s\n")
	})
}

func killMidExport(t *testing.T, pages int, storageArgs, extraConfig string) {
	dir := t.TempDir()
	apiservertest.WriteSites(t, dir)
	writeLargeSite(t, filepath.Join(dir, "large"), pages)
	key := "dak_" + strings.Repeat("ab", 16)
	cfg := extraConfig + fmt.Sprintf(`
exportWorkers: 1
organizations:
  - id: acme
    plan: enterprise
    apiKeys: [%q]
    projects:
      - id: docs
        repository: https://git.example.com/acme/docs
        deployments:
          - {domain: small.acme.test, source: ./site, kind: air-gapped}
          - {domain: large.acme.test, source: ./large, kind: air-gapped}
`, key)
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	args := fmt.Sprintf("--config %s --data-dir %s --addr %s", filepath.Join(dir, "config.yaml"), filepath.Join(dir, "data"), testutil.FreeAddr(t)) + storageArgs
	env := &apiservertest.Env{Key: key, Domain: "small.acme.test"}

	first := startChild(t, args)
	env.URL = first.url
	small := completedExport(t, env)
	link := env.Bundle(t, small)
	large := env.StartExport(t, api.StartExportRequest{Domain: "large.acme.test"}).JobID
	queued := env.StartExport(t, api.StartExportRequest{Domain: "large.acme.test", Paths: []string{"p/page0001"}}).JobID
	testutil.Eventually(t, apiservertest.ExportTimeout, "the large export to run", func() bool {
		var job api.ExportJob
		call(t, "GET", env.URL+"/v1/static-export/jobs/"+large, key, nil).decode(t, &job)
		if job.Status != api.ExportQueued && job.Status != api.ExportRunning {
			t.Fatalf("large export never seen running: %+v", job)
		}
		return job.Status == api.ExportRunning && job.PageCount > 0
	})
	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = first.cmd.Wait()

	second := startChild(t, args)
	env.URL = second.url
	download(t, link.BundleURL, link.SizeBytes)
	for _, id := range []string{large, queued} {
		job := env.WaitExport(t, id)
		if job.Status != api.ExportCompleted {
			t.Fatalf("job %s after restart: %+v", id, job)
		}
		b := env.Bundle(t, id)
		if man := download(t, b.BundleURL, b.SizeBytes); man.PageCount != job.PageCount {
			t.Fatalf("job %s: manifest has %d pages, job %d", id, man.PageCount, job.PageCount)
		}
	}

	// SIGTERM stops the server cleanly.
	if err := second.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := second.cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v", err)
	}
}

// TestCommand_demo starts the embedded demo the way a new user does and
// checks that the generated key works, is stored privately, and is reused
// after a restart.
func TestCommand_demo(t *testing.T) {
	dataDir := filepath.Join(t.TempDir(), "demo")
	args := "--data-dir " + dataDir + " --addr 127.0.0.1:0"
	c := startChild(t, args)
	st, err := os.Stat(filepath.Join(dataDir, "admin-key"))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("admin key file: %v %v", st, err)
	}
	raw, err := os.ReadFile(filepath.Join(dataDir, "admin-key"))
	if err != nil {
		t.Fatal(err)
	}
	env := &apiservertest.Env{URL: c.url, Key: strings.TrimSpace(string(raw)), Domain: apiserver.DemoDomain}
	id := completedExport(t, env)
	b := env.Bundle(t, id)
	man := download(t, b.BundleURL, b.SizeBytes)
	if man.PageCount < 5 {
		t.Fatalf("demo site exported only %d pages", man.PageCount)
	}
	r := call(t, "POST", c.url+"/v2/agent/"+apiserver.DemoProject+"/job", env.Key, map[string]string{"prompt": "hello"})
	if r.status != http.StatusCreated {
		t.Fatalf("demo agent job: %d %s", r.status, r.body)
	}
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	_ = c.cmd.Wait()

	again := startChild(t, args)
	if r := call(t, "GET", again.url+"/v1/static-export/jobs/"+id, env.Key, nil); r.status != http.StatusOK {
		t.Fatalf("demo key or job lost after restart: %d %s", r.status, r.body)
	}
}

// TestCommand_shutdownReleasesDataDir stops the command the way SIGTERM
// does (its context ends) and checks that the next server can open the same
// data dir at once: a graceful shutdown closes the store.
func TestCommand_shutdownReleasesDataDir(t *testing.T) {
	// The flag below must win over a level in the environment, even one
	// that would be refused on its own.
	t.Setenv(cli.EnvLogLevel, "loud")
	dataDir := filepath.Join(t.TempDir(), "demo")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	pr, pw := io.Pipe()
	exited := make(chan int, 1)
	go func() {
		code := apiservercmd.Command(ctx, []string{"--data-dir", dataDir, "--addr", "127.0.0.1:0", "--log-level", "warn"}, pw, io.Discard)
		_ = pw.Close()
		exited <- code
	}()
	listening := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		found := false
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "listening on ") && !found {
				found = true
				listening <- true
			}
		}
		close(listening)
	}()
	select {
	case ok := <-listening:
		if !ok {
			t.Fatalf("server exited before listening (code %d)", <-exited)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("server did not start within 30s")
	}
	cancel()
	select {
	case code := <-exited:
		if code != 0 {
			t.Fatalf("exit code %d after shutdown", code)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("server did not stop within 30s")
	}
	raw, err := os.ReadFile(filepath.Join(dataDir, "admin-key"))
	if err != nil {
		t.Fatal(err)
	}
	next, err := apiserver.New(t.Context(), apiserver.Options{Config: apiserver.DemoConfig(strings.TrimSpace(string(raw))), DataDir: dataDir, PublicURL: "http://127.0.0.1"})
	if err != nil {
		t.Fatalf("data dir not released by the shutdown: %v", err)
	}
	if err := next.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestOpenAPI_coversRoutes checks that the published document describes
// every operation the server registers (apiserver.Routes), and only those.
func TestOpenAPI_coversRoutes(t *testing.T) {
	env := apiservertest.Start(t)
	r := call(t, "GET", env.URL+"/openapi.json", "", nil)
	var doc struct {
		OpenAPI string `json:"openapi"`
		Info    struct {
			Version string `json:"version"`
		} `json:"info"`
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	r.decode(t, &doc)
	if !strings.HasPrefix(doc.OpenAPI, "3.") || doc.Info.Version != api.APIVersion {
		t.Fatalf("openapi %q version %q", doc.OpenAPI, doc.Info.Version)
	}
	documented := map[string]bool{}
	for p, item := range doc.Paths {
		for key := range item {
			// A path item also holds summary, parameters and the like.
			if m := strings.ToUpper(key); openAPIMethods[m] {
				documented[m+" "+p] = true
			}
		}
	}
	registered := map[string]bool{}
	for _, rt := range apiserver.Routes() {
		registered[rt.Method+" "+rt.Pattern] = true
	}
	for op := range registered {
		if !documented[op] {
			t.Errorf("the server registers %s, which openapi.json lacks", op)
		}
	}
	for op := range documented {
		if !registered[op] {
			t.Errorf("openapi.json describes %s, which the server does not register", op)
		}
	}
}

// openAPIMethods are the operation keys of an OpenAPI 3 path item.
var openAPIMethods = map[string]bool{"GET": true, "PUT": true, "POST": true, "DELETE": true,
	"OPTIONS": true, "HEAD": true, "PATCH": true, "TRACE": true}

// Every route in Routes is really served: none of them falls through to
// the JSON 404 for unknown paths or the 405 for a wrong method.
func TestRoutes_areRegistered(t *testing.T) {
	env := apiservertest.Start(t)
	for _, rt := range apiserver.Routes() {
		path := api.FillPath(rt.Pattern, map[string]string{"projectId": "p", "id": "x", "jobId": "se_0123456789abcdef",
			"file": api.BundleFileName})
		req, err := http.NewRequest(rt.Method, env.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body api.Error
		_ = json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusMethodNotAllowed || strings.HasPrefix(body.Error, "no such endpoint") {
			t.Errorf("%s %s: %d %q, want the route's own answer", rt.Method, path, resp.StatusCode, body.Error)
		}
	}
}
