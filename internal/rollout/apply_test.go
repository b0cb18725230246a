package rollout

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"strings"
	"testing"
	"time"

	kubefake "helm.sh/helm/v3/pkg/kube/fake"
	"helm.sh/helm/v3/pkg/release"
)

var otherValues = map[string]interface{}{
	"replicaCount": 3,
	"image":        map[string]interface{}{"tag": "1.2.3"},
}

func TestApply_upgradesKeepingOtherValues(t *testing.T) {
	f := newFixture(t)
	f.seed(otherValues)

	res, err := f.r.Apply(t.Context(), request())
	if err != nil {
		t.Fatal(err)
	}
	want := Result{Revision: 2, Status: "deployed", ValuesDigest: desiredValues(request()).digest(), Changed: true}
	if res != want {
		t.Errorf("Apply = %+v, want %+v", res, want)
	}
	if h := f.history(); !maps.Equal(h, map[int]release.Status{1: release.StatusSuperseded, 2: release.StatusDeployed}) {
		t.Errorf("history = %v", h)
	}

	got := f.config(2)
	wantConfig := map[string]interface{}{
		"replicaCount": 3,
		"image":        map[string]interface{}{"tag": "1.2.3"},
		ValuesKey: map[string]interface{}{
			KeyEnabled: true, KeyBundleURL: testURL, KeyVersion: "2024-06-01", KeyExpiresAt: "2030-01-02T03:04:05Z",
		},
	}
	if !reflect.DeepEqual(got, wantConfig) {
		t.Errorf("values of revision 2 = %v, want %v", got, wantConfig)
	}

	s := f.current()
	if !s.Enabled || s.BundleURL != testURL || s.Version != "2024-06-01" ||
		!s.ExpiresAt.Equal(request().ExpiresAt) || s.ValuesDigest != res.ValuesDigest || s.Revision != 2 {
		t.Errorf("Current = %+v after Apply %+v", s, res)
	}
}

