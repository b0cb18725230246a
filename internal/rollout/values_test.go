package rollout

import (
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/release"
)

func TestDigest_stableAndCoversEveryValue(t *testing.T) {
	base := staticValues{Enabled: true, BundleURL: "https://x/b", Version: "v1", ExpiresAt: "2030-01-01T00:00:00Z"}
	// Pinned (sha256sum of the JSON by hand): a digest that changed between
	// releases of the provider would show every release as drifted.
	const pinned = "9e412740050d9df0aebe8d585a4629a702138acec3ee7bde126b4923ea65a2c5"
	// Several calls, so that an unordered encoding (a map) would show.
	for range 3 {
		if got := base.digest(); got != pinned {
			t.Fatalf("digest = %s, want %s", got, pinned)
		}
	}
	seen := map[string]bool{base.digest(): true}
	for _, v := range []staticValues{
		{Enabled: false, BundleURL: base.BundleURL, Version: base.Version, ExpiresAt: base.ExpiresAt},
		{Enabled: true, BundleURL: "https://x/c", Version: base.Version, ExpiresAt: base.ExpiresAt},
		{Enabled: true, BundleURL: base.BundleURL, Version: "v2", ExpiresAt: base.ExpiresAt},
		{Enabled: true, BundleURL: base.BundleURL, Version: base.Version, ExpiresAt: ""},
	} {
		d := v.digest()
		if seen[d] {
			t.Errorf("%+v shares a digest with another value set", v)
		}
		seen[d] = true
	}
}

func TestDesiredValues_expiryToTheSecondInUTC(t *testing.T) {
	req := request()
	req.ExpiresAt = time.Date(2030, 1, 2, 4, 4, 5, 999_000_000, time.FixedZone("CET", 3600))
	if got := desiredValues(req).ExpiresAt; got != "2030-01-02T03:04:05Z" {
		t.Errorf("expiresAt = %q", got)
	}
	req.ExpiresAt = time.Time{}
	if got := desiredValues(req).ExpiresAt; got != "" {
		t.Errorf("expiresAt for an unknown expiry = %q, want empty", got)
	}
}

func TestEffectiveValues_coalescesLikeHelm(t *testing.T) {
	ch := &chart.Chart{Values: map[string]interface{}{ValuesKey: map[string]interface{}{
		KeyEnabled: false, KeyBundleURL: "https://default/b", KeyVersion: "default",
	}}}
	rel := &release.Release{Chart: ch, Config: map[string]interface{}{ValuesKey: map[string]interface{}{
		KeyEnabled:   "true", // --set-string
		KeyVersion:   float64(2024),
		KeyBundleURL: nil, // --set staticExport.bundleUrl=null deletes the default
	}}}
	want := staticValues{Enabled: true, BundleURL: "", Version: "2024"}
	if got := effectiveValues(rel); got != want {
		t.Errorf("effectiveValues = %+v, want %+v", got, want)
	}
	rel.Config = nil
	want = staticValues{Enabled: false, BundleURL: "https://default/b", Version: "default"}
	if got := effectiveValues(rel); got != want {
		t.Errorf("with chart defaults only = %+v, want %+v", got, want)
	}
}

func TestMergeInto_doesNotWriteThroughToTheRelease(t *testing.T) {
	config := map[string]interface{}{ValuesKey: map[string]interface{}{"extra": "kept", KeyVersion: "old"}}
	got := desiredValues(request()).mergeInto(config)
	if config[ValuesKey].(map[string]interface{})[KeyVersion] != "old" {
		t.Error("mergeInto modified the release's values")
	}
	table := got[ValuesKey].(map[string]interface{})
	if table["extra"] != "kept" || table[KeyVersion] != "2024-06-01" {
		t.Errorf("merged table = %v", table)
	}
}

func TestLinkValid(t *testing.T) {
	exp := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	valid := State{Enabled: true, BundleURL: testURL, Status: "deployed", ExpiresAt: exp}
	for _, tc := range []struct {
		name string
		s    State
		now  time.Time
		want bool
	}{
		{"well before renewal", valid, exp.Add(-2 * time.Hour), true},
		{"inside renew-before", valid, exp.Add(-30 * time.Minute), false},
		{"exactly at renew-before", valid, exp.Add(-time.Hour), false},
		{"expired", valid, exp.Add(time.Minute), false},
		{"unknown expiry", State{Enabled: true, BundleURL: testURL, Status: "deployed"}, exp.Add(-48 * time.Hour), false},
		{"disabled", State{BundleURL: testURL, Status: "deployed", ExpiresAt: exp}, exp.Add(-48 * time.Hour), false},
		{"failed revision", State{Enabled: true, BundleURL: testURL, Status: "failed", ExpiresAt: exp}, exp.Add(-48 * time.Hour), false},
	} {
		if got := tc.s.LinkValid(tc.now, time.Hour); got != tc.want {
			t.Errorf("%s: LinkValid = %v, want %v", tc.name, got, tc.want)
		}
	}
}
