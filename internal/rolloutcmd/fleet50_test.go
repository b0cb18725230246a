package rolloutcmd

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/kubetest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
)

// TestFleet_fiftyReleasesOnCluster is TestFleet_fiftyReleases on the test
// cluster: 50 releases of the reference chart in ten namespaces of a real
// kube-apiserver, whose kwok node runs their pods, kept fresh for a
// simulated day with one-hour links and --parallel 4, every link checked
// at every step. It reports the upgrades, wall time, and this process's
// CPU time and memory (the renewer, with the reference API server in the
// same process; kube-apiserver and its controllers are processes of their
// own and not counted). FLEET50_CLUSTER=1 runs it; nothing is asserted on
// the figures.
func TestFleet_fiftyReleasesOnCluster(t *testing.T) {
	if os.Getenv("FLEET50_CLUSTER") != "1" {
		t.Skip("set FLEET50_CLUSTER=1 to run the 50-release measurement on the test cluster")
	}
	c := kubetest.Start(t, kubetest.WithNodes())
	t.Setenv("KUBECACHEDIR", t.TempDir())
	var ns []string
	for i := range 10 {
		ns = append(ns, fmt.Sprintf("team-%d", i))
		c.Namespace(t, ns[i])
	}
	fs := newFleetSimOn(t, ns, 5, 4, 10, "", func(ns string) *rollout.Roller {
		r, err := rollout.New(rollout.Config{Kubeconfig: c.Kubeconfig, Context: c.Context, Namespace: ns}, hclog.NewNullLogger())
		if err != nil {
			t.Fatal(err)
		}
		return r
	})
	// The first round exports and upgrades every release on the cluster,
	// four at a time, before the loops sleep.
	fs.sim.within = 15 * time.Minute
	measureFleet(t, fs, "on the test cluster")
}
