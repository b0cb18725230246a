package rolloutcmd

import (
	"fmt"
	"os"
	"strconv"
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
// the figures. The day takes about 1,650 upgrades; on a shared two-core
// machine they ran at 25-30 a minute whatever the renewer's CPU (the API
// server and etcd set the pace), so give it -timeout 90m. FLEET50_HOURS
// runs a shorter (or longer) simulated span.
func TestFleet_fiftyReleasesOnCluster(t *testing.T) {
	if os.Getenv("FLEET50_CLUSTER") != "1" {
		t.Skip("set FLEET50_CLUSTER=1 to run the 50-release measurement on the test cluster")
	}
	d := 24 * time.Hour
	if v := os.Getenv("FLEET50_HOURS"); v != "" {
		h, err := strconv.Atoi(v)
		if err != nil || h < 2 {
			t.Fatalf("FLEET50_HOURS=%q: want a whole number of hours, at least 2", v)
		}
		d = time.Duration(h) * time.Hour
	}
	measureFleetOnCluster(t, 10, 5, d)
}

// TestFleet_profileOnCluster is the same run, smaller: five releases in
// one namespace for four simulated hours, about 25 upgrades, to profile
// the cost of an upgrade on a real cluster (go test -cpuprofile).
// FLEET_PROFILE_CLUSTER=1 runs it.
func TestFleet_profileOnCluster(t *testing.T) {
	if os.Getenv("FLEET_PROFILE_CLUSTER") != "1" {
		t.Skip("set FLEET_PROFILE_CLUSTER=1 to run the 5-release profile on the test cluster")
	}
	measureFleetOnCluster(t, 1, 5, 4*time.Hour)
}

// measureFleetOnCluster installs perNS releases in each of namespaces
// namespaces of a test cluster and measures a run of d (measureFleet).
func measureFleetOnCluster(t *testing.T, namespaces, perNS int, d time.Duration) {
	c := kubetest.Start(t, kubetest.WithNodes())
	t.Setenv("KUBECACHEDIR", t.TempDir())
	var ns []string
	for i := range namespaces {
		ns = append(ns, fmt.Sprintf("team-%d", i))
		c.Namespace(t, ns[i])
	}
	fs := newFleetSimOn(t, ns, perNS, 4, 10, "", func(ns string) *rollout.Roller {
		r, err := rollout.New(rollout.Config{Kubeconfig: c.Kubeconfig, Context: c.Context, Namespace: ns}, hclog.NewNullLogger())
		if err != nil {
			t.Fatal(err)
		}
		return r
	})
	// The first round exports and upgrades every release on the cluster,
	// four at a time, before the loops sleep.
	fs.sim.within = 15 * time.Minute
	measureFleet(t, fs, "on the test cluster", d)
}
