package provider

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/distribution/distribution/v3/configuration"
	"github.com/distribution/distribution/v3/registry/handlers"

	// The in-memory storage driver registers itself for "inmemory".
	_ "github.com/distribution/distribution/v3/registry/storage/driver/inmemory"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/sirupsen/logrus"
)

// Media types of a Helm chart in an OCI registry, as Helm pushes it.
const (
	helmConfigType = "application/vnd.cncf.helm.config.v1+json"
	helmLayerType  = "application/vnd.cncf.helm.chart.content.v1.tar+gzip"
)

// ociChartRegistry starts the distribution project's registry in-process
// on 127.0.0.1 with in-memory storage, pushes the chart in dir as
// name:version, and returns its oci:// reference without a tag and a
// count of manifest fetches. The push speaks the OCI distribution API
// directly: the provider's tests may not import Helm.
func ociChartRegistry(t *testing.T, dir, name, version string) (string, *atomic.Int64) {
	t.Helper()
	cfg := &configuration.Configuration{}
	cfg.Storage = configuration.Storage{"inmemory": configuration.Parameters{}}
	logrus.SetOutput(io.Discard) // the registry logs every request
	var pulls atomic.Int64
	app := handlers.NewApp(context.Background(), cfg)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/manifests/") {
			pulls.Add(1)
		}
		app.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)

	repo := "charts/" + name
	config, err := json.Marshal(map[string]string{"apiVersion": "v2", "name": name, "version": version})
	if err != nil {
		t.Fatal(err)
	}
	layer := packageChart(t, dir, name)
	manifest, err := json.Marshal(map[string]any{
		"schemaVersion": 2,
		"mediaType":     "application/vnd.oci.image.manifest.v1+json",
		"config":        pushBlob(t, srv.URL, repo, helmConfigType, config),
		"layers":        []any{pushBlob(t, srv.URL, repo, helmLayerType, layer)},
	})
	if err != nil {
		t.Fatal(err)
	}
	ociDo(t, http.MethodPut, srv.URL+"/v2/"+repo+"/manifests/"+version, "application/vnd.oci.image.manifest.v1+json",
		manifest, http.StatusCreated)
	return "oci://" + strings.TrimPrefix(srv.URL, "http://") + "/" + repo, &pulls
}

// pushBlob uploads data in one PUT and returns its descriptor.
func pushBlob(t *testing.T, base, repo, mediaType string, data []byte) map[string]any {
	t.Helper()
	sum := sha256.Sum256(data)
	digest := "sha256:" + hex.EncodeToString(sum[:])
	resp := ociDo(t, http.MethodPost, base+"/v2/"+repo+"/blobs/uploads/", "", nil, http.StatusAccepted)
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	loc = must(url.Parse(base)).ResolveReference(loc)
	q := loc.Query()
	q.Set("digest", digest)
	loc.RawQuery = q.Encode()
	ociDo(t, http.MethodPut, loc.String(), "application/octet-stream", data, http.StatusCreated)
	return map[string]any{"mediaType": mediaType, "digest": digest, "size": len(data)}
}

// ociDo sends one registry request and fails the test on another status.
func ociDo(t *testing.T, method, u, contentType string, body []byte, want int) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, u, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != want {
		msg, _ := io.ReadAll(resp.Body)
		t.Fatalf("%s %s: %s %s", method, u, resp.Status, msg)
	}
	return resp
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// An oci:// chart at chart_version is pulled over plain HTTP from the
// registry and installed.
func TestAccStaticExportRollout_chartFromOCIRegistry(t *testing.T) {
	e := newRolloutEnv(t)
	for _, v := range []string{"HELM_CACHE_HOME", "HELM_CONFIG_HOME", "HELM_DATA_HOME"} {
		t.Setenv(v, t.TempDir())
	}
	version := chartVersion(t, e.chart)
	ref, pulls := ociChartRegistry(t, e.chart, "docsadmin-self-hosted", version)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories,
		Steps: []resource.TestStep{{
			Config: e.config(fmt.Sprintf(`
resource "docsadmin_static_export_rollout" "docs" {
  release         = %q
  namespace       = %q
  kubeconfig_path = %q
  chart           = %q
  chart_version   = %q
  plain_http      = true
  install         = true
  atomic          = false
  bundle_url      = "https://bundles.example.com/b.tar.gz?signature=x"
  version         = "v1"
}
`, rolloutRelease, e.ns, e.cluster.Kubeconfig, ref, version)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("revision"), knownvalue.Int64Exact(1)),
				statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("status"), knownvalue.StringExact("deployed")),
			},
		}},
	})
	if s := e.current(t); s.Chart != "docsadmin-self-hosted-"+version {
		t.Errorf("release runs chart %s", s.Chart)
	}
	if pulls.Load() == 0 {
		t.Error("the chart's manifest was never fetched from the registry")
	}
}
