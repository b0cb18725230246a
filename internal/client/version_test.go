package client

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
)

// noDownloads is a download client that refuses every request, so a test
// sees whether the archive was needed at all.
func noDownloads(t *testing.T) *http.Client {
	return &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		t.Logf("download of %s refused", r.URL.Redacted())
		return nil, errors.New("downloads refused by the test")
	})}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// exportAndManifest runs one export on env and returns the finished job
// and the content version in its bundle's manifest.
func exportAndManifest(t *testing.T, env *apiservertest.Env, c *Client) (api.ExportJob, string) {
	t.Helper()
	ctx := testCtx(t)
	job, err := c.StartExport(ctx, api.StartExportRequest{Domain: env.Domain, Version: "label-not-version"})
	if err != nil {
		t.Fatal(err)
	}
	done, err := c.WaitExport(ctx, job.JobID, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.GenerateBundle(ctx, job.JobID)
	if err != nil {
		t.Fatal(err)
	}
	m, err := bundle.FetchManifest(ctx, http.DefaultClient, b.BundleURL)
	if err != nil {
		t.Fatal(err)
	}
	if m.Version == "" || m.Version == job.JobID || m.Version == "label-not-version" {
		t.Fatalf("manifest version %q", m.Version)
	}
	return done, m.Version
}

// The reference server sends the content version on the completed job and
// on every bundle answer; both helpers return it without downloading.
func TestContentVersion_fromServer(t *testing.T) {
	env := apiservertest.Start(t)
	c := contractClient(t, env.URL, env.Key)
	done, want := exportAndManifest(t, env, c)
	if done.Version != want {
		t.Fatalf("completed job carries version %q, manifest %q", done.Version, want)
	}
	got, err := c.ContentVersion(testCtx(t), done, noDownloads(t))
	if err != nil || got != want {
		t.Fatalf("ContentVersion = %q, %v; want %q", got, err, want)
	}
	b, err := c.GenerateBundle(testCtx(t), done.JobID)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := BundleVersion(testCtx(t), b, noDownloads(t)); err != nil || got != want {
		t.Fatalf("BundleVersion = %q, %v; want %q", got, err, want)
	}
}

// A server that sends no version (the real service's schema has none):
// the helpers read it from the manifest, and when that cannot be read
// they fail, saying why, rather than answer with the job id.
func TestContentVersion_withoutServerVersion(t *testing.T) {
	env := apiservertest.Start(t, apiservertest.WithoutContentVersion())
	c := contractClient(t, env.URL, env.Key)
	done, want := exportAndManifest(t, env, c)
	if done.Version != "" {
		t.Fatalf("the server sent version %q; this test needs one that does not", done.Version)
	}
	got, err := c.ContentVersion(testCtx(t), done, nil)
	if err != nil || got != want {
		t.Fatalf("ContentVersion = %q, %v; want the manifest's %q", got, err, want)
	}

	got, err = c.ContentVersion(testCtx(t), done, noDownloads(t))
	if !errors.Is(err, ErrNoContentVersion) || got != "" {
		t.Fatalf("ContentVersion with the manifest out of reach = %q, %v; want ErrNoContentVersion", got, err)
	}
	msg := err.Error()
	if !strings.Contains(msg, done.JobID) || !strings.Contains(msg, "the server sent none") || !strings.Contains(msg, "manifest") {
		t.Fatalf("error does not say which job and why: %s", msg)
	}
	b, err := c.GenerateBundle(testCtx(t), done.JobID)
	if err != nil {
		t.Fatal(err)
	}
	_, err = BundleVersion(testCtx(t), b, noDownloads(t))
	u, perr := url.Parse(b.BundleURL)
	if perr != nil {
		t.Fatal(perr)
	}
	if sig := u.Query().Get("signature"); !errors.Is(err, ErrNoContentVersion) || sig == "" || strings.Contains(err.Error(), sig) {
		t.Fatalf("BundleVersion error %v: want ErrNoContentVersion without the link's signature %q", err, sig)
	}
}

// Only a completed job has a content version.
func TestContentVersion_notCompleted(t *testing.T) {
	c, err := New(Config{BaseURL: "http://127.0.0.1:1", APIKey: "k_x"})
	if err != nil {
		t.Fatal(err)
	}
	for _, status := range []string{api.ExportQueued, api.ExportRunning, api.ExportFailed} {
		job := api.ExportJob{JobID: "se_0123456789abcdef", Status: status}
		v, err := c.ContentVersion(testCtx(t), job, noDownloads(t))
		if !errors.Is(err, ErrNoContentVersion) || v != "" || !strings.Contains(err.Error(), fmt.Sprintf("the job is %s", status)) {
			t.Fatalf("%s: ContentVersion = %q, %v", status, v, err)
		}
	}
}
