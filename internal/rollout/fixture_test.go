package rollout

import (
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
	"github.com/hashicorp/go-hclog"
	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/kube"
	kubefake "helm.sh/helm/v3/pkg/kube/fake"
	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/storage"
	"helm.sh/helm/v3/pkg/storage/driver"
)

const (
	testRelease   = "docs"
	testNamespace = "docs"
)

// fixture is a Roller over Helm's memory storage and a fake kube client.
type fixture struct {
	t    *testing.T
	cfg  *action.Configuration
	r    *Roller
	logs *testutil.SyncBuffer
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	mem := driver.NewMemory()
	mem.SetNamespace(testNamespace)
	caps := *chartutil.DefaultCapabilities
	caps.KubeVersion = *testKubeVersion
	cfg := &action.Configuration{
		Releases:     storage.Init(mem),
		KubeClient:   &kubefake.PrintingKubeClient{Out: io.Discard},
		Capabilities: &caps,
	}
	logs := &testutil.SyncBuffer{}
	log := hclog.New(&hclog.LoggerOptions{Level: hclog.Trace, Output: logs})
	return &fixture{t: t, cfg: cfg, r: NewWithActionConfig(cfg, testNamespace, log), logs: logs}
}

// seed installs the reference chart the way a person would, with values
// that have nothing to do with static export, and returns the revision.
func (f *fixture) seed(vals map[string]interface{}) {
	f.t.Helper()
	ch, err := loader.Load(chartPath)
	if err != nil {
		f.t.Fatal(err)
	}
	in := action.NewInstall(f.cfg)
	in.ReleaseName = testRelease
	in.Namespace = testNamespace
	if _, err := in.Run(ch, vals); err != nil {
		f.t.Fatalf("seed install: %v", err)
	}
}

// handUpgrade is someone running `helm upgrade --reuse-values --set ...`
// behind Terraform's back.
func (f *fixture) handUpgrade(set map[string]interface{}) {
	f.t.Helper()
	last, err := f.cfg.Releases.Last(testRelease)
	if err != nil {
		f.t.Fatal(err)
	}
	up := action.NewUpgrade(f.cfg)
	up.Namespace = testNamespace
	up.ResetThenReuseValues = true
	if _, err := up.Run(testRelease, last.Chart, set); err != nil {
		f.t.Fatalf("hand upgrade: %v", err)
	}
}

// history returns revision → status, copied out of the shared records.
func (f *fixture) history() map[int]release.Status {
	f.t.Helper()
	h, err := f.cfg.Releases.History(testRelease)
	if err != nil && !errors.Is(err, driver.ErrReleaseNotFound) {
		f.t.Fatal(err)
	}
	out := map[int]release.Status{}
	for _, r := range h {
		out[r.Version] = r.Info.Status
	}
	return out
}

// revision returns a deep copy of one revision's user-supplied values.
func (f *fixture) config(rev int) map[string]interface{} {
	f.t.Helper()
	r, err := f.cfg.Releases.Get(testRelease, rev)
	if err != nil {
		f.t.Fatal(err)
	}
	return copyValues(r.Config)
}

func (f *fixture) current() *State {
	f.t.Helper()
	s, err := f.r.Current(f.t.Context(), testRelease)
	if err != nil {
		f.t.Fatalf("current: %v", err)
	}
	return s
}

func request() Request {
	return Request{
		Release:   testRelease,
		BundleURL: testURL,
		Version:   "2024-06-01",
		ExpiresAt: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC),
	}
}

// failFirstWait fails the first Wait only. FailingKubeClient's WaitError
// would also fail the wait of the atomic rollback and hide whether the
// rollback itself works.
type failFirstWait struct {
	kubefake.PrintingKubeClient
	err   error
	mu    sync.Mutex
	calls int
}

func (c *failFirstWait) Wait(rl kube.ResourceList, d time.Duration) error {
	c.mu.Lock()
	c.calls++
	n := c.calls
	c.mu.Unlock()
	if n == 1 {
		return c.err
	}
	return c.PrintingKubeClient.Wait(rl, d)
}

// blockingWait blocks the first Wait until released, to cancel a context
// while Helm is waiting; later waits (the rollback's) pass.
type blockingWait struct {
	kubefake.PrintingKubeClient
	entered chan struct{}
	release chan struct{}
	once    sync.Once
}

func (c *blockingWait) Wait(rl kube.ResourceList, d time.Duration) error {
	first := false
	c.once.Do(func() { first = true })
	if first {
		close(c.entered)
		<-c.release
		return errors.New("released")
	}
	return c.PrintingKubeClient.Wait(rl, d)
}
