package provider

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"github.com/hashicorp/go-hclog"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/kubetest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
)

const (
	rolloutAddr    = "docsadmin_static_export_rollout.docs"
	rolloutRelease = "docs"
	// The chart's Secret that holds the link (see its templates).
	rolloutSecret = "docs-docsadmin-self-hosted-bundle"
)

// rolloutEnv is the reference server plus a real kube-apiserver with an
// empty namespace. No kubelet runs, so configurations set atomic = false
// and never wait for readiness.
type rolloutEnv struct {
	*accEnv
	cluster *kubetest.Cluster
	ns      string // the test's own namespace, where the release goes
	cs      kubernetes.Interface
	roller  *rollout.Roller
	chart   string
}

func newRolloutEnv(t *testing.T, opts ...kubetest.Option) *rolloutEnv {
	t.Helper()
	e := startRolloutEnv(t, opts...)
	// terraform import passes no configuration, so the imported resource
	// reads the cluster named by KUBECONFIG, as helm would. Setting it makes
	// the test serial.
	t.Setenv("KUBECONFIG", e.cluster.Kubeconfig)
	return e
}

// newParallelRolloutEnv is newRolloutEnv for a test that names its cluster
// in every configuration (kubeconfig_path), so it needs no KUBECONFIG and
// runs in parallel with the other such tests, each in its own namespace.
func newParallelRolloutEnv(t *testing.T) *rolloutEnv {
	t.Helper()
	t.Parallel()
	return startRolloutEnv(t)
}

// startRolloutEnv starts the server, creates the test's namespace on the
// package's shared cluster (or, with options, on a cluster of its own) and
// touches no process state: TestMain points KUBECACHEDIR at a directory of
// its own.
func startRolloutEnv(t *testing.T, opts ...kubetest.Option) *rolloutEnv {
	t.Helper()
	return startRolloutEnvOn(t, newAccEnv(t), opts...)
}

// startRolloutEnvOn is startRolloutEnv with a reference server the test
// started itself (with a control token, say).
func startRolloutEnvOn(t *testing.T, env *accEnv, opts ...kubetest.Option) *rolloutEnv {
	t.Helper()
	var c *kubetest.Cluster
	if len(opts) == 0 {
		c = sharedCluster(t)
	} else {
		c = kubetest.Start(t, opts...)
	}
	namespace := testNamespace(t)
	cs := c.Namespace(t, namespace)
	roller, err := rollout.New(rollout.Config{Kubeconfig: c.Kubeconfig, Context: c.Context, Namespace: namespace},
		hclog.NewNullLogger())
	if err != nil {
		t.Fatal(err)
	}
	chart, err := filepath.Abs("../../examples/self-hosted-chart")
	if err != nil {
		t.Fatal(err)
	}
	return &rolloutEnv{accEnv: env, cluster: c, ns: namespace, cs: cs, roller: roller, chart: chart}
}

// wiredConfig is the whole loop: an export, its bundle link, and the
// release that serves it, with the link and its expiry wired through.
func (e *rolloutEnv) wiredConfig() string {
	return e.config(bundleConfig(e.Domain, "15m") + fmt.Sprintf(`
resource "docsadmin_static_export_rollout" "docs" {
  release         = %q
  namespace       = %q
  kubeconfig_path = %q
  kube_context    = %q
  chart           = %q
  install         = true
  atomic          = false

  bundle_url = docsadmin_static_export_bundle.site.bundle_url
  expires_at = docsadmin_static_export_bundle.site.expires_at
  version    = docsadmin_static_export.docs.content_version
}
`, rolloutRelease, e.ns, e.cluster.Kubeconfig, e.cluster.Context, e.chart))
}

// current is what the release carries, read as Terraform's Read does.
// atomicConfig is a rollout of a fixed link for content version, with
// atomic set as given; extra goes inside the resource block.
func (e *rolloutEnv) atomicConfig(version string, atomic bool, extra string) string {
	return e.config(fmt.Sprintf(`
resource "docsadmin_static_export_rollout" "docs" {
  release         = %q
  namespace       = %q
  kubeconfig_path = %q
  chart           = %q
  install         = true
  atomic          = %t
  bundle_url      = "https://bundles.example.com/b.tar.gz?signature=%s"
  version         = %q
%s}
`, rolloutRelease, e.ns, e.cluster.Kubeconfig, e.chart, atomic, version, version, extra))
}

func (e *rolloutEnv) current(t *testing.T) *rollout.State {
	t.Helper()
	s, err := e.roller.Current(t.Context(), rolloutRelease)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// secretHolds checks that the chart's Secret, which the pods read, holds
// the link in state.
func (e *rolloutEnv) secretHolds(t *testing.T) func(string) error {
	return func(link string) error {
		sec, err := e.cs.CoreV1().Secrets(e.ns).Get(t.Context(), rolloutSecret, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if string(sec.Data["bundleUrl"]) != link {
			return fmt.Errorf("secret %s holds another link than state", rolloutSecret)
		}
		return nil
	}
}

// releaseHas checks a value in state against what the release carries.
func (e *rolloutEnv) releaseHas(t *testing.T, field func(*rollout.State) string) func(string) error {
	return func(v string) error {
		s, err := e.roller.Current(t.Context(), rolloutRelease)
		if err != nil {
			return err
		}
		if got := field(s); got != v {
			return fmt.Errorf("release carries %q, state %q", got, v)
		}
		return nil
	}
}

// disableStaticExport sets staticExport.enabled=false in the values of the
// release's last revision, as `helm upgrade --set staticExport.enabled=false`
// leaves them, without Helm: the provider's tests may not import it. The
// record is the one Helm's Secret driver writes: base64 of gzipped JSON.
func (e *rolloutEnv) disableStaticExport(t *testing.T) {
	t.Helper()
	ctx := t.Context()
	name := fmt.Sprintf("sh.helm.release.v1.%s.v%d", rolloutRelease, e.current(t).Revision)
	secrets := e.cs.CoreV1().Secrets(e.ns)
	sec, err := secrets.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rel := decodeRelease(t, sec.Data["release"])
	values, _ := rel["config"].(map[string]any)
	table, _ := values[rollout.ValuesKey].(map[string]any)
	if table == nil {
		t.Fatalf("revision %s has no %s values", name, rollout.ValuesKey)
	}
	table[rollout.KeyEnabled] = false
	sec.Data["release"] = encodeRelease(t, rel)
	if _, err := secrets.Update(ctx, sec, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if e.current(t).Enabled {
		t.Fatal("the edited release still reads as enabled")
	}
}

// decodeRelease reads a release record as Helm's Secret driver writes it
// (base64 of gzipped JSON), without Helm: the provider's tests may not
// import it.
func decodeRelease(t *testing.T, data []byte) map[string]any {
	t.Helper()
	zipped, err := base64.StdEncoding.DecodeString(string(data))
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(zipped))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	var rel map[string]any
	if err := json.Unmarshal(raw, &rel); err != nil {
		t.Fatal(err)
	}
	return rel
}

// encodeRelease writes rel back as decodeRelease reads it.
func encodeRelease(t *testing.T, rel map[string]any) []byte {
	t.Helper()
	raw, err := json.Marshal(rel)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return []byte(base64.StdEncoding.EncodeToString(buf.Bytes()))
}
