package rollout

import (
	"errors"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/kubetest"
	"github.com/hashicorp/go-hclog"
	"k8s.io/client-go/rest"
)

func TestNew_inClusterRejectsKubeconfig(t *testing.T) {
	_, err := New(Config{InCluster: true, Kubeconfig: "/tmp/kubeconfig"}, nil)
	if err == nil || !strings.Contains(err.Error(), "does not take a kubeconfig") {
		t.Errorf("err = %v, want a conflict error", err)
	}
}

func TestNew_inClusterOutsideAPod(t *testing.T) {
	// rest.InClusterConfig reads these; empty means "not in a pod".
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	t.Setenv("KUBERNETES_SERVICE_PORT", "")
	_, err := New(Config{InCluster: true}, nil)
	if !errors.Is(err, rest.ErrNotInCluster) {
		t.Errorf("err = %v, want rest.ErrNotInCluster", err)
	}
}

// The in-cluster getter cannot be reached through New outside a pod (the
// service-account paths are fixed), so this drives a Roller over it with
// the test cluster's address and token, as a pod would have them.
func TestInClusterGetter_drivesHelm(t *testing.T) {
	c := kubetest.Start(t)
	g := &inClusterGetter{
		cfg:       &rest.Config{Host: c.Server, BearerToken: c.Token, TLSClientConfig: rest.TLSClientConfig{CAData: c.CAData}},
		namespace: "default",
	}
	if ns, _, err := g.ToRawKubeConfigLoader().Namespace(); err != nil || ns != "default" {
		t.Fatalf("namespace = %q, %v", ns, err)
	}
	r, err := newFromGetter(g, "default", hclog.NewNullLogger())
	if err != nil {
		t.Fatal(err)
	}
	req := request()
	req.Install, req.Chart, req.OnFailure = true, chartPath, KeepFailed
	res, err := r.Apply(t.Context(), req)
	if err != nil {
		t.Fatalf("install through the in-cluster getter: %v", err)
	}
	s, err := r.Current(t.Context(), testRelease)
	if err != nil || s.Revision != res.Revision || s.ValuesDigest != res.ValuesDigest {
		t.Errorf("Current = %+v, %v; want revision %d", s, err, res.Revision)
	}
}
