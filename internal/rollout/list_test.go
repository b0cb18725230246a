package rollout

import (
	"testing"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/release"
)

func TestLastWithStaticExport_keepsLastRevisionOfReleasesThatCarryTheTable(t *testing.T) {
	rev := func(ns, name string, version int, status release.Status, config map[string]interface{}) *release.Release {
		return &release.Release{Namespace: ns, Name: name, Version: version, Config: config,
			Info:  &release.Info{Status: status},
			Chart: &chart.Chart{Metadata: &chart.Metadata{Name: "docs", Version: "1.0.0"}}}
	}
	table := func(version string) map[string]interface{} {
		return map[string]interface{}{ValuesKey: map[string]interface{}{
			KeyEnabled: true, KeyBundleURL: "https://b.example/x.tar.gz?sig=s", KeyVersion: version}}
	}
	got := lastWithStaticExport([]*release.Release{
		rev("b", "docs", 1, release.StatusSuperseded, table("v1")),
		rev("b", "docs", 2, release.StatusDeployed, table("v2")),
		rev("a", "docs", 1, release.StatusDeployed, table("v1")),
		// No staticExport values: not a self-hosted docs release.
		rev("a", "web", 1, release.StatusDeployed, map[string]interface{}{"replicas": 2}),
		// Uninstalled with --keep-history: nothing to adopt.
		rev("a", "old", 1, release.StatusUninstalled, table("v0")),
		// The table was removed by a later revision.
		rev("c", "gone", 1, release.StatusSuperseded, table("v1")),
		rev("c", "gone", 2, release.StatusDeployed, nil),
	})
	want := []struct {
		ns, name, version string
		revision          int
	}{{"a", "docs", "v1", 1}, {"b", "docs", "v2", 2}}
	if len(got) != len(want) {
		t.Fatalf("got %d releases, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Namespace != w.ns || g.Release != w.name || g.Version != w.version || g.Revision != w.revision ||
			g.Status != "deployed" || g.Chart != "docs-1.0.0" || !g.Enabled {
			t.Errorf("release %d: got %+v, want %+v", i, g, w)
		}
	}
}
