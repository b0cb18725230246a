package rollout

import (
	"errors"
	"maps"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/release"
	helmtime "helm.sh/helm/v3/pkg/time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
)

// stuck leaves behind what a rollout killed during its wait leaves: a copy
// of revision from as a pending revision, created at `at`, labelled as ours
// when ours is set.
func (f *fixture) stuck(from int, status release.Status, at time.Time, ours bool) int {
	f.t.Helper()
	prev, err := f.cfg.Releases.Get(testRelease, from)
	if err != nil {
		f.t.Fatal(err)
	}
	rev := len(f.history()) + 1
	rel := &release.Release{
		Name: testRelease, Namespace: testNamespace, Version: rev,
		Chart: prev.Chart, Config: copyValues(prev.Config), Manifest: prev.Manifest,
		Info: &release.Info{Status: status, LastDeployed: helmtime.Time{Time: at}},
	}
	switch {
	case status == release.StatusPendingRollback:
		// A rollback is Helm's, not labelled by us: it only inherits a
		// label, never with its own number.
		rel.Labels = maps.Clone(prev.Labels)
	case ours:
		rel.Labels = revisionLabels(prev, nil)
	}
	if err := f.cfg.Releases.Create(rel); err != nil {
		f.t.Fatal(err)
	}
	return rev
}

// TestApply_labelsItsRevisions pins what RecoverPending relies on: our
// revisions carry their own number, and a hand upgrade on top of ours
// inherits the label with our number, so it is not ours.
func TestApply_labelsItsRevisions(t *testing.T) {
	f := newFixture(t)
	f.seed(nil)
	if _, err := f.r.Apply(t.Context(), request()); err != nil {
		t.Fatal(err)
	}
	f.handUpgrade(map[string]interface{}{"replicaCount": 2})
	h, err := f.cfg.Releases.History(testRelease)
	if err != nil {
		t.Fatal(err)
	}
	owned := map[int]bool{}
	for _, rel := range h {
		owned[rel.Version] = createdHere(rel, h)
	}
	if want := map[int]bool{1: false, 2: true, 3: false}; !maps.Equal(owned, want) {
		t.Errorf("created here = %v, want %v", owned, want)
	}
}

func TestApply_recoverPending(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	stale := now.Add(-DefaultTimeout - RecoverGrace - time.Second)
	for _, tc := range []struct {
		name    string
		status  release.Status
		at      time.Time
		ours    bool
		recover bool
		why     string // the reason it was not recovered; empty: recovered
	}{
		{"recovered upgrade", release.StatusPendingUpgrade, stale, true, true, ""},
		{"recovered rollback", release.StatusPendingRollback, stale, true, true, ""},
		{"flag off", release.StatusPendingUpgrade, stale, true, false, "-"},
		{"not ours", release.StatusPendingUpgrade, stale, false, true, "not created by this tool"},
		{"rollback not ours", release.StatusPendingRollback, stale, false, true, "not created by this tool"},
		{"too young", release.StatusPendingUpgrade, now.Add(-DefaultTimeout), true, true, "may still be in progress"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.r.SetClock(clock.NewFake(now))
			f.seed(otherValues)
			first, err := f.r.Apply(t.Context(), request())
			if err != nil {
				t.Fatal(err)
			}
			from := first.Revision
			if tc.status == release.StatusPendingRollback {
				// Our upgrade failed, and our rollback of it died half-way.
				failed := f.stuck(from, release.StatusFailed, tc.at, tc.ours)
				from = failed
			}
			pending := f.stuck(from, tc.status, tc.at, tc.ours)

			req := request()
			req.Version, req.RecoverPending = "v-next", tc.recover
			res, err := f.r.Apply(t.Context(), req)
			if tc.why != "" {
				var pe *PendingError
				if !errors.As(err, &pe) || pe.Revision != pending || pe.RollbackTo != first.Revision {
					t.Fatalf("err = %v, want the PendingError of revision %d", err, pending)
				}
				if tc.why != "-" && !strings.Contains(err.Error(), tc.why) {
					t.Errorf("error %q does not say %q", err, tc.why)
				}
				if s := f.current(); s.Revision != pending || s.Status != string(tc.status) {
					t.Errorf("Current = %+v, want it left alone", s)
				}
				return
			}
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			// The pending revision is failed, the next one rolled back to
			// the deployed one, and the one after carries the request.
			h := f.history()
			if h[pending] != release.StatusFailed || h[pending+1] != release.StatusSuperseded ||
				res.Revision != pending+2 || h[pending+2] != release.StatusDeployed {
				t.Errorf("history %v, result %+v", h, res)
			}
			if got := f.config(pending + 1); !maps.Equal(got[ValuesKey].(map[string]interface{}), f.config(first.Revision)[ValuesKey].(map[string]interface{})) {
				t.Errorf("the rollback revision carries %v", got)
			}
			if s := f.current(); s.Version != "v-next" || s.Status != "deployed" {
				t.Errorf("Current = %+v", s)
			}
		})
	}
}
