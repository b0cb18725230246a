package rollout

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/repo"
)

// isolateHelm points Helm's cache, config and data directories into the
// test's temporary directory, so that no test reads or fills ~/.cache/helm.
func isolateHelm(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("HELM_CACHE_HOME", filepath.Join(dir, "cache"))
	t.Setenv("HELM_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("HELM_DATA_HOME", filepath.Join(dir, "data"))
}

// chartRepo serves a chart repository on 127.0.0.1: the reference chart
// packaged at each of versions, and the index.yaml listing them.
func chartRepo(t *testing.T, versions ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, v := range versions {
		ch, err := loader.Load(chartPath)
		if err != nil {
			t.Fatal(err)
		}
		ch.Metadata.Version = v
		if _, err := chartutil.Save(ch, dir); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	idx, err := repo.IndexDirectory(dir, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if err := idx.WriteFile(filepath.Join(dir, "index.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	return srv.URL
}

func TestApply_chartFromRepository(t *testing.T) {
	isolateHelm(t)
	url := chartRepo(t, "0.1.0", "0.2.0")
	f := newFixture(t)

	req := request()
	req.Install, req.Chart, req.ChartRepo, req.ChartVersion = true, "docsadmin-self-hosted", url, "0.1.0"
	if _, err := f.r.Apply(t.Context(), req); err != nil {
		t.Fatalf("install 0.1.0 from the repository: %v", err)
	}
	if s := f.current(); s.Chart != "docsadmin-self-hosted-0.1.0" {
		t.Fatalf("installed %s, want 0.1.0", s.Chart)
	}

	// No version: the newest, and the same values otherwise.
	req.ChartVersion = ""
	res, err := f.r.Apply(t.Context(), req)
	if err != nil {
		t.Fatalf("upgrade to the newest: %v", err)
	}
	if s := f.current(); s.Chart != "docsadmin-self-hosted-0.2.0" || !res.Changed {
		t.Fatalf("after the upgrade: %+v %+v, want 0.2.0", s, res)
	}
	// Asked again: the release runs that chart already.
	if res, err := f.r.Apply(t.Context(), req); err != nil || res.Changed {
		t.Fatalf("second run = %+v, %v; want no change", res, err)
	}

	for _, tc := range []struct {
		name, chart, repo, version, want string
	}{
		{"unknown version", "docsadmin-self-hosted", url, "9.9.9", "9.9.9"},
		{"unknown chart", "nope", url, "", "nope"},
		{"repository down", "docsadmin-self-hosted", "http://127.0.0.1:1", "", "127.0.0.1:1"},
		{"version of a local chart", chartPath, "", "0.1.0", "needs a chart repository"},
		{"oci with a repository", "oci://127.0.0.1:1/charts/x", url, "", "takes no chart repository"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := request()
			req.Version = "v-" + tc.name
			req.Chart, req.ChartRepo, req.ChartVersion = tc.chart, tc.repo, tc.version
			_, err := f.r.Apply(t.Context(), req)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one naming %q", err, tc.want)
			}
			if s := f.current(); s.Revision != 2 {
				t.Errorf("a failed chart lookup made revision %d", s.Revision)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(os.Getenv("HELM_CACHE_HOME"), "repository")); err != nil {
		t.Errorf("the chart was not cached under HELM_CACHE_HOME: %v", err)
	}
}