func TestApply_noNewRevisionForSameValues(t *testing.T) {
	f := newFixture(t)
	f.seed(nil)
	first, err := f.r.Apply(t.Context(), request())
	if err != nil {
		t.Fatal(err)
	}

	again, err := f.r.Apply(t.Context(), request())
	if err != nil {
		t.Fatal(err)
	}
	if again.Changed || again.Revision != first.Revision || again.ValuesDigest != first.ValuesDigest {
		t.Errorf("second Apply = %+v, want no change at revision %d", again, first.Revision)
	}
	if n := len(f.history()); n != 2 {
		t.Errorf("%d revisions after a no-op, want 2", n)
	}

	// Each of the four values is part of "the same values".
	for i, mutate := range []func(*Request){
		func(r *Request) { r.ExpiresAt = r.ExpiresAt.Add(time.Hour) }, // a renewed link
		func(r *Request) { r.BundleURL += "&renewed=1" },
		func(r *Request) { r.Version = "2024-07-01" }, // new content
	} {
		req := request()
		mutate(&req)
		res, err := f.r.Apply(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Changed || res.Revision != first.Revision+1+i {
			t.Errorf("change %d: Apply = %+v, want a new revision %d", i, res, first.Revision+1+i)
		}
		if res.ValuesDigest == first.ValuesDigest {
			t.Errorf("change %d kept the digest", i)
		}
	}
}

func TestApply_missingRelease(t *testing.T) {
	t.Run("error unless asked to install", func(t *testing.T) {
		f := newFixture(t)
		_, err := f.r.Apply(t.Context(), request())
		if !errors.Is(err, ErrReleaseNotFound) {
			t.Fatalf("err = %v, want ErrReleaseNotFound", err)
		}
		if !strings.Contains(err.Error(), `"docs"`) {
			t.Errorf("error %q does not name the release", err)
		}
		if n := len(f.history()); n != 0 {
			t.Errorf("%d revisions created", n)
		}
	})
	t.Run("install needs a chart", func(t *testing.T) {
		f := newFixture(t)
		req := request()
		req.Install = true
		if _, err := f.r.Apply(t.Context(), req); err == nil || !strings.Contains(err.Error(), "no chart") {
			t.Fatalf("err = %v, want a missing chart error", err)
		}
	})
	t.Run("installs when asked", func(t *testing.T) {
		f := newFixture(t)
		req := request()
		req.Install = true
		req.Chart = chartPath
		res, err := f.r.Apply(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Installed || !res.Changed || res.Revision != 1 || res.Status != "deployed" {
			t.Errorf("Apply = %+v, want an installed revision 1", res)
		}
		if s := f.current(); s.ValuesDigest != res.ValuesDigest || s.Chart != "docsadmin-self-hosted-0.1.0" {
			t.Errorf("Current = %+v", s)
		}
		// Install only applies to a missing release: now it upgrades.
		req.Version = "v2"
		if res, err := f.r.Apply(t.Context(), req); err != nil || res.Installed || res.Revision != 2 {
			t.Errorf("second Apply = %+v, %v; want an upgrade to revision 2", res, err)
		}
	})
}

func TestApply_atomicRollsBackFailedUpgrade(t *testing.T) {
	f := newFixture(t)
	f.seed(otherValues)
	waitErr := errors.New("deployment docs never became ready")
	f.cfg.KubeClient = &failFirstWait{PrintingKubeClient: kubefake.PrintingKubeClient{Out: io.Discard}, err: waitErr}

	_, err := f.r.Apply(t.Context(), request())
	if !errors.Is(err, waitErr) {
		t.Fatalf("err = %v, want the wait error", err)
	}
	if !strings.Contains(err.Error(), "rolled back") {
		t.Errorf("error %q does not say it rolled back", err)
	}
	want := map[int]release.Status{1: release.StatusSuperseded, 2: release.StatusFailed, 3: release.StatusDeployed}
	if h := f.history(); !maps.Equal(h, want) {
		t.Errorf("history = %v, want %v", h, want)
	}
	s := f.current()
	if s.Revision != 3 || s.Enabled || s.BundleURL != "" {
		t.Errorf("Current = %+v, want revision 3 back on the seed values", s)
	}
	if got := f.config(3); !reflect.DeepEqual(got["image"], otherValues["image"]) {
		t.Errorf("rollback lost the other values: %v", got)
	}
}

func TestApply_nonAtomicLeavesFailedRevisionAndRetries(t *testing.T) {
	f := newFixture(t)
	f.seed(nil)
	waitErr := errors.New("not ready")
	f.cfg.KubeClient = &failFirstWait{PrintingKubeClient: kubefake.PrintingKubeClient{Out: io.Discard}, err: waitErr}
	req := request()
	req.OnFailure, req.Wait = KeepFailed, true

	if _, err := f.r.Apply(t.Context(), req); !errors.Is(err, waitErr) {
		t.Fatalf("err = %v, want the wait error", err)
	}
	if s := f.current(); s.Status != "failed" || s.Revision != 2 {
		t.Fatalf("Current = %+v, want failed revision 2", s)
	}
	// The failed revision carries the values but is not deployed: the next
	// run must not mistake it for a no-op.
	res, err := f.r.Apply(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Changed || res.Revision != 3 || res.Status != "deployed" {
		t.Errorf("retry = %+v, want deployed revision 3", res)
	}
}

func TestApply_pendingReleaseNeedsAPerson(t *testing.T) {
	for _, tc := range []struct {
		name     string
		seed     bool
		status   release.Status
		rev      int
		rollTo   int
		recovery string
	}{
		{"upgrade", true, release.StatusPendingUpgrade, 2, 1, "helm rollback docs 1 --namespace docs"},
		{"install", false, release.StatusPendingInstall, 1, 0, "helm uninstall docs --namespace docs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			if tc.seed {
				f.seed(nil)
			}
			// What a helm process killed half-way leaves behind.
			err := f.cfg.Releases.Create(&release.Release{
				Name: testRelease, Namespace: testNamespace, Version: tc.rev,
				Info: &release.Info{Status: tc.status},
			})
			if err != nil {
				t.Fatal(err)
			}
			before := len(f.history())

			req := request()
			req.Install, req.Chart = true, chartPath
			_, err = f.r.Apply(t.Context(), req)
			var pe *PendingError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *PendingError", err)
			}
			if pe.Revision != tc.rev || pe.RollbackTo != tc.rollTo || pe.Status != string(tc.status) {
				t.Errorf("PendingError = %+v", pe)
			}
			for _, want := range []string{fmt.Sprintf("revision %d", tc.rev), string(tc.status), tc.recovery} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
			if n := len(f.history()); n != before {
				t.Errorf("%d revisions after the error, want %d", n, before)
			}
		})
	}
}

