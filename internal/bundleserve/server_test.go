package bundleserve

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
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

// bundleOf runs an export on the reference server and returns a fresh link.
func bundleOf(t *testing.T, env *apiservertest.Env, paths ...string) api.Bundle {
	t.Helper()
	job := env.StartExportAndWait(t, api.StartExportRequest{Domain: env.Domain, Paths: paths})
	return env.Bundle(t, job.JobID)
}

type fixture struct {
	env     *apiservertest.Env
	urlFile string
	dataDir string
	srv     *Server
	site    *httptest.Server
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	return serveExport(t, "")
}

// serveExport serves the export of domain ("": the reference server's
// own) on a reference server started with opts.
func serveExport(t *testing.T, domain string, opts ...apiservertest.Option) *fixture {
	t.Helper()
	f := &fixture{env: apiservertest.Start(t, append([]apiservertest.Option{apiservertest.WithBundleTTL(10 * time.Minute)}, opts...)...)}
	dir := t.TempDir()
	f.urlFile, f.dataDir = filepath.Join(dir, "bundleUrl"), filepath.Join(dir, "data")
	if domain == "" {
		domain = f.env.Domain
	}
	job := f.env.StartExportAndWait(t, api.StartExportRequest{Domain: domain})
	f.setLink(t, f.env.Bundle(t, job.JobID).BundleURL)
	srv, err := New(Options{URLFile: f.urlFile, DataDir: f.dataDir})
	if err != nil {
		t.Fatal(err)
	}
	f.srv = srv
	if err := srv.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	f.site = httptest.NewServer(srv.Handler())
	t.Cleanup(f.site.Close)
	return f
}

func (f *fixture) setLink(t *testing.T, link string) {
	t.Helper()
	if err := os.WriteFile(f.urlFile, []byte(link+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) fetch(t *testing.T, p string) (int, string, string) {
	t.Helper()
	resp, err := http.Get(f.site.URL + p)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("X-Bundle-Version"), string(b)
}

func TestServe_pagesAndProbes(t *testing.T) {
	f := newFixture(t)
	v := f.srv.Version()
	for _, p := range []string{"/", "/index.html", "/quickstart", "/quickstart.html", "/guides/rates", "/" + api.ManifestFileName} {
		if code, got, _ := f.fetch(t, p); code != http.StatusOK || got != v {
			t.Errorf("%s: %d version %q", p, code, got)
		}
	}
	if code, _, body := f.fetch(t, "/no/such/page"); code != http.StatusNotFound || !strings.Contains(body, "<html") {
		t.Errorf("missing page: %d %q", code, body)
	}
	// Below the root, the 404 page climbs back up so its relative
	// stylesheet and links still resolve.
	if code, _, body := f.fetch(t, "/guides/gone/page"); code != http.StatusNotFound || !strings.Contains(body, `<head><base href="../../">`) {
		t.Errorf("nested missing page: %d %.200q", code, body)
	}
	if _, _, body := f.fetch(t, "/gone/"); !strings.Contains(body, `<base href="../">`) {
		t.Errorf("a missing directory needs a base one level up")
	}
	if _, _, body := f.fetch(t, "/gone"); strings.Contains(body, "<base") {
		t.Errorf("a 404 at the root needs no base")
	}
	if code, _, _ := f.fetch(t, "/../../etc/passwd"); code != http.StatusNotFound {
		t.Errorf("traversal: %d", code)
	}
	for _, p := range []string{"/healthz", "/readyz", "/livez"} {
		if code, _, _ := f.fetch(t, p); code != http.StatusOK {
			t.Errorf("%s: %d", p, code)
		}
	}
}

// TestServe_swapUnderLoad swaps in a new version while clients keep
// asking: every request is answered 200 from one version or the other, and
// the old version's files are deleted once it is retired.
func TestServe_swapUnderLoad(t *testing.T) {
	f := newFixture(t)
	v1, dir1 := f.srv.Version(), f.srv.current.Load().dir
	next := bundleOf(t, f.env, "index", "quickstart")
	var wg sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan string, 100)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 2000; i++ {
				select {
				case <-stop:
					return
				default:
				}
				resp, err := http.Get(f.site.URL + "/quickstart")
				if err != nil {
					errs <- err.Error()
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					errs <- resp.Status
					return
				}
			}
		}()
	}
	f.setLink(t, next.BundleURL)
	if err := f.srv.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	close(stop)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("request during swap: %s", e)
	}
	v2 := f.srv.Version()
	if v2 == v1 {
		t.Fatal("version did not change")
	}
	if _, got, _ := f.fetch(t, "/"); got != v2 {
		t.Fatalf("serving %q after swap, want %q", got, v2)
	}
	testutil.Eventually(t, 10*time.Second, "the old version to be deleted", func() bool {
		_, err := os.Stat(dir1)
		return os.IsNotExist(err)
	})
}

