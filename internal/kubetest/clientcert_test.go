package kubetest

import (
	"context"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// A client certificate authenticates as its common name and organizations:
// system:masters may do anything, a plain user only what RBAC grants.
func TestClientCertificate_authenticatesAsItsSubject(t *testing.T) {
	c := Start(t, WithRBAC())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	clientFor := func(user string, groups ...string) kubernetes.Interface {
		certPEM, keyPEM, err := c.ClientCertificate(user, groups...)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := kubernetes.NewForConfig(&rest.Config{Host: c.Server, TLSClientConfig: rest.TLSClientConfig{
			CAData: c.CAData, CertData: certPEM, KeyData: keyPEM}})
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	if _, err := clientFor("cert-admin", "system:masters").CoreV1().Secrets("kube-system").List(ctx, metav1.ListOptions{}); err != nil {
		t.Errorf("system:masters certificate lists secrets: %v", err)
	}
	_, err := clientFor("cert-nobody").CoreV1().Secrets("kube-system").List(ctx, metav1.ListOptions{})
	if !apierrors.IsForbidden(err) {
		t.Errorf("plain certificate lists secrets: %v, want Forbidden", err)
	}
}