func TestCurrent_detectsDriftAndApplyCorrectsIt(t *testing.T) {
	f := newFixture(t)
	f.seed(otherValues)
	applied, err := f.r.Apply(t.Context(), request())
	if err != nil {
		t.Fatal(err)
	}

	f.handUpgrade(map[string]interface{}{ValuesKey: map[string]interface{}{KeyVersion: "hand-edited"}})
	s := f.current()
	if s.Version != "hand-edited" || s.ValuesDigest == applied.ValuesDigest || s.Revision != 3 {
		t.Fatalf("Current = %+v, want the hand-edited version at revision 3", s)
	}
	if s.BundleURL != testURL || !s.Enabled {
		t.Errorf("Current = %+v, the untouched values changed", s)
	}

	res, err := f.r.Apply(t.Context(), request())
	if err != nil {
		t.Fatal(err)
	}
	if !res.Changed || res.Revision != 4 {
		t.Errorf("Apply = %+v, want a correcting revision 4", res)
	}
	if s := f.current(); s.ValuesDigest != applied.ValuesDigest || s.Version != "2024-06-01" {
		t.Errorf("Current = %+v after correction", s)
	}
	if got := f.config(4); !reflect.DeepEqual(got["image"], otherValues["image"]) || got["replicaCount"] != 3 {
		t.Errorf("correction lost the other values: %v", got)
	}

	// Someone switches static export off again.
	f.handUpgrade(map[string]interface{}{ValuesKey: map[string]interface{}{KeyEnabled: false}})
	if s := f.current(); s.Enabled || s.LinkValid(time.Date(2029, 1, 1, 0, 0, 0, 0, time.UTC), time.Hour) {
		t.Errorf("Current = %+v, want disabled and not reusable", s)
	}
}

func TestCurrent_missingRelease(t *testing.T) {
	f := newFixture(t)
	if _, err := f.r.Current(t.Context(), "nope"); !errors.Is(err, ErrReleaseNotFound) {
		t.Errorf("err = %v, want ErrReleaseNotFound", err)
	}
}

func TestApply_cancelledContextCreatesNothing(t *testing.T) {
	f := newFixture(t)
	f.seed(nil)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := f.r.Apply(ctx, request()); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if n := len(f.history()); n != 1 {
		t.Errorf("%d revisions, want 1", n)
	}
}

func TestApply_cancelDuringWaitRollsBack(t *testing.T) {
	f := newFixture(t)
	f.seed(nil)
	kc := &blockingWait{
		PrintingKubeClient: kubefake.PrintingKubeClient{Out: io.Discard},
		entered:            make(chan struct{}),
		release:            make(chan struct{}),
	}
	// Helm leaves its upgrade goroutine blocked in Wait; let it finish.
	t.Cleanup(func() { close(kc.release) })
	f.cfg.KubeClient = kc

	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		<-kc.entered
		cancel()
	}()
	_, err := f.r.Apply(ctx, request())
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if s := f.current(); s.Status != "deployed" || s.Enabled {
		t.Errorf("Current = %+v, want the seed values rolled back into place", s)
	}
}

func TestApply_neverLogsOrReturnsTheLink(t *testing.T) {
	f := newFixture(t)
	f.seed(nil)
	f.cfg.KubeClient = &kubefake.FailingKubeClient{
		PrintingKubeClient: kubefake.PrintingKubeClient{Out: io.Discard},
		// An API server error that quotes the rendered Secret.
		UpdateError: fmt.Errorf("secret docs-bundle: invalid value %q", testURL),
	}
	req := request()
	req.OnFailure = KeepFailed
	_, err := f.r.Apply(t.Context(), req)
	if err == nil {
		t.Fatal("Apply succeeded; want the update error")
	}
	if strings.Contains(err.Error(), testURLSig) {
		t.Errorf("error leaks the signature: %v", err)
	}
	if !strings.Contains(err.Error(), "https://bundles.example.com/se_1/bundle.tar.gz?REDACTED") {
		t.Errorf("error %q lost the redacted link", err)
	}
	logs := f.logs.String()
	if strings.Contains(logs, testURLSig) {
		t.Errorf("logs leak the signature:\n%s", logs)
	}
	if !strings.Contains(logs, "bundle_url=https://bundles.example.com/se_1/bundle.tar.gz?REDACTED") {
		t.Errorf("logs do not name the redacted link:\n%s", logs)
	}
}

func TestApply_rejectsBadRequests(t *testing.T) {
	f := newFixture(t)
	for name, mutate := range map[string]func(*Request){
		"no release":   func(r *Request) { r.Release = "" },
		"no version":   func(r *Request) { r.Version = "" },
		"relative url": func(r *Request) { r.BundleURL = "bundle.tar.gz?sig=" + testURLSig },
	} {
		t.Run(name, func(t *testing.T) {
			req := request()
			mutate(&req)
			_, err := f.r.Apply(t.Context(), req)
			if err == nil {
				t.Fatal("Apply accepted the request")
			}
			if strings.Contains(err.Error(), testURLSig) {
				t.Errorf("error leaks the link: %v", err)
			}
		})
	}
}
