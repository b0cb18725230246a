package provider

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// chartRepo is a Helm chart repository served on 127.0.0.1: an index.yaml
// and one packaged chart, as `helm package` and `helm repo index` lay them
// out. The archive is built here with the standard library because the
// provider's tests do not import Helm.
type chartRepo struct {
	URL, Name, Version string
	// Downloads counts requests for the archive, to show the chart came
	// from the repository.
	Downloads atomic.Int64
}

// serveChartRepo packages the chart in dir as name-version.tgz and serves it.
func serveChartRepo(t *testing.T, dir, name, version string) *chartRepo {
	t.Helper()
	archive := packageChart(t, dir, name)
	file := fmt.Sprintf("%s-%s.tgz", name, version)
	repo := &chartRepo{Name: name, Version: version}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /index.yaml", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, `apiVersion: v1
entries:
  %[1]s:
  - apiVersion: v2
    name: %[1]s
    version: %[2]s
    kubeVersion: ">=1.27.0-0"
    urls:
    - %[3]s
generated: "2026-01-01T00:00:00Z"
`, name, version, file)
	})
	mux.HandleFunc("GET /"+file, func(w http.ResponseWriter, _ *http.Request) {
		repo.Downloads.Add(1)
		w.Header().Set("Content-Type", "application/gzip")
		_, _ = w.Write(archive)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	repo.URL = srv.URL
	// Helm keeps repository indexes and charts in its cache: keep them out
	// of the developer's.
	for _, v := range []string{"HELM_CACHE_HOME", "HELM_CONFIG_HOME", "HELM_DATA_HOME"} {
		t.Setenv(v, t.TempDir())
	}
	return repo
}

// packageChart tars and gzips dir below a top directory named name.
func packageChart(t *testing.T, dir, name string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		hdr := &tar.Header{Name: path.Join(name, filepath.ToSlash(rel)), Mode: 0o644, Size: int64(len(data))}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		_, err = tw.Write(data)
		return err
	})
	if err == nil {
		err = tw.Close()
	}
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		t.Fatalf("package chart %s: %v", dir, err)
	}
	return buf.Bytes()
}
