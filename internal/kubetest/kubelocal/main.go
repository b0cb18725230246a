// Command kubelocal runs the test Kubernetes cluster (etcd and
// kube-apiserver from tools/kube/build.sh; with -nodes also the
// controllers and a kwok node, see kubetest.WithNodes) outside the tests,
// for `make demo`: it creates the namespace it is given, writes the
// kubeconfig, prints "ready" and runs until SIGINT or SIGTERM, then stops
// every server and removes their data.
//
// With -state-dir DIR the cluster lives in DIR instead and is kept when
// it stops (see kubetest.WithStateDir): the next start with the same DIR
// brings back the same CA, ports, objects and node, so the kubeconfig
// stays valid and a Helm release installed earlier is still there. A
// saved port taken by another program fails the start with a message
// naming it; DIR is locked while the cluster runs.
//
// Exit codes: 0 stopped by a signal, 1 the cluster did not start (or DIR
// is locked), 2 usage error, 3 the binaries are not built.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/kubetest"
)

// env gives kubetest a scratch dir and runs cleanups on exit.
type env struct {
	dir      string
	cleanups []func()
}

func (e *env) TempDir() string                 { return e.dir }
func (e *env) Cleanup(f func())                { e.cleanups = append(e.cleanups, f) }
func (e *env) Logf(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }

func (e *env) close() {
	for i := len(e.cleanups) - 1; i >= 0; i-- {
		e.cleanups[i]()
	}
	_ = os.RemoveAll(e.dir)
}

func main() { os.Exit(run()) }

func run() int {
	out := flag.String("kubeconfig-out", "kubeconfig", "where to write the kubeconfig")
	ns := flag.String("namespace", "", "a namespace to create")
	nodes := flag.Bool("nodes", false, "also run the controllers and a kwok node, so pods turn Ready")
	stateDir := flag.String("state-dir", "", "keep the cluster in this directory across runs (default: a fresh one each run)")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "kubelocal: unexpected argument %q\n", flag.Arg(0))
		flag.Usage()
		return 2
	}
	var opts []kubetest.Option
	if *nodes {
		opts = append(opts, kubetest.WithNodes())
	}
	if *stateDir != "" {
		opts = append(opts, kubetest.WithStateDir(*stateDir))
	}
	dir, err := os.MkdirTemp("", "kubelocal-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	e := &env{dir: dir}
	defer e.close()
	c, err := kubetest.StartEnv(e, opts...)
	if errors.Is(err, kubetest.ErrNotBuilt) {
		fmt.Fprintf(os.Stderr, "kubelocal: %v (make kube builds them)\n", err)
		return 3
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "kubelocal: %v\n", err)
		return 1
	}
	kubeconfig, err := os.ReadFile(c.Kubeconfig)
	if err == nil {
		err = os.WriteFile(*out, kubeconfig, 0o600)
	}
	if err == nil && *ns != "" {
		err = createNamespace(c.Kubeconfig, *ns)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "kubelocal: %v\n", err)
		return 1
	}
	fmt.Printf("ready: Kubernetes %s at %s\n", c.Version, c.Server)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	return 0
}

func createNamespace(kubeconfig, name string) error {
	rc, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	cs, err := kubernetes.NewForConfig(rc)
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Namespaces().Create(context.Background(),
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	// A kept cluster has it from an earlier run.
	if apierrors.IsAlreadyExists(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("create namespace %s: %w", name, err)
	}
	return nil
}
