package kubetest

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// nodeTimeout bounds the wait for the controllers and the node once
// kube-apiserver is ready; it usually takes one or two seconds.
const nodeTimeout = 60 * time.Second

// nodeName is the one node kwok plays.
const nodeName = "kwok-node-0"

// startNodes starts kube-controller-manager, kube-scheduler and kwok
// against the ready kube-apiserver, registers the node and waits until it
// is Ready and the controllers are at work. It returns the processes it
// started, also on error, so the caller can watch them.
func startNodes(e Env, bin string, c *Cluster, p *pki, apiserver []*process) ([]*process, error) {
	var started []*process
	// A node kept WithStateDir comes back Ready and leased from the last
	// run's etcd data; only a lease renewed after this moment shows that
	// this run's kwok has taken it over.
	began := time.Now()
	if err := releaseNodeLease(c); err != nil {
		return nil, err
	}
	run := func(name string, args ...string) error {
		proc, err := launch(e, filepath.Join(bin, name), filepath.Join(c.dir, name+".log"), args...)
		if err == nil {
			started = append(started, proc)
		}
		return err
	}
	// The controllers act as system:masters through the test's kubeconfig,
	// which also passes under RBAC. Port 0 turns their HTTPS endpoints off:
	// nothing scrapes them, and fewer ports mean fewer collisions.
	kc := c.Kubeconfig
	component := []string{
		"--kubeconfig=" + kc,
		"--authentication-kubeconfig=" + kc,
		"--authorization-kubeconfig=" + kc,
		"--bind-address=127.0.0.1",
		"--secure-port=0",
		"--leader-elect=false",
	}
	err := run("kube-controller-manager", slices.Concat(component, []string{
		// The legacy controller that fills Secret-based tokens is not
		// needed: pods get projected tokens from the TokenRequest API.
		"--controllers=*,-serviceaccount-token",
		"--service-account-private-key-file=" + p.saKeyFile,
		// Published as the kube-root-ca.crt ConfigMap in every namespace,
		// which the projected token volume of every pod refers to.
		"--root-ca-file=" + p.caFile,
	})...)
	if err == nil {
		err = run("kube-scheduler", component...)
	}
	if err == nil {
		err = run("kwok",
			"--kubeconfig="+kc,
			"--config="+filepath.Join(bin, stagesFile),
			"--manage-all-nodes=true",
			// Without a node lease kwok keeps the node alive only through
			// the heartbeat stage's status updates, and those are too rare:
			// 40-50 s after the start the node-lifecycle controller
			// marks every pod unready. 40 s is what a kubelet uses.
			"--node-lease-duration-seconds=40",
			"--server-address=127.0.0.1:0",
		)
	}
	if err != nil {
		return started, err
	}
	controllerManager, kwok := started[0], started[2]
	all := slices.Concat(apiserver, started)

	cs, err := c.client()
	if err != nil {
		return started, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), nodeTimeout)
	defer cancel()
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{
		Name: nodeName,
		// kwok manages every node here; the annotation is what marks a
		// node as kwok's where it shares a cluster with real ones.
		Annotations: map[string]string{"kwok.x-k8s.io/node": "fake"},
		// The labels a kubelet sets, matching the nodeInfo kwok reports,
		// so that charts selecting on them schedule.
		Labels: map[string]string{
			"kubernetes.io/hostname": nodeName,
			"kubernetes.io/os":       "linux",
			"kubernetes.io/arch":     "amd64",
			"type":                   "kwok",
		},
	}}
	// A cluster kept WithStateDir has its node from the first start.
	_, err = cs.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return started, fmt.Errorf("create node %s: %w", nodeName, err)
	}
	c.Node = nodeName

	// Ready alone is not enough: until the node-lifecycle controller has
	// seen it, the node may carry a not-ready taint that keeps the
	// scheduler away, and without its lease it would not stay Ready.
	err = poll("node "+nodeName+" to be Ready, untainted and leased", nodeTimeout, kwok, all, func(ctx context.Context) (bool, string) {
		n, err := cs.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		ready := "no Ready condition"
		for _, cond := range n.Status.Conditions {
			if cond.Type == corev1.NodeReady {
				ready = "Ready=" + string(cond.Status)
			}
		}
		if ready != "Ready=True" {
			return false, ready
		}
		if len(n.Spec.Taints) > 0 {
			return false, fmt.Sprintf("taints %v", n.Spec.Taints)
		}
		lease, err := cs.CoordinationV1().Leases(corev1.NamespaceNodeLease).Get(ctx, nodeName, metav1.GetOptions{})
		if err != nil {
			return false, "node lease: " + err.Error()
		}
		if lease.Spec.RenewTime == nil || !lease.Spec.RenewTime.After(began) {
			return false, "node lease not renewed since kwok started"
		}
		return true, ready
	})
	if err != nil {
		return started, err
	}
	// The ServiceAccount admission plugin rejects pods until their
	// namespace has its default ServiceAccount; waiting for the one in
	// "default" proves the controller manager is at work.
	err = poll("the default ServiceAccount", nodeTimeout, controllerManager, all, func(ctx context.Context) (bool, string) {
		_, err := cs.CoreV1().ServiceAccounts(metav1.NamespaceDefault).Get(ctx, "default", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		return true, ""
	})
	return started, err
}
