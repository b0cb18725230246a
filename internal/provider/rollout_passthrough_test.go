package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
)

// chartVersion reads the reference chart's version from its Chart.yaml, so
// the repository serves what the directory holds.
func chartVersion(t *testing.T, dir string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "Chart.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^version:\s*"?([^"\s]+)"?\s*$`).FindSubmatch(raw)
	if m == nil {
		t.Fatalf("no version in %s/Chart.yaml", dir)
	}
	return string(m[1])
}

// A chart named in a chart repository is downloaded from it and installed
// into a namespace that create_namespace creates; without
// create_namespace the missing namespace is an error.
func TestAccStaticExportRollout_chartFromRepositoryCreatesNamespace(t *testing.T) {
	e := newRolloutEnv(t)
	repo := serveChartRepo(t, e.chart, "docsadmin-self-hosted", chartVersion(t, e.chart))
	const ns = "docs-from-repo"
	config := func(create bool) string {
		return e.config(fmt.Sprintf(`
resource "docsadmin_static_export_rollout" "docs" {
  release          = %q
  namespace        = %q
  kubeconfig_path  = %q
  chart            = %q
  chart_repository = %q
  chart_version    = %q
  install          = true
  create_namespace = %t
  atomic           = false
  bundle_url       = "https://bundles.example.com/b.tar.gz?signature=x"
  version          = "v1"
}
`, rolloutRelease, ns, e.cluster.Kubeconfig, repo.Name, repo.URL, repo.Version, create))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories,
		Steps: []resource.TestStep{
			{
				Config:      config(false),
				ExpectError: regexp.MustCompile(`(?s)Unable to Upgrade Release.*namespaces? "?` + ns + `"? not found`),
			},
			{
				Config: config(true),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("id"), knownvalue.StringExact(ns+"/"+rolloutRelease)),
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("revision"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("status"), knownvalue.StringExact("deployed")),
				},
			},
		},
	})
	if _, err := e.cs.CoreV1().Namespaces().Get(t.Context(), ns, metav1.GetOptions{}); err != nil {
		t.Errorf("namespace %s: %v", ns, err)
	}
	roller, err := rollout.New(rollout.Config{Kubeconfig: e.cluster.Kubeconfig, Namespace: ns}, hclog.NewNullLogger())
	if err != nil {
		t.Fatal(err)
	}
	s, err := roller.Current(t.Context(), rolloutRelease)
	if err != nil {
		t.Fatal(err)
	}
	if want := repo.Name + "-" + repo.Version; s.Chart != want || s.Version != "v1" {
		t.Errorf("release runs chart %s with version %q, want %s with v1", s.Chart, s.Version, want)
	}
	if repo.Downloads.Load() == 0 {
		t.Error("the chart archive was never downloaded from the repository")
	}
}

// rolloutRevisionLabel is the label internal/rollout puts on the revisions
// it creates (unexported there), which recover_pending looks for.
const rolloutRevisionLabel = "docsadmin.dev/rollout-revision"

// stickPending records revision from+1 as pending-upgrade, started an hour
// ago by this tool, on top of revision from: what a run killed during its
// wait leaves (a live run cannot be killed from inside the test's process
// without killing the test). Helm's Secret driver keeps the release as
// base64 of gzipped JSON, and its status and custom labels on the Secret.
func (e *rolloutEnv) stickPending(t *testing.T, from int) {
	t.Helper()
	ctx := t.Context()
	secrets := e.cs.CoreV1().Secrets(e.ns)
	sec, err := secrets.Get(ctx, fmt.Sprintf("sh.helm.release.v1.%s.v%d", rolloutRelease, from), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rel := decodeRelease(t, sec.Data["release"])
	next := strconv.Itoa(from + 1)
	rel["version"] = from + 1
	info, _ := rel["info"].(map[string]any)
	info["status"] = "pending-upgrade"
	info["last_deployed"] = time.Now().Add(-time.Hour).Format(time.RFC3339)
	info["description"] = "Upgrade in progress"
	sec.ObjectMeta = metav1.ObjectMeta{Name: fmt.Sprintf("sh.helm.release.v1.%s.v%s", rolloutRelease, next),
		Labels: map[string]string{"name": rolloutRelease, "owner": "helm", "status": "pending-upgrade", "version": next,
			rolloutRevisionLabel: next}}
	sec.Data = map[string][]byte{"release": encodeRelease(t, rel)}
	if _, err := secrets.Create(ctx, sec, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if s := e.current(t); s.Status != "pending-upgrade" || s.Revision != from+1 {
		t.Fatalf("the forged revision reads as %d %s", s.Revision, s.Status)
	}
}

// A release stuck in pending-upgrade by an earlier run of this tool is an
// error naming the recovery; with recover_pending it is rolled back and
// the apply goes through.
func TestAccStaticExportRollout_recoverPending(t *testing.T) {
	e := newParallelRolloutEnv(t)
	res, err := e.roller.Apply(t.Context(), rollout.Request{Release: rolloutRelease, Chart: e.chart, Install: true,
		OnFailure: rollout.KeepFailed, BundleURL: "https://bundles.example.com/b.tar.gz?signature=x", Version: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	e.stickPending(t, res.Revision)
	config := func(recoverPending bool) string {
		return e.config(fmt.Sprintf(`
resource "docsadmin_static_export_rollout" "docs" {
  release         = %q
  namespace       = %q
  kubeconfig_path = %q
  atomic          = false
  recover_pending = %t
  bundle_url      = "https://bundles.example.com/b.tar.gz?signature=y"
  version         = "v2"
}
`, rolloutRelease, e.ns, e.cluster.Kubeconfig, recoverPending))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories,
		Steps: []resource.TestStep{
			{
				Config: config(false),
				ExpectError: regexp.MustCompile(fmt.Sprintf(`(?s)Helm Release Has a Pending Operation.*pending-upgrade.*helm rollback %s %d`,
					rolloutRelease, res.Revision)),
			},
			{
				Config: config(true),
				ConfigStateChecks: []statecheck.StateCheck{
					// 2 pending, marked failed; 3 the rollback to 1; 4 ours.
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("revision"), knownvalue.Int64Exact(int64(res.Revision+3))),
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("status"), knownvalue.StringExact("deployed")),
					statecheck.ExpectKnownValue(rolloutAddr, tfjsonpath.New("version"),
						knownvalue.StringFunc(e.releaseHas(t, func(s *rollout.State) string { return s.Version }))),
				},
			},
		},
	})
	stuck, err := e.cs.CoreV1().Secrets(e.ns).Get(t.Context(),
		fmt.Sprintf("sh.helm.release.v1.%s.v%d", rolloutRelease, res.Revision+1), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := stuck.Labels["status"]; got != "failed" {
		t.Errorf("the pending revision is now %s, want failed", got)
	}
}
