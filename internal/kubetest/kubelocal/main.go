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
	"io"
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
	log      io.Writer
}

func (e *env) TempDir() string                 { return e.dir }
func (e *env) Cleanup(f func())                { e.cleanups = append(e.cleanups, f) }
func (e *env) Logf(format string, args ...any) { _, _ = fmt.Fprintf(e.log, format+"\n", args...) }

func (e *env) close() {
	for i := len(e.cleanups) - 1; i >= 0; i-- {
		e.cleanups[i]()
	}
	_ = os.RemoveAll(e.dir)
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is the command; it runs the cluster until ctx is cancelled. Its
// prints discard their errors: with the terminal gone there is no one left
// to tell.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("kubelocal", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("kubeconfig-out", "kubeconfig", "where to write the kubeconfig")
	ns := fs.String("namespace", "", "a namespace to create")
	nodes := fs.Bool("nodes", false, "also run the controllers and a kwok node, so pods turn Ready")
	stateDir := fs.String("state-dir", "", "keep the cluster in this directory across runs (default: a fresh one each run)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		_, _ = fmt.Fprintf(stderr, "kubelocal: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
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
		_, _ = fmt.Fprintf(stderr, "kubelocal: %v\n", err)
		return 1
	}
	e := &env{dir: dir, log: stderr}
	defer e.close()
	c, err := kubetest.StartEnv(e, opts...)
	if errors.Is(err, kubetest.ErrNotBuilt) {
		_, _ = fmt.Fprintf(stderr, "kubelocal: %v (make kube builds them)\n", err)
		return 3
	}
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "kubelocal: %v\n", err)
		return 1
	}
	kubeconfig, err := os.ReadFile(c.Kubeconfig)
	if err == nil {
		err = os.WriteFile(*out, kubeconfig, 0o600)
	}
	if err == nil && *ns != "" {
		err = createNamespace(ctx, c.Kubeconfig, *ns)
	}
	if err != nil {
		_, _ = fmt.Fprintf(stderr, "kubelocal: %v\n", err)
		return 1
	}
	_, _ = fmt.Fprintf(stdout, "ready: Kubernetes %s at %s\n", c.Version, c.Server)
	<-ctx.Done()
	return 0
}

func createNamespace(ctx context.Context, kubeconfig, name string) error {
	rc, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	cs, err := kubernetes.NewForConfig(rc)
	if err != nil {
		return err
	}
	_, err = cs.CoreV1().Namespaces().Create(ctx,
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
