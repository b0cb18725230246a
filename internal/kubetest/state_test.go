package kubetest

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// TestStartWithStateDir_keepsTheClusterAcrossStarts is what `make demo`
// relies on: a stopped cluster started again from its state directory
// still holds its objects and its node, and answers the kubeconfig that
// the first start wrote.
func TestStartWithStateDir_keepsTheClusterAcrossStarts(t *testing.T) {
	testutil.SkipShort(t, testutil.NeedsKube) // before the subtest, whose skip would not stop this test
	state := filepath.Join(t.TempDir(), "cluster")
	var firstKubeconfig []byte
	var server, nodeUID string
	if !t.Run("first start", func(t *testing.T) {
		c := Start(t, WithStateDir(state), WithNodes())
		cs := clientsetFor(t, c.Kubeconfig)
		ns := createNamespace(t, cs, "kept")
		cm := &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: "survivor", Namespace: ns},
			Data:       map[string]string{"answer": "42"},
		}
		if _, err := cs.CoreV1().ConfigMaps(ns).Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
			t.Fatalf("create configmap: %v", err)
		}
		node, err := cs.CoreV1().Nodes().Get(context.Background(), c.Node, metav1.GetOptions{})
		if err != nil {
			t.Fatalf("get node: %v", err)
		}
		nodeUID = string(node.UID)
		server = c.Server
		if firstKubeconfig, err = os.ReadFile(c.Kubeconfig); err != nil {
			t.Fatal(err)
		}

		// While this cluster runs, its directory is locked.
		_, err = StartEnv(t, WithStateDir(state))
		if !errors.Is(err, ErrStateLocked) {
			t.Fatalf("second start on a running state directory: err = %v, want ErrStateLocked", err)
		}
		if !strings.Contains(err.Error(), state) {
			t.Errorf("lock error %q does not name the directory %s", err, state)
		}
	}) {
		return
	}
	// The subtest's cleanups have stopped every process; the state stays.
	if _, err := os.Stat(filepath.Join(state, "etcd")); err != nil {
		t.Fatalf("etcd data gone after stop: %v", err)
	}

	c := Start(t, WithStateDir(state), WithNodes())
	if c.Server != server {
		t.Errorf("server moved from %s to %s", server, c.Server)
	}
	oldKubeconfig := filepath.Join(t.TempDir(), "old-kubeconfig")
	if err := os.WriteFile(oldKubeconfig, firstKubeconfig, 0o600); err != nil {
		t.Fatal(err)
	}
	cs := clientsetFor(t, oldKubeconfig)
	cm, err := cs.CoreV1().ConfigMaps("kept").Get(context.Background(), "survivor", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("configmap after restart, through the first start's kubeconfig: %v", err)
	}
	if cm.Data["answer"] != "42" {
		t.Errorf("configmap data = %v, want answer=42", cm.Data)
	}
	node, err := cs.CoreV1().Nodes().Get(context.Background(), c.Node, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("node after restart: %v", err)
	}
	if string(node.UID) != nodeUID {
		t.Errorf("node %s has UID %s after restart, want the kept %s", c.Node, node.UID, nodeUID)
	}
	// The kept CA still signs client certificates the server accepts.
	certPEM, keyPEM, err := c.ClientCertificate("kept-admin", "system:masters")
	if err != nil {
		t.Fatalf("client certificate after restart: %v", err)
	}
	certClient, err := kubernetes.NewForConfig(&rest.Config{Host: c.Server, TLSClientConfig: rest.TLSClientConfig{
		CAData: c.CAData, CertData: certPEM, KeyData: keyPEM}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := certClient.CoreV1().ConfigMaps("kept").Get(context.Background(), "survivor", metav1.GetOptions{}); err != nil {
		t.Errorf("configmap through a client certificate issued after restart: %v", err)
	}
	now, err := os.ReadFile(c.Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(now, firstKubeconfig) {
		t.Errorf("kubeconfig rewritten differently on restart:\n%s\nwant:\n%s", now, firstKubeconfig)
	}
}

// logEnv is an Env for the tests that set state up without a cluster.
type logEnv struct {
	*testing.T
	logs []string
}

func (e *logEnv) Logf(format string, args ...any) {
	e.logs = append(e.logs, format)
	e.T.Logf(format, args...)
}

func TestPrepareWithStateDir_savedPortTaken(t *testing.T) {
	state := t.TempDir()
	s, err := createState(state)
	if err != nil {
		t.Fatal(err)
	}
	// The kernel gave this port out once; it may have been reused since,
	// in which case the test cannot take it and proves nothing.
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(s.ports[2]))
	if err != nil {
		t.Skipf("saved port %d is in use by another program already: %v", s.ports[2], err)
	}
	defer l.Close()
	_, err = prepare(t, options{stateDir: state})
	if err == nil {
		t.Fatal("prepare succeeded with the saved kube-apiserver port taken")
	}
	want := "port " + strconv.Itoa(s.ports[2]) + " (kube-apiserver)"
	if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), state) {
		t.Errorf("error %q does not say %q and name %s", err, want, state)
	}
}

