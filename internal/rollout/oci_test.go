package rollout

import (
	"context"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/distribution/distribution/v3/configuration"
	"github.com/distribution/distribution/v3/registry/handlers"
	// The in-memory storage driver registers itself for "inmemory".
	_ "github.com/distribution/distribution/v3/registry/storage/driver/inmemory"
	"github.com/sirupsen/logrus"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/registry"
)

// ociRegistry starts an OCI registry in-process on 127.0.0.1 (the
// distribution project's, with in-memory storage; Helm tests its registry
// client against the same one) and pushes the reference chart at each of
// versions with Helm's registry client. It returns the chart's oci://
// reference without a tag.
func ociRegistry(t *testing.T, versions ...string) string {
	t.Helper()
	cfg := &configuration.Configuration{}
	cfg.Storage = configuration.Storage{"inmemory": configuration.Parameters{}}
	// The registry logs every request through logrus's standard logger;
	// only this test package's process is affected.
	logrus.SetOutput(io.Discard)
	srv := httptest.NewServer(handlers.NewApp(context.Background(), cfg))
	t.Cleanup(srv.Close)
	host := strings.TrimPrefix(srv.URL, "http://")

	rc, err := registry.NewClient(registry.ClientOptPlainHTTP(), registry.ClientOptWriter(testWriter{t}))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, v := range versions {
		ch, err := loader.Load(chartPath)
		if err != nil {
			t.Fatal(err)
		}
		ch.Metadata.Version = v
		path, err := chartutil.Save(ch, dir)
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Clean(path))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := rc.Push(data, host+"/charts/docsadmin-self-hosted:"+v); err != nil {
			t.Fatalf("push %s: %v", v, err)
		}
	}
	return "oci://" + host + "/charts/docsadmin-self-hosted"
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

func TestApply_chartFromOCIRegistry(t *testing.T) {
	isolateHelm(t)
	ref := ociRegistry(t, "0.1.0", "0.2.0")
	f := newFixture(t)

	req := request()
	req.Install, req.Chart, req.ChartVersion, req.ChartPlainHTTP = true, ref, "0.1.0", true
	if _, err := f.r.Apply(t.Context(), req); err != nil {
		t.Fatalf("install 0.1.0 from the registry: %v", err)
	}
	if s := f.current(); s.Chart != "docsadmin-self-hosted-0.1.0" {
		t.Fatalf("installed %s, want 0.1.0", s.Chart)
	}
	req.ChartVersion = "0.2.0"
	if _, err := f.r.Apply(t.Context(), req); err != nil {
		t.Fatalf("upgrade to 0.2.0: %v", err)
	}
	if s := f.current(); s.Chart != "docsadmin-self-hosted-0.2.0" || s.Revision != 2 {
		t.Fatalf("after the upgrade: %+v", s)
	}
	req.ChartVersion = "9.9.9"
	if _, err := f.r.Apply(t.Context(), req); err == nil || !strings.Contains(err.Error(), "9.9.9") {
		t.Fatalf("unknown tag: err = %v", err)
	}
}
