package image_test

import (
	"archive/tar"
	"bufio"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/remote"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/image"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/releasetest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// TestImage_runs pushes the release's image to a registry on loopback,
// pulls this machine's architecture back, unpacks it into a root file
// system and starts its entrypoint there under the image's user (chroot as
// root, else a user namespace): as apiserver, which exports a site; as
// serve-bundle, which serves that export; and as rollout --watch. Each
// answers on its health endpoint from inside the image, with nothing of
// the host's file system.
func TestImage_runs(t *testing.T) {
	r := releasetest.Snapshot(t)
	idx := r.Image(t)
	ref := releasetest.Push(t, releasetest.Registry(t), r.Version, idx)
	pulled, err := remote.Index(ref, remote.WithContext(t.Context()))
	if err != nil {
		t.Fatalf("pull %s: %v", ref, err)
	}
	if a, b := digest(t, pulled), digest(t, idx); a != b {
		t.Fatalf("pulled %s, pushed %s", a, b)
	}
	img := platformImage(t, pulled, runtime.GOARCH)
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	if got := cf.Config.Labels["org.opencontainers.image.revision"]; got != r.Commit {
		t.Errorf("revision label %q, want the commit %s", got, r.Commit)
	}
	if got := cf.Config.Labels["org.opencontainers.image.version"]; got != r.Version {
		t.Errorf("version label %q, want %s", got, r.Version)
	}
	root := unpack(t, img)
	ctr := container{t: t, root: root, env: cf.Config.Env, entry: cf.Config.Entrypoint}

	// The reference server, with its data in the user's home.
	apiOut := ctr.start("apiserver", "--addr", "127.0.0.1:0", "--data-dir", "/home/nonroot/apiserver")
	apiURL := apiOut.line(t, "listening on ")
	healthy(t, apiURL+"/healthz")
	key, err := os.ReadFile(filepath.Join(root, "home/nonroot/apiserver/admin-key"))
	if err != nil {
		t.Fatal(err)
	}
	link := exportLink(t, apiURL, strings.TrimSpace(string(key)))

	// serve-bundle serves that export, its link in a file as the chart's
	// Secret gives it.
	if err := os.WriteFile(filepath.Join(root, "home/nonroot/bundleUrl"), []byte(link), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(filepath.Join(root, "home/nonroot/bundleUrl"), ctr.uid(), ctr.gid()); err != nil && os.Geteuid() == 0 {
		t.Fatal(err)
	}
	siteOut := ctr.start("serve-bundle", "--bundle-url-file", "/home/nonroot/bundleUrl",
		"--addr", "127.0.0.1:0", "--data-dir", "/home/nonroot/sites")
	siteURL := siteOut.line(t, "listening on ")
	healthy(t, siteURL+"/readyz")
	healthy(t, siteURL+"/healthz")

	// rollout --watch, as the renewer runs it, against the apiserver above
	// and a cluster it cannot reach: it keeps retrying and answers on its
	// metrics endpoint, the one it serves.
	kubeconfig := "apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: \"https://127.0.0.1:1\"}}]\n" +
		"users: [{name: u, user: {token: t}}]\ncontexts: [{name: c, context: {cluster: c, user: u}}]\ncurrent-context: c\n"
	if err := os.WriteFile(filepath.Join(root, "home/nonroot/kubeconfig"), []byte(kubeconfig), 0o644); err != nil {
		t.Fatal(err)
	}
	renewer := ctr
	renewer.env = append(append([]string(nil), ctr.env...), "DOCSADMIN_BASE_URL="+apiURL, "DOCSADMIN_API_KEY="+strings.TrimSpace(string(key)))
	rolloutOut := renewer.start("rollout", "--watch", "--release", "docs", "--namespace", "docs",
		"--kubeconfig", "/home/nonroot/kubeconfig", "--domain", "docs.demo.test", "--metrics-addr", "127.0.0.1:0")
	metricsURL := rolloutOut.line(t, "metrics on ")
	healthy(t, metricsURL)
}

// exportLink starts an export on the server, waits for it and returns a
// presigned link to its bundle.
func exportLink(t *testing.T, baseURL, key string) string {
	t.Helper()
	c, err := client.New(client.Config{BaseURL: baseURL, APIKey: key})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	job, err := c.StartExport(ctx, api.StartExportRequest{Domain: "docs.demo.test"})
	if err != nil {
		t.Fatalf("start export: %v", err)
	}
	if _, err := c.WaitExport(ctx, job.JobID, nil); err != nil {
		t.Fatalf("export: %v", err)
	}
	b, err := c.GenerateBundle(ctx, job.JobID)
	if err != nil {
		t.Fatalf("bundle: %v", err)
	}
	return b.BundleURL
}

// healthy polls url until it answers 200, for at most a minute.
func healthy(t *testing.T, url string) {
	t.Helper()
	hc := &http.Client{Timeout: 5 * time.Second}
	testutil.Eventually(t, time.Minute, url+" answering 200", func() bool {
		resp, err := hc.Get(url)
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
}

// unpack writes img's flattened file system into a fresh directory, with
// the owners and modes of its layers (owners only where we may set them).
func unpack(t *testing.T, img v1.Image) string {
	t.Helper()
	root := t.TempDir()
	rc := mutate.Extract(img)
	defer rc.Close()
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return root
		}
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(root, filepath.FromSlash(h.Name))
		if !strings.HasPrefix(p, root+string(filepath.Separator)) {
			t.Fatalf("the image has an entry outside its root: %q", h.Name)
		}
		mode := h.FileInfo().Mode() & (os.ModePerm | os.ModeSticky)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
		case tar.TypeReg:
			// Extract lists the top layer first: a file may come before
			// the directories of the layers below it.
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := io.CopyN(f, tr, h.Size); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatalf("the image has %s of type %c: this image has files and directories only", h.Name, h.Typeflag)
		}
		if os.Geteuid() == 0 {
			if err := os.Lchown(p, h.Uid, h.Gid); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
}

// container starts the image's entrypoint in its root file system.
type container struct {
	t     *testing.T
	root  string
	env   []string
	entry []string
}

func (c container) uid() int { return image.UID }
func (c container) gid() int { return image.GID }

// sysProcAttr confines a process to the root file system as the image's
// user: chroot with the user's credentials as root, else a user namespace
// in which our own user is the image's. Without either the test skips,
// except under CI.
func (c container) sysProcAttr() *syscall.SysProcAttr {
	attr := testutil.ServerProcAttr()
	attr.Chroot = c.root
	if os.Geteuid() == 0 {
		attr.Credential = &syscall.Credential{Uid: uint32(image.UID), Gid: uint32(image.GID)}
		return attr
	}
	attr.Cloneflags = syscall.CLONE_NEWUSER
	attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: image.UID, HostID: os.Getuid(), Size: 1}}
	attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: image.GID, HostID: os.Getgid(), Size: 1}}
	return attr
}

