package rollout

import (
	"strings"
	"testing"

	"k8s.io/client-go/rest"
)

// A caller-built REST configuration is the whole answer to "which
// cluster": combined with a kubeconfig, a context or in-cluster mode it is
// refused rather than silently preferred.
func TestNew_restConfigConflicts(t *testing.T) {
	rc := &rest.Config{Host: "https://127.0.0.1:6443", BearerToken: "t"}
	for name, c := range map[string]Config{
		"kubeconfig": {REST: rc, Kubeconfig: "/tmp/kubeconfig"},
		"context":    {REST: rc, Context: "prod"},
		"in-cluster": {REST: rc, InCluster: true},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := New(c, nil)
			if err == nil || !strings.Contains(err.Error(), "does not take a kubeconfig, context or in-cluster") {
				t.Errorf("err = %v, want a conflict error", err)
			}
		})
	}
	if _, err := New(Config{REST: &rest.Config{}}, nil); err == nil || !strings.Contains(err.Error(), "no host") {
		t.Errorf("err = %v, want a missing host error", err)
	}
}

// The Roller keeps its own copy: a caller changing its configuration
// afterwards, as client constructors do with QPS, does not reach it.
func TestNew_restConfigNamespaceAndCopy(t *testing.T) {
	rc := &rest.Config{Host: "https://127.0.0.1:6443", BearerToken: "t"}
	r, err := New(Config{REST: rc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Namespace() != "default" {
		t.Errorf("namespace = %q, want default", r.Namespace())
	}
	rc.BearerToken = "changed"
	got, err := r.cfg.RESTClientGetter.ToRESTConfig()
	if err != nil || got.BearerToken != "t" {
		t.Errorf("the Roller's configuration follows the caller's: %v, %v", got, err)
	}
}
