// Package rollouttest builds rollout.Rollers for the fast tests of packages
// that drive releases but may not import Helm themselves (depguard keeps
// Helm inside internal/rollout): a real Roller over Helm's memory storage
// and a fake kube client. Only tests import it.
package rollouttest

import (
	"io"

	"github.com/hashicorp/go-hclog"
	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chartutil"
	kubefake "helm.sh/helm/v3/pkg/kube/fake"
	"helm.sh/helm/v3/pkg/storage"
	"helm.sh/helm/v3/pkg/storage/driver"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
)

// KubeVersion is the cluster version the fake reports: one the reference
// chart's kubeVersion constraint accepts.
var KubeVersion = chartutil.KubeVersion{Version: "v1.34.4", Major: "1", Minor: "34"}

// MemoryRoller returns a Roller for namespace whose releases live in
// memory; objects are rendered but go nowhere, and nothing waits for
// readiness. log may be nil.
func MemoryRoller(namespace string, log hclog.Logger) *rollout.Roller {
	mem := driver.NewMemory()
	mem.SetNamespace(namespace)
	caps := *chartutil.DefaultCapabilities
	caps.KubeVersion = KubeVersion
	cfg := &action.Configuration{Releases: storage.Init(mem),
		KubeClient: &kubefake.PrintingKubeClient{Out: io.Discard}, Capabilities: &caps}
	return rollout.NewWithActionConfig(cfg, namespace, log)
}