func TestPrepareWithStateDir_reusesWhatTheFirstStartMade(t *testing.T) {
	state := t.TempDir()
	first, err := prepare(t, options{stateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	// prepare's lock is released by t's cleanup; take the state again as
	// a later start would, without the lock in the way.
	again, err := loadState(&logEnv{T: t}, state, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if first.dir != again.dir || first.token != again.token || !reflect.DeepEqual(first.ports, again.ports) ||
		!reflect.DeepEqual(first.pki, again.pki) {
		t.Errorf("the second load differs from the first start's setup")
	}
}

// TestLoadPKI_matchesNewKeptPKI keeps loadPKI in step with newPKI: a
// field added to pki and filled by newPKI must be loaded too.
func TestLoadPKI_matchesNewKeptPKI(t *testing.T) {
	dir := t.TempDir()
	made, err := newKeptPKI(dir)
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := loadPKI(dir)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(made, loaded) {
		return
	}
	// The fields are unexported (and hold keys): name them, no values.
	mv, lv := reflect.ValueOf(made).Elem(), reflect.ValueOf(loaded).Elem()
	var missing []string
	for i := range mv.NumField() {
		if !mv.Field(i).IsZero() && lv.Field(i).IsZero() {
			missing = append(missing, mv.Type().Field(i).Name)
		}
	}
	t.Errorf("loadPKI differs from what newPKI made; not loaded at all: %v", missing)
}

func TestLoadState_renewsCertificatesNearExpiry(t *testing.T) {
	state := t.TempDir()
	first, err := createState(state)
	if err != nil {
		t.Fatal(err)
	}
	expires, err := certExpiry(first.pki.certFile)
	if err != nil {
		t.Fatal(err)
	}
	e := &logEnv{T: t}
	again, err := loadState(e, state, expires.Add(-certRenewMargin-time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.pki.caPEM, first.pki.caPEM) || len(e.logs) != 0 {
		t.Fatalf("certificates renewed while still valid beyond the margin (logs %q)", e.logs)
	}
	renewed, err := loadState(e, state, expires.Add(-certRenewMargin+time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(renewed.pki.caPEM, first.pki.caPEM) {
		t.Error("certificates within the margin of expiry were kept")
	}
	if len(e.logs) != 1 {
		t.Errorf("logs = %q, want one line saying the certificates were renewed", e.logs)
	}
	if renewed.token != first.token || !reflect.DeepEqual(renewed.ports, first.ports) {
		t.Errorf("renewal changed the token or ports: %v, want %v", renewed.ports, first.ports)
	}
	// The renewed files are the ones later starts load.
	later, err := loadState(e, state, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(later.pki.caPEM, renewed.pki.caPEM) {
		t.Error("a later start did not load the renewed CA")
	}
}

func TestLoadState_incompleteStateIsRefused(t *testing.T) {
	state := t.TempDir()
	if err := os.WriteFile(filepath.Join(state, stateFile), []byte(`{"ports":[1]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := loadState(&logEnv{T: t}, state, time.Now())
	if err == nil || !strings.Contains(err.Error(), "remove "+state) {
		t.Errorf("err = %v, want one that says to remove %s", err, state)
	}
}
