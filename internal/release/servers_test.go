package release_test

import (
	"archive/zip"
	"bufio"
	"context"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/releasetest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// host addresses the release's packages are served under by the network
// mirror: both CLIs' default registries, so one server serves both.
var mirrorHosts = []string{"registry.terraform.io", "registry.opentofu.org"}

// serveRelease serves r over HTTPS on loopback as a provider network
// mirror (under /mirror/) and as a provider registry (service discovery,
// versions and download with signed checksums, at the root), and returns
// the server and a CA file the CLIs trust it through (SSL_CERT_FILE).
func serveRelease(t *testing.T, r releasetest.Release) (*httptest.Server, string) {
	t.Helper()
	sums := r.Sums(t)
	key, err := os.ReadFile(filepath.Join(r.Dir, "signing-key.asc"))
	if err != nil {
		t.Fatal(err)
	}
	platforms := releasePlatforms(t, r)
	mux := http.NewServeMux()
	var srv *httptest.Server
	writeJSON := func(w http.ResponseWriter, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
	}
	// The network mirror protocol: index.json lists versions, <version>.json
	// each platform's package with its zh: hash (SHA256SUMS' digest).
	for _, host := range mirrorHosts {
		base := "/mirror/" + host + "/docsadmin/docsadmin/"
		mux.HandleFunc("GET "+base+"index.json", func(w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, map[string]any{"versions": map[string]any{r.Version: map[string]any{}}})
		})
		mux.HandleFunc("GET "+base+r.Version+".json", func(w http.ResponseWriter, _ *http.Request) {
			archives := map[string]any{}
			for _, p := range platforms {
				name := filepath.Base(r.Zip(p))
				archives[p] = map[string]any{"url": "/files/" + name, "hashes": []string{"zh:" + sums[name]}}
			}
			writeJSON(w, map[string]any{"archives": archives})
		})
	}
	// The registry protocol for the host 127.0.0.1:<port>.
	mux.HandleFunc("GET /.well-known/terraform.json", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, map[string]string{"providers.v1": "/v1/providers/"})
	})
	mux.HandleFunc("GET /v1/providers/docsadmin/docsadmin/versions", func(w http.ResponseWriter, _ *http.Request) {
		var ps []map[string]string
		for _, p := range platforms {
			os, arch, _ := strings.Cut(p, "_")
			ps = append(ps, map[string]string{"os": os, "arch": arch})
		}
		writeJSON(w, map[string]any{"versions": []any{map[string]any{
			"version": r.Version, "protocols": []string{"6.0"}, "platforms": ps}}})
	})
	mux.HandleFunc("GET /v1/providers/docsadmin/docsadmin/{version}/download/{os}/{arch}", func(w http.ResponseWriter, req *http.Request) {
		p := req.PathValue("os") + "_" + req.PathValue("arch")
		name := filepath.Base(r.Zip(p))
		if req.PathValue("version") != r.Version || sums[name] == "" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_, _ = io.WriteString(w, `{"errors":["not found"]}`)
			return
		}
		sumsName := filepath.Base(r.SumsFile())
		writeJSON(w, map[string]any{
			"protocols": []string{"6.0"}, "os": req.PathValue("os"), "arch": req.PathValue("arch"),
			"filename": name, "download_url": srv.URL + "/files/" + name, "shasum": sums[name],
			"shasums_url": srv.URL + "/files/" + sumsName, "shasums_signature_url": srv.URL + "/files/" + sumsName + ".sig",
			"signing_keys": map[string]any{"gpg_public_keys": []any{map[string]string{
				"key_id": signingKeyID(t, key), "ascii_armor": string(key)}}},
		})
	})
	mux.Handle("GET /files/", http.StripPrefix("/files/", http.FileServer(http.Dir(r.Dir))))
	srv = httptest.NewTLSServer(mux)
	t.Cleanup(srv.Close)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	return srv, ca
}

// releasePlatforms are the <os>_<arch> of the snapshot's zips.
func releasePlatforms(t *testing.T, r releasetest.Release) []string {
	t.Helper()
	prefix := "terraform-provider-docsadmin_" + r.Version + "_"
	var ps []string
	for name := range r.Sums(t) {
		if strings.HasPrefix(name, prefix) && strings.HasSuffix(name, ".zip") {
			ps = append(ps, strings.TrimSuffix(strings.TrimPrefix(name, prefix), ".zip"))
		}
	}
	if len(ps) == 0 {
		t.Fatal("SHA256SUMS lists no zips")
	}
	return ps
}

// releaseBinary unpacks this machine's binary from the release's zip.
func releaseBinary(t *testing.T, r releasetest.Release) string {
	t.Helper()
	zr, err := zip.OpenReader(r.Zip(r.Platform))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	if len(zr.File) != 1 || zr.File[0].Name != "terraform-provider-docsadmin_v"+r.Version {
		t.Fatalf("the zip should hold terraform-provider-docsadmin_v%s alone, holds %d files, the first %q", r.Version, len(zr.File), zr.File[0].Name)
	}
	rc, err := zr.File[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	bin := filepath.Join(t.TempDir(), "terraform-provider-docsadmin_v"+r.Version)
	f, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o700) //nolint:gosec // G302: an executable the test runs
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(f, rc); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return bin
}

// startAPIServer runs the release's own binary as the reference server on
// a free loopback port until the test ends, and returns its URL and key.
func startAPIServer(t *testing.T, bin string) (url, key string) {
	t.Helper()
	data := filepath.Join(t.TempDir(), "apiserver")
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "apiserver", "--addr", "127.0.0.1:0", "--data-dir", data)
	cmd.SysProcAttr = testutil.ServerProcAttr()
	var stderr testutil.SyncBuffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = cmd.Wait() })
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "listening on "); ok {
				lines <- u
			}
		}
	}()
	select {
	case url = <-lines:
	case <-time.After(time.Minute):
		t.Fatalf("the release's apiserver did not start within a minute:\n%s", stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(data, "admin-key"))
	if err != nil {
		t.Fatal(err)
	}
	return url, strings.TrimSpace(string(b))
}