// TestServe_refusesBadBundles: a tampered archive and an expired link are
// both refused; the old site keeps serving and /healthz turns red until a
// good link arrives.
func TestServe_refusesBadBundles(t *testing.T) {
	f := newFixture(t)
	v := f.srv.Version()
	link := bundleOf(t, f.env)

	tampered := tamper(t, link.BundleURL)
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(tampered) }))
	defer evil.Close()
	f.setLink(t, evil.URL+"/bundle.tar.gz")
	if err := f.srv.Update(context.Background()); err == nil || !strings.Contains(err.Error(), "verify bundle") {
		t.Fatalf("tampered bundle: %v", err)
	}
	f.assertDegraded(t, v, "bundle-refused")

	// Same content, new link, but it expires before it is used.
	jobID := link.JobID
	stale := f.env.Bundle(t, jobID)
	f.env.Clock.Advance(11 * time.Minute)
	f.setLink(t, stale.BundleURL)
	err := f.srv.Update(context.Background())
	if err == nil || !strings.Contains(err.Error(), "403") || !strings.Contains(err.Error(), "expired") {
		t.Fatalf("expired link: %v", err)
	}
	if strings.Contains(err.Error(), "signature=") {
		t.Fatalf("error leaks the link: %v", err)
	}
	f.assertDegraded(t, v, "download-failed")

	f.setLink(t, f.env.Bundle(t, jobID).BundleURL)
	if err := f.srv.Update(context.Background()); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := f.fetch(t, "/healthz"); code != http.StatusOK {
		t.Fatalf("healthz after a good link: %d", code)
	}

	// A restart serves the last good site before fetching anything.
	again, err := New(Options{URLFile: f.urlFile, DataDir: f.dataDir})
	if err != nil {
		t.Fatal(err)
	}
	if again.Version() != f.srv.Version() {
		t.Fatalf("restart serves %q, want %q", again.Version(), f.srv.Version())
	}
}

func (f *fixture) assertDegraded(t *testing.T, version, reason string) {
	t.Helper()
	if code, got, _ := f.fetch(t, "/"); code != http.StatusOK || got != version {
		t.Fatalf("old site not serving: %d %q", code, got)
	}
	code, _, body := f.fetch(t, "/healthz")
	var probe map[string]string
	if err := json.Unmarshal([]byte(body), &probe); err != nil || code != http.StatusServiceUnavailable || probe["reason"] != reason {
		t.Fatalf("healthz: %d %s, want 503 with reason %s", code, body, reason)
	}
	if _, ok := probe["error"]; ok || strings.Contains(body, f.dataDir) {
		t.Fatalf("healthz relays an error or a path: %s", body)
	}
	if code, _, _ := f.fetch(t, "/readyz"); code != http.StatusOK {
		t.Fatalf("readyz while the old site serves: %d", code)
	}
}

// tamper downloads a bundle and changes one byte of index.html, keeping the
// manifest as it was.
func tamper(t *testing.T, link string) []byte {
	t.Helper()
	resp, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	gz, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	tw := tar.NewWriter(zw)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(tr)
		if hdr.Name == "index.html" {
			data = bytes.Replace(data, []byte("<html"), []byte("<HTML"), 1)
		}
		hdr.Size = int64(len(data))
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		_, _ = tw.Write(data)
	}
	_ = tw.Close()
	_ = zw.Close()
	return out.Bytes()
}

func TestUnpack_rejectsEscapes(t *testing.T) {
	for _, name := range []string{"../evil.html", "/abs.html", "a/../../b"} {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		tw := tar.NewWriter(zw)
		_ = tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: 1, Typeflag: tar.TypeReg})
		_, _ = tw.Write([]byte("x"))
		_ = tw.Close()
		_ = zw.Close()
		if _, err := unpack(&buf, t.TempDir()); err == nil {
			t.Errorf("%s: unpacked", name)
		}
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	_ = tw.WriteHeader(&tar.Header{Name: "link", Linkname: "/etc/passwd", Typeflag: tar.TypeSymlink})
	_ = tw.Close()
	_ = zw.Close()
	if _, err := unpack(&buf, t.TempDir()); err == nil {
		t.Error("symlink unpacked")
	}
}