// output is a started process's stdout, read line by line.
type output struct {
	lines  chan string
	stderr *testutil.SyncBuffer
}

// start runs the entrypoint with args until the test ends.
func (c container) start(args ...string) output {
	c.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, c.entry[0], append(c.entry[1:], args...)...)
	cmd.Dir = "/"
	cmd.Env = c.env
	cmd.SysProcAttr = c.sysProcAttr()
	out := output{lines: make(chan string, 16), stderr: &testutil.SyncBuffer{}}
	cmd.Stderr = out.stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		c.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		if os.Geteuid() != 0 && os.Getenv("CI") == "" {
			c.t.Skipf("cannot run the image: not root (for chroot) and no user namespace: %v", err)
		}
		c.t.Fatalf("start %s in the image: %v", args[0], err)
	}
	c.t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
		if c.t.Failed() {
			c.t.Logf("%s's stderr:\n%s", args[0], out.stderr.String())
		}
	})
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			select {
			case out.lines <- sc.Text():
			default:
			}
		}
	}()
	return out
}

// line waits for the line starting with prefix and returns the rest.
func (o output) line(t *testing.T, prefix string) string {
	t.Helper()
	timeout := time.After(time.Minute)
	for {
		select {
		case l := <-o.lines:
			if rest, ok := strings.CutPrefix(l, prefix); ok {
				return rest
			}
		case <-timeout:
			t.Fatalf("no line %q within a minute; stderr:\n%s", prefix, o.stderr.String())
		}
	}
}
