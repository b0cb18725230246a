package rolloutcmd

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout/rollouttest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// watchWithDrift runs a watch loop with --drift mode over a memory cluster:
// the first cycle installs the release, then the Deployment is scaled to
// zero by hand, and the loop runs two more cycles. It returns the output
// and the release's revision at the end.
func watchWithDrift(t *testing.T, mode string, ignore ...string) (string, int) {
	t.Helper()
	env := apiservertest.Start(t)
	apiClient, err := client.New(client.Config{BaseURL: env.URL, APIKey: env.Key, Clock: env.Clock})
	if err != nil {
		t.Fatal(err)
	}
	c := rollouttest.NewCluster(namespace)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out := &testutil.SyncBuffer{}
	cycles := 0
	r := &Runner{
		Opts: Options{Request: rollout.Request{Release: release, Install: true, Chart: chartPath, OnFailure: rollout.KeepFailed},
			Namespace: namespace, Domain: env.Domain, RenewBefore: 15 * time.Minute, Watch: true, Drift: mode, DriftIgnore: ignore},
		API: apiClient, Roller: c.Roller, Clock: env.Clock, Out: out, Log: hclog.NewNullLogger(), Recheck: time.Minute,
		Sleep: func(ctx context.Context, d time.Duration) error {
			cycles++
			switch cycles {
			case 1:
				if err := c.Sync(release); err != nil {
					t.Fatal(err)
				}
				dep, err := c.Kube.AppsV1().Deployments(namespace).Get(ctx, workload, metav1.GetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				zero := int32(0)
				dep.Spec.Replicas = &zero
				if _, err := c.Kube.AppsV1().Deployments(namespace).Update(ctx, dep, metav1.UpdateOptions{}); err != nil {
					t.Fatal(err)
				}
			case 3:
				cancel()
				return ctx.Err()
			}
			env.Clock.Advance(d)
			return nil
		},
	}
	if code := r.Run(ctx); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, out.String())
	}
	s, err := c.Roller.Current(t.Context(), release)
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), s.Revision
}

// --drift warn reports the scaled-down Deployment, naming object and
// field, and changes nothing; correct upgrades again (a revision per
// correction, which makes Helm put the object back); an ignore rule for
// the replicas (an autoscaler's) silences it. warn says a drift once, not
// at every recheck that finds it still there.
func TestWatch_drift(t *testing.T) {
	const want = "Deployment/" + workload + ": spec.replicas is 0, the release says 1"
	log, rev := watchWithDrift(t, driftWarn)
	if !strings.Contains(log, "drift (not corrected, --drift warn): "+want) || rev != 1 {
		t.Errorf("warn: revision %d\n%s", rev, log)
	}
	// The output line, the warning and the Event are said together.
	if n := strings.Count(log, "drift (not corrected"); n != 1 {
		t.Errorf("warn over two rechecks of the same drift: said %d times, want once\n%s", n, log)
	}
	log, rev = watchWithDrift(t, driftCorrect)
	if !strings.Contains(log, "correcting drift: "+want) || rev < 2 {
		t.Errorf("correct: revision %d\n%s", rev, log)
	}
	log, rev = watchWithDrift(t, driftCorrect, "Deployment:spec.replicas")
	if strings.Contains(log, "drift") || rev != 1 {
		t.Errorf("ignored replicas: revision %d\n%s", rev, log)
	}
}
