package rolloutcmd

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
)

// noRelease is a cluster without the release: with --install and --dry-run
// the runner gets as far as saying which version it would roll out,
// without a Kubernetes API server.
type noRelease struct{}

func (noRelease) Apply(context.Context, rollout.Request) (rollout.Result, error) {
	panic("a dry run must not apply")
}

func (noRelease) Current(context.Context, string) (*rollout.State, error) {
	return nil, rollout.ErrReleaseNotFound
}

// versionServer is the reference server behind a middleware that counts
// bundle downloads and can stall them; omit makes it answer like a server
// that predates the content version.
type versionServer struct {
	env       *apiservertest.Env
	api       *client.Client
	downloads atomic.Int32
	stall     atomic.Bool
}

func newVersionServer(t *testing.T, omit, stall bool) *versionServer {
	t.Helper()
	vs := &versionServer{}
	vs.stall.Store(stall)
	var opts []apiservertest.Option
	if omit {
		opts = append(opts, apiservertest.WithoutContentVersion())
	}
	vs.env = apiservertest.Start(t, append(opts, apiservertest.WithMiddleware(vs.count))...)
	var err error
	vs.api, err = client.New(client.Config{BaseURL: vs.env.URL, APIKey: vs.env.Key, Clock: vs.env.Clock})
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

func (vs *versionServer) count(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/bundles/") {
			vs.downloads.Add(1)
			if vs.stall.Load() {
				<-r.Context().Done() // until the client gives up
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// dryRun exports the demo domain and returns the output of a dry run.
func (vs *versionServer) dryRun(t *testing.T, download *http.Client) string {
	t.Helper()
	code, out := vs.run(t, download)
	if code != ExitOK {
		t.Fatalf("dry run exit %d:\n%s", code, out)
	}
	return out
}

// run is one dry run, with its exit code and output.
func (vs *versionServer) run(t *testing.T, download *http.Client) (int, string) {
	var out bytes.Buffer
	r := &Runner{
		Opts: Options{Request: rollout.Request{Release: release, Install: true, OnFailure: rollout.KeepFailed}, Domain: vs.env.Domain, DryRun: true, RenewBefore: 15 * time.Minute},
		API:  vs.api, Roller: noRelease{}, Clock: vs.env.Clock, Out: &out, Log: hclog.NewNullLogger(),
		Download: download,
	}
	return r.Run(t.Context()), out.String()
}

// jobAndManifest returns the one job the run started and the content
// version in its bundle's manifest, read here after the run's downloads
// were counted.
func (vs *versionServer) jobAndManifest(t *testing.T, out string) (string, string) {
	t.Helper()
	_, rest, ok := strings.Cut(out, "started export ")
	if !ok {
		t.Fatalf("no export started:\n%s", out)
	}
	jobID, _, _ := strings.Cut(rest, " ")
	b, err := vs.api.GenerateBundle(t.Context(), jobID)
	if err != nil {
		t.Fatal(err)
	}
	vs.stall.Store(false)
	resp, err := http.Get(b.BundleURL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	m, err := bundle.VerifyArchive(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return jobID, m.Version
}

func wouldRollOut(out string) string {
	_, rest, _ := strings.Cut(out, " to version ")
	v, _, _ := strings.Cut(rest, " ")
	return v
}

// TestRollout_versionFromAPI: when the API sends the content version, the
// rollout takes it from there and never downloads the bundle.
func TestRollout_versionFromAPI(t *testing.T) {
	vs := newVersionServer(t, false, false)
	out := vs.dryRun(t, nil)
	if n := vs.downloads.Load(); n != 0 {
		t.Fatalf("%d bundle downloads; the API sent the version, so none are needed", n)
	}
	jobID, want := vs.jobAndManifest(t, out)
	job, err := vs.api.GetExport(t.Context(), jobID)
	if err != nil {
		t.Fatal(err)
	}
	if got := wouldRollOut(out); got != want || got != job.Version {
		t.Fatalf("would roll out version %q; manifest %q, API %q\n%s", got, want, job.Version, out)
	}
}

// TestRollout_versionFromManifest: a server that does not send the
// version costs one download, of which only the manifest is read.
func TestRollout_versionFromManifest(t *testing.T) {
	vs := newVersionServer(t, true, false)
	out := vs.dryRun(t, nil)
	if n := vs.downloads.Load(); n != 1 {
		t.Fatalf("%d bundle downloads, want 1 to read the manifest", n)
	}
	if _, want := vs.jobAndManifest(t, out); wouldRollOut(out) != want {
		t.Fatalf("would roll out version %q, manifest says %q\n%s", wouldRollOut(out), want, out)
	}
}

// TestRollout_versionDownloadTimesOut: a bundle server that stalls is
// given up on after the download client's timeout, and the run fails
// saying the content version is unknown and how to give one: it neither
// hangs nor rolls out the job id as a version (a job id changes on every
// re-export, so pods would roll for content that did not change).
func TestRollout_versionDownloadTimesOut(t *testing.T) {
	vs := newVersionServer(t, true, true)
	start := time.Now()
	code, out := vs.run(t, &http.Client{Timeout: 200 * time.Millisecond})
	if code != ExitFailed {
		t.Fatalf("exit %d, want %d (failed):\n%s", code, ExitFailed, out)
	}
	if vs.downloads.Load() != 1 {
		t.Fatalf("%d bundle downloads, want 1", vs.downloads.Load())
	}
	jobID, _ := vs.jobAndManifest(t, out)
	if strings.Contains(out, "to version") || !strings.Contains(out, "no content version") ||
		!strings.Contains(out, "--version") || !strings.Contains(out, jobID) {
		t.Fatalf("the run must fail naming the job, the missing content version and --version:\n%s", out)
	}
	// The export itself takes a moment; the stalled download must not add
	// anything like the default timeout.
	if d := time.Since(start); d > defaultDownloadTimeout/2 {
		t.Fatalf("the run took %s; the download timeout did not apply", d)
	}
}
