package kubetest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// tokenLifetime is how long a minted ServiceAccount token lives: longer
// than any test, and above the API's ten-minute minimum.
const tokenLifetime = time.Hour

// RESTConfig returns a client configuration for the cluster acting as
// system:masters, the same identity as c.Kubeconfig.
func (c *Cluster) RESTConfig() *rest.Config {
	return &rest.Config{
		Host:            c.Server,
		BearerToken:     c.Token,
		TLSClientConfig: rest.TLSClientConfig{CAData: c.CAData},
	}
}

func (c *Cluster) client() (*kubernetes.Clientset, error) {
	cfg := c.RESTConfig()
	// A request to a server on the same machine that takes this long has
	// hung; the caller's poll then tries again.
	cfg.Timeout = 10 * time.Second
	// client-go's default of 5 requests a second would throttle a poll
	// every pollInterval, and near a deadline report the throttle instead
	// of what the poll saw.
	cfg.QPS, cfg.Burst = 50, 100
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("kubernetes client: %w", err)
	}
	return cs, nil
}

// ServiceAccountToken mints a bearer token for the ServiceAccount
// namespace/name through the TokenRequest API, creating the account first
// if it does not exist (the namespace must). The token is valid for an
// hour.
func (c *Cluster) ServiceAccountToken(ctx context.Context, namespace, name string) (string, error) {
	cs, err := c.client()
	if err != nil {
		return "", err
	}
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace}}
	_, err = cs.CoreV1().ServiceAccounts(namespace).Create(ctx, sa, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return "", fmt.Errorf("create service account %s/%s: %w", namespace, name, err)
	}
	seconds := int64(tokenLifetime / time.Second)
	tr, err := cs.CoreV1().ServiceAccounts(namespace).CreateToken(ctx, name, &authenticationv1.TokenRequest{
		Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: &seconds},
	}, metav1.CreateOptions{})
	if err != nil {
		return "", fmt.Errorf("request a token for service account %s/%s: %w", namespace, name, err)
	}
	return tr.Status.Token, nil
}

// ServiceAccountKubeconfig writes a kubeconfig that acts as the
// ServiceAccount namespace/name (created if missing, see
// ServiceAccountToken) and returns its path. It uses the context c.Context,
// defaulting to the account's namespace. On a cluster started WithRBAC its
// clients can do only what the account's roles allow.
func (c *Cluster) ServiceAccountKubeconfig(t testing.TB, namespace, name string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	token, err := c.ServiceAccountToken(ctx, namespace, name)
	if err != nil {
		t.Fatalf("kubetest: %v", err)
	}
	user := "system:serviceaccount:" + namespace + ":" + name
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(path, kubeconfig(c, user, token, namespace), 0o600); err != nil {
		t.Fatalf("kubetest: write kubeconfig for %s: %v", user, err)
	}
	return path
}
