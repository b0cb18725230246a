package rolloutcmd

import (
	"bytes"
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// failingApply is a release on the real cluster whose upgrades fail while
// broken is set, as one whose chart stopped rendering would; Events and
// retry requests are the real Roller's.
type failingApply struct {
	*rollout.Roller
	broken *atomic.Bool
}

func (f failingApply) Apply(ctx context.Context, req rollout.Request) (rollout.Result, error) {
	if f.broken.Load() {
		return rollout.Result{}, errors.New("template: deployment.yaml: nil pointer evaluating .Values.image")
	}
	return f.Roller.Apply(ctx, req)
}

// TestWatch_needsAttentionOnCluster: on a real kube-apiserver whose kwok
// node runs the release's pods, a watch loop whose upgrades keep failing
// gives up after --max-retries, and says so where a cluster's users look:
// Warning Events StaticExportRolloutFailed and StaticExportNeedsAttention
// on the serve-bundle Deployment (`kubectl describe deployment`), an error
// line and the metric. `rollout --retry` (the real command, annotating the
// real revision Secret) makes it try again, and the renewal then succeeds,
// recorded as StaticExportRetrying and StaticExportRolledOut Events.
func TestWatch_needsAttentionOnCluster(t *testing.T) {
	w := newNodesWorld(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var broken atomic.Bool
	broken.Store(true)
	out := &testutil.SyncBuffer{}
	metrics := NewMetrics()
	r := &Runner{
		Opts: Options{Request: rollout.Request{Release: release, OnFailure: rollout.KeepFailed, Timeout: time.Minute},
			Namespace: namespace, Domain: w.env.Domain, RenewBefore: 15 * time.Minute, Watch: true, MaxRetries: 2,
			ExportTimeout: time.Minute},
		API: w.api, Roller: failingApply{Roller: w.roller, broken: &broken}, Clock: w.env.Clock, Out: out,
		Log: hclog.NewNullLogger(), Metrics: metrics,
		// Back-offs and rechecks pass at once; real time still runs, so
		// the retry request's time is after the give-up's.
		Sleep: func(ctx context.Context, _ time.Duration) error {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(50 * time.Millisecond):
				return nil
			}
		},
	}
	done := make(chan int, 1)
	go func() { done <- r.Run(ctx) }()
	defer func() {
		cancel()
		<-done
		if t.Failed() {
			t.Logf("output:\n%s", out.String())
		}
	}()
	testutil.Eventually(t, time.Minute, "the loop to give up", func() bool {
		return strings.Contains(out.String(), "needs attention: stopped retrying release docs after 3 failed attempts")
	})
	onDeployment := func(reason string) bool {
		evs, err := w.cs.CoreV1().Events(namespace).List(ctx, metav1.ListOptions{
			FieldSelector: "involvedObject.kind=Deployment,involvedObject.name=" + workload + ",reason=" + reason})
		return err == nil && len(evs.Items) > 0
	}
	// The Event follows the output line.
	testutil.Eventually(t, 30*time.Second, "failure and needs-attention Events on the Deployment", func() bool {
		return onDeployment(reasonFailed) && onDeployment(reasonNeedsAttention)
	})
	if got := scrape(t, metrics).Must(t, "docsadmin_renewer_needs_attention", "namespace", namespace, "release", release); got != 1 {
		t.Errorf("needs_attention = %v", got)
	}

	broken.Store(false)
	var cmdOut, cmdErr bytes.Buffer
	if code := Command(ctx, []string{"--retry", "--release", release, "--namespace", namespace, "--kubeconfig", w.kubeconfig},
		&cmdOut, &cmdErr); code != ExitOK {
		t.Fatalf("rollout --retry: exit %d: %s", code, cmdErr.String())
	}
	testutil.Eventually(t, time.Minute, "the retried renewal", func() bool {
		log := out.String()
		i := strings.Index(log, "retrying: a retry was requested at ")
		return i >= 0 && strings.Contains(log[i:], "upgraded release docs")
	})
	if s := w.state(t); !s.LinkValid(w.env.Clock.Now(), 15*time.Minute) || !strings.HasPrefix(s.BundleURL, w.env.URL) {
		t.Fatalf("after the retry the release carries %+v", s)
	}
	testutil.Eventually(t, 30*time.Second, "the retry and the upgrade as Events on the Deployment", func() bool {
		return onDeployment(reasonRetrying) && onDeployment(reasonUpgraded)
	})
	if got := scrape(t, metrics).Must(t, "docsadmin_renewer_needs_attention", "namespace", namespace, "release", release); got != 0 {
		t.Errorf("needs_attention = %v after the retry", got)
	}
}

// scrape reads m as Prometheus would.
func scrape(t *testing.T, m *Metrics) testutil.Metrics {
	t.Helper()
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()
	return testutil.Scrape(t, srv.URL)
}
