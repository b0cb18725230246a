package rolloutcmd

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/kubetest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// TestFleet_selectorOnCluster runs `rollout --watch --selector` (the
// fleet as Command wires it) on a real kube-apiserver: the releases in
// --namespaces labelled docsadmin.io/fleet=docs get a live link from the
// export their docsadmin.io/domain or docsadmin.io/job-id label names; a
// selected release naming no export is reported once and left alone; one
// of another fleet is never touched; a release labelled later joins
// within a resync; an uninstalled one leaves, and its metrics go with it.
func TestFleet_selectorOnCluster(t *testing.T) {
	c := kubetest.Start(t)
	t.Setenv("KUBECACHEDIR", t.TempDir())
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	rollers := map[string]*rollout.Roller{}
	for _, ns := range []string{"team-a", "team-b"} {
		c.Namespace(t, ns)
		r, err := rollout.New(rollout.Config{Kubeconfig: c.Kubeconfig, Context: c.Context, Namespace: ns}, hclog.NewNullLogger())
		if err != nil {
			t.Fatal(err)
		}
		rollers[ns] = r
	}
	env := apiservertest.Start(t)
	apiClient, err := client.New(client.Config{BaseURL: env.URL, APIKey: env.Key, Clock: env.Clock})
	if err != nil {
		t.Fatal(err)
	}
	job := env.StartExportAndWait(t, api.StartExportRequest{Domain: env.Domain}).JobID
	install := func(ns, name string, labels map[string]string) {
		t.Helper()
		if _, err := rollers[ns].Apply(ctx, rollout.Request{Release: name, Install: true, Chart: chartPath, OnFailure: rollout.KeepFailed,
			Labels: labels, BundleURL: "https://bundles.example.com/old.tar.gz", Version: "old",
			ExpiresAt: env.Clock.Now().Add(-time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	install("team-a", "docs-a", map[string]string{"docsadmin.io/fleet": "docs", LabelDomain: env.Domain})
	install("team-b", "docs-b", map[string]string{"docsadmin.io/fleet": "docs", LabelJobID: job})
	install("team-a", "docs-x", map[string]string{"docsadmin.io/fleet": "docs"})
	install("team-a", "blog", map[string]string{"docsadmin.io/fleet": "blog", LabelDomain: env.Domain})

	opts := Options{Kubeconfig: c.Kubeconfig, KubeContext: c.Context, Namespace: "team-a", Namespaces: []string{"team-a", "team-b"},
		Selector: "docsadmin.io/fleet=docs", RenewBefore: 15 * time.Minute, ExportTimeout: time.Minute,
		Request: rollout.Request{Timeout: time.Minute, OnFailure: rollout.KeepFailed}}
	out := &testutil.SyncBuffer{}
	metrics := NewMetrics()
	f := &Fleet{Base: Runner{Opts: opts, API: apiClient, Clock: env.Clock, Out: out, Log: hclog.NewNullLogger(), Metrics: metrics},
		Select: selection(opts, hclog.NewNullLogger()), Resync: 200 * time.Millisecond, Parallel: 2,
		Rollers: func(ns string) (Roller, error) { return rollers[ns], nil }}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan int, 1)
	go func() { done <- f.Run(runCtx) }()
	defer func() {
		stop()
		<-done
		if t.Failed() {
			t.Logf("output:\n%s", out.String())
		}
	}()

	live := func(ns, name string) bool {
		s, err := rollers[ns].Current(ctx, name)
		return err == nil && s.LinkValid(env.Clock.Now(), 15*time.Minute) && strings.HasPrefix(s.BundleURL, env.URL)
	}
	testutil.Eventually(t, time.Minute, "both labelled releases renewed", func() bool {
		return live("team-a", "docs-a") && live("team-b", "docs-b")
	})
	install("team-b", "docs-c", map[string]string{"docsadmin.io/fleet": "docs", LabelJobID: job})
	testutil.Eventually(t, time.Minute, "the release labelled later renewed", func() bool { return live("team-b", "docs-c") })
	// Someone takes docs-a out of the fleet (helm upgrade --labels
	// docsadmin.io/fleet=null) and points it at a link of their own.
	if _, err := rollers["team-a"].Apply(ctx, rollout.Request{Release: "docs-a", OnFailure: rollout.KeepFailed,
		Labels: map[string]string{"docsadmin.io/fleet": "null"}, BundleURL: "https://bundles.example.com/hand.tar.gz",
		Version: "by-hand", ExpiresAt: env.Clock.Now().Add(2 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	testutil.Eventually(t, 30*time.Second, "the unlabelled release to leave the fleet", func() bool {
		return strings.Contains(out.String(), "team-a/docs-a: left the fleet")
	})

	log := out.String()
	for _, want := range []string{"team-a/docs-a: joined the fleet (domain " + env.Domain + ")",
		"team-b/docs-b: joined the fleet (job " + job + ")", "team-b/docs-c: joined the fleet"} {
		if !strings.Contains(log, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if n := strings.Count(log, "team-a/docs-x: selected but not renewed: give it exactly one of the release labels"); n != 1 {
		t.Errorf("the release naming no export was reported %d times, want once", n)
	}
	for _, name := range []string{"docs-x", "blog"} {
		if s, err := rollers["team-a"].Current(ctx, name); err != nil || s.Revision != 1 {
			t.Errorf("%s was touched: %+v %v", name, s, err)
		}
	}
	if s, err := rollers["team-a"].Current(ctx, "docs-a"); err != nil || s.Version != "by-hand" {
		t.Errorf("the fleet still manages the release that left it: %+v %v", s, err)
	}
	m := scrape(t, metrics)
	if _, ok := m.Value("docsadmin_renewer_link_expiry_timestamp_seconds", "namespace", "team-a", "release", "docs-a"); ok {
		t.Error("the release that left the fleet still has its expiry series")
	}
	// The release labelled later may carry a live link from its install
	// before its loop has looked at it: wait for the loop's series.
	testutil.Eventually(t, 30*time.Second, "the expiry series of the release labelled later", func() bool {
		_, ok := scrape(t, metrics).Value("docsadmin_renewer_link_expiry_timestamp_seconds", "namespace", "team-b", "release", "docs-c")
		return ok
	})
}
