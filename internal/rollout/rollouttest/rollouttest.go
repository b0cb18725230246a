// Package rollouttest builds rollout.Rollers for the fast tests of packages
// that drive releases but may not import Helm themselves (depguard keeps
// Helm inside internal/rollout): a real Roller over Helm's memory storage
// and a fake kube client. Only tests import it.
package rollouttest

import (
	"fmt"
	"io"

	"github.com/hashicorp/go-hclog"
	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chartutil"
	kubefake "helm.sh/helm/v3/pkg/kube/fake"
	"helm.sh/helm/v3/pkg/releaseutil"
	"helm.sh/helm/v3/pkg/storage"
	"helm.sh/helm/v3/pkg/storage/driver"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
)

// KubeVersion is the cluster version the fake reports: one the reference
// chart's kubeVersion constraint accepts.
var KubeVersion = chartutil.KubeVersion{Version: "v1.34.4", Major: "1", Minor: "34"}

// MemoryRoller returns a Roller for namespace whose releases live in
// memory; objects are rendered but go nowhere, and nothing waits for
// readiness. log may be nil.
func MemoryRoller(namespace string, log hclog.Logger) *rollout.Roller {
	c := NewCluster(namespace)
	if log != nil {
		c.Roller = rollout.NewWithActionConfig(c.cfg, namespace, log)
		c.Roller.SetKubernetes(c.Kube)
	}
	return c.Roller
}

// Cluster is a memory Roller whose rendered objects can be copied into
// client-go's fake clientset, so drift can be made by editing them there.
type Cluster struct {
	Roller *rollout.Roller
	// Kube holds the objects Sync copied; the Roller reads it for drift,
	// Events and retry requests.
	Kube *fake.Clientset
	cfg  *action.Configuration
	ns   string
}

// NewCluster returns a Cluster for namespace.
func NewCluster(namespace string) *Cluster {
	mem := driver.NewMemory()
	mem.SetNamespace(namespace)
	caps := *chartutil.DefaultCapabilities
	caps.KubeVersion = KubeVersion
	cfg := &action.Configuration{Releases: storage.Init(mem),
		KubeClient: &kubefake.PrintingKubeClient{Out: io.Discard}, Capabilities: &caps}
	c := &Cluster{Roller: rollout.NewWithActionConfig(cfg, namespace, nil), Kube: fake.NewClientset(), cfg: cfg, ns: namespace}
	c.Roller.SetKubernetes(c.Kube)
	return c
}

// Sync creates the objects of the release's deployed revision in Kube, as
// a cluster would hold them after the upgrade (existing ones are left).
func (c *Cluster) Sync(release string) error {
	rel, err := c.cfg.Releases.Deployed(release)
	if err != nil {
		return err
	}
	for _, m := range releaseutil.SplitManifests(rel.Manifest) {
		obj, _, err := scheme.Codecs.UniversalDeserializer().Decode([]byte(m), nil, nil)
		if err != nil {
			return fmt.Errorf("decode %s: %w", m, err)
		}
		o, ok := obj.(metav1.Object)
		if !ok {
			continue
		}
		if o.GetNamespace() == "" {
			o.SetNamespace(c.ns)
		}
		gvk := obj.GetObjectKind().GroupVersionKind()
		gvr, _ := meta.UnsafeGuessKindToResource(gvk)
		err = c.Kube.Tracker().Create(gvr, obj, o.GetNamespace())
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return err
		}
	}
	return nil
}
