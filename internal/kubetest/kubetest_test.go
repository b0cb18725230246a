package kubetest

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

func TestStart_servesBuiltVersionAndStoresObjects(t *testing.T) {
	began := time.Now()
	c := Start(t)
	t.Logf("cluster ready in %s", time.Since(began).Round(time.Millisecond))

	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(
		&clientcmd.ClientConfigLoadingRules{ExplicitPath: c.Kubeconfig},
		&clientcmd.ConfigOverrides{CurrentContext: c.Context},
	).ClientConfig()
	if err != nil {
		t.Fatalf("load kubeconfig: %v", err)
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}

	// Helm reads the server version for .Capabilities and kubeVersion
	// constraints; a binary built without the version ldflags reports
	// v0.0.0-master and breaks charts that pin a minimum version.
	v, err := cs.Discovery().ServerVersion()
	if err != nil {
		t.Fatalf("server version: %v", err)
	}
	if v.GitVersion != c.Version {
		t.Errorf("server version = %q, want %q (built with the version ldflags?)", v.GitVersion, c.Version)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "probe"},
		Data:       map[string]string{"k": "v"},
	}
	if _, err := cs.CoreV1().ConfigMaps("default").Create(ctx, cm, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create configmap: %v", err)
	}
	got, err := cs.CoreV1().ConfigMaps("default").Get(ctx, "probe", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("get configmap: %v", err)
	}
	if got.Data["k"] != "v" {
		t.Errorf("configmap data = %v, want k=v", got.Data)
	}
}

func TestStart_cleanupStopsTheServer(t *testing.T) {
	var server string
	if !t.Run("cluster", func(t *testing.T) {
		server = Start(t).Server
	}) {
		return
	}
	if server == "" {
		t.Skip("the subtest skipped starting a cluster")
	}
	u, err := url.Parse(server)
	if err != nil {
		t.Fatal(err)
	}
	// The subtest's cleanup has run by now; the port must no longer accept
	// connections. Poll briefly in case the kernel is slow to close it.
	testutil.Eventually(t, 10*time.Second, server+" to refuse connections after the cleanup", func() bool {
		conn, err := net.DialTimeout("tcp", u.Host, time.Second)
		if err != nil {
			return true
		}
		conn.Close()
		return false
	})
}

// recorder captures Start's verdict instead of ending the real test.
// Fatalf and Skipf end the goroutine as the testing package does.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Skipf(format string, args ...any) {
	r.skip = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func runStart(t *testing.T, opts ...Option) *recorder {
	rec := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Start(rec, opts...)
	}()
	<-done
	return rec
}

func TestStart_missingBinaries(t *testing.T) {
	empty := t.TempDir()
	t.Setenv(EnvBin, empty)
	if testing.Short() {
		// The fast loop never looks for the binaries: Start skips first,
		// whatever EnvSkip says, and says why.
		t.Setenv(EnvSkip, "")
		rec := runStart(t)
		if rec.fatal != "" || !strings.Contains(rec.skip, "-short") || !strings.Contains(rec.skip, "Kubernetes") {
			t.Fatalf("under -short: skip %q, failure %q; want a skip naming -short and Kubernetes", rec.skip, rec.fatal)
		}
		return
	}

	t.Run("fails and names the build script", func(t *testing.T) {
		t.Setenv(EnvSkip, "")
		rec := runStart(t)
		if rec.skip != "" {
			t.Fatalf("skipped (%q), want a failure", rec.skip)
		}
		for _, want := range []string{"kube-apiserver not found in " + empty, "tools/kube/build.sh"} {
			if !strings.Contains(rec.fatal, want) {
				t.Errorf("failure %q does not mention %q", rec.fatal, want)
			}
		}
	})
	t.Run("with nodes names the missing controllers", func(t *testing.T) {
		// A cache from before WithNodes existed: the API server alone.
		old := t.TempDir()
		t.Setenv(EnvBin, old)
		t.Setenv(EnvSkip, "")
		for _, name := range []string{"kube-apiserver", "etcd"} {
			if err := os.WriteFile(filepath.Join(old, name), nil, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		rec := runStart(t, WithNodes())
		for _, want := range []string{"kube-controller-manager not found in " + old, "tools/kube/build.sh"} {
			if !strings.Contains(rec.fatal, want) {
				t.Errorf("failure %q does not mention %q", rec.fatal, want)
			}
		}
	})
	t.Run("skips only when asked", func(t *testing.T) {
		t.Setenv(EnvSkip, "1")
		rec := runStart(t)
		if rec.fatal != "" {
			t.Fatalf("failed (%q), want a skip", rec.fatal)
		}
		if !strings.Contains(rec.skip, "not found") {
			t.Errorf("skip message %q does not say what is missing", rec.skip)
		}
	})
}

func TestBinDir_followsBuildModuleVersions(t *testing.T) {
	t.Setenv(EnvBin, "")
	t.Setenv(EnvCache, "/cache")
	dir, version, err := binDir()
	if err != nil {
		t.Fatal(err)
	}
	v, err := readVersions("../../tools/kube")
	if err != nil {
		t.Fatal(err)
	}
	// Every pinned version is part of the key, so that bumping any of
	// them builds into a fresh directory instead of reusing stale binaries.
	want := "/cache/" + v.kube + "-etcd" + strings.TrimPrefix(v.etcd, "v") +
		"-kwok" + strings.TrimPrefix(v.kwok, "v") + "/bin"
	if dir != want || version != v.kube {
		t.Errorf("binDir() = %q, %q; want %q, %q", dir, version, want, v.kube)
	}
	for _, pinned := range []string{v.kube, v.etcd, v.kwok} {
		if !strings.HasPrefix(pinned, "v") {
			t.Errorf("pinned version %q does not look like a module version", pinned)
		}
	}
}
