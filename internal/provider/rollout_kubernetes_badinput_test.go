package provider

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"testing"
	"time"
)

// selfSigned returns a PEM certificate and its PEM EC key.
func selfSigned(t *testing.T) (certPEM, keyPEM string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}))
}

// Each bad kubernetes block or chart setting is an attribute error at plan
// time, before any cluster is contacted.
func TestAccStaticExportRollout_badClusterAndChartSettingsFailAtPlan(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	cert, key := selfSigned(t)
	_, otherKey := selfSigned(t)
	const link = `bundle_url = "https://bundles.example.com/b.tar.gz?signature=x"` + "\n  version = \"v1\"\n  "
	const host = `host = "https://127.0.0.1:6443"` + "\n    "
	block := func(body string) string { return link + "kubernetes {\n    " + body + "\n  }" }
	for name, c := range map[string]struct{ body, want string }{
		"host without credentials": {block(`host = "https://127.0.0.1:6443"`),
			`(?s)Missing Kubernetes Credentials.*no credentials: set token, client_certificate with\s+client_key, or an\s+exec block`},
		"credentials without host": {block(`token = "t"`), `(?s)Missing Kubernetes Host.*host`},
		"host not a url":           {block(`host = "https://[::1"` + "\n    token = \"t\""), `(?s)Invalid Kubernetes Host.*host`},
		"ca not pem": {block(host + `token = "t"` + "\n    cluster_ca_certificate = \"not a certificate\""),
			`(?s)Invalid CA Certificate.*cluster_ca_certificate.*no PEM certificate`},
		"key as ca": {block(host + `token = "t"` + fmt.Sprintf("\n    cluster_ca_certificate = %q", key)),
			`(?s)Invalid CA Certificate.*"EC PRIVATE KEY" block`},
		"client certificate not pem": {block(host + `client_certificate = "x"` + fmt.Sprintf("\n    client_key = %q", key)),
			`(?s)Invalid Client Certificate.*client_certificate`},
		"client key not pem": {block(host + fmt.Sprintf("client_certificate = %q\n    client_key = \"x\"", cert)),
			`(?s)Invalid Client Key.*client_key.*no PEM private key`},
		"client key of another certificate": {block(host + fmt.Sprintf("client_certificate = %q\n    client_key = %q", cert, otherKey)),
			`(?s)Invalid Client Key.*does not fit client_certificate`},
		"certificate without key": {block(host + fmt.Sprintf("client_certificate = %q", cert)),
			`(?s)Incomplete Client Certificate.*client_key`},
		"exec without command": {block(host + `exec {
      args = ["get-token"]
    }`), `(?s)Missing Exec Command.*needs command`},
		"exec of unknown version": {block(host + `exec {
      api_version = "client.authentication.k8s.io/v1alpha1"
      command     = "get-token"
    }`), `(?s)Unsupported Exec API Version.*client.authentication.k8s.io/v1,`},
		"token and exec": {block(host + `token = "t"
    exec {
      command = "get-token"
    }`), `(?s)Conflicting Kubernetes Credentials.*token and exec`},
		"insecure with ca": {block(host + `token = "t"` + fmt.Sprintf("\n    insecure = true\n    cluster_ca_certificate = %q", cert)),
			`(?s)Conflicting TLS Settings.*insecure`},
		"kubeconfig and block": {`kubeconfig_path = "/tmp/kubeconfig"` + "\n  " + block(host+`token = "t"`),
			`(?s)Conflicting Cluster Settings.*kubeconfig_path`},
		"repository without chart": {link + `chart_repository = "https://charts.example.com"`,
			`(?s)Missing Chart Name.*chart_repository needs chart`},
		"oci chart with repository": {link + `chart = "oci://registry.example.com/charts/docs"` + "\n  chart_repository = \"https://charts.example.com\"",
			`(?s)Conflicting Chart Sources.*chart_repository`},
		"version of a chart directory": {link + `chart = "./chart"` + "\n  chart_version = \"1.0.0\"",
			`(?s)Chart Version Without Repository.*chart_version`},
		"plain http for a chart directory": {link + `chart = "./chart"` + "\n  plain_http = true",
			`(?s)Plain HTTP Needs an OCI Chart.*plain_http`},
		"create namespace without install": {link + `create_namespace = true`,
			`(?s)Create Namespace Needs install.*create_namespace`},
		"repository not a url": {link + `chart = "docs"` + "\n  chart_repository = \"charts.example.com\"",
			`(?s)chart_repository`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			env.expectError(t, env.config(rolloutWith(c.body)), c.want, true)
		})
	}
}
