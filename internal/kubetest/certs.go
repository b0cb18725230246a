package kubetest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// pki is the key material one test cluster needs. It is generated in Go
// rather than with openssl so that the test suite needs no extra Debian
// package and a fresh machine can run it after tools/kube/build.sh alone.
type pki struct {
	caPEM     []byte
	caFile    string // caPEM on disk, for the controller manager's --root-ca-file
	certFile  string // serving certificate of kube-apiserver
	keyFile   string
	saPubFile string // service-account token verification key
	saKeyFile string // service-account token signing key

	// The CA also signs client certificates (kube-apiserver's
	// --client-ca-file), so tests can authenticate with one.
	ca    *x509.Certificate
	caKey *ecdsa.PrivateKey
}

// newPKI writes a CA, a serving certificate for 127.0.0.1 signed by it and a
// service-account key pair into dir: kube-apiserver signs and verifies
// ServiceAccount tokens with the pair, and the controller manager's token
// controllers need the private half. ECDSA P-256 keeps generation in the
// milliseconds; RSA-2048 would cost a noticeable part of the start time.
func newPKI(dir string) (*pki, error) {
	now := time.Now()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate ca key: %w", err)
	}
	caTmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "kubetest-ca"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("create ca certificate: %w", err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, fmt.Errorf("parse ca certificate: %w", err)
	}

	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate serving key: %w", err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "kube-apiserver"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		// The in-cluster names are there so that a client built from
		// in-cluster defaults would also verify; tests use 127.0.0.1.
		DNSNames:    []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("create serving certificate: %w", err)
	}

	saKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate service-account key: %w", err)
	}

	p := &pki{
		caPEM:     pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
		caFile:    filepath.Join(dir, "ca.crt"),
		certFile:  filepath.Join(dir, "apiserver.crt"),
		keyFile:   filepath.Join(dir, "apiserver.key"),
		saPubFile: filepath.Join(dir, "sa.pub"),
		saKeyFile: filepath.Join(dir, "sa.key"),
		ca:        ca,
		caKey:     caKey,
	}
	if err := writePEM(p.caFile, "CERTIFICATE", caDER); err != nil {
		return nil, err
	}
	if err := writePEM(p.certFile, "CERTIFICATE", der); err != nil {
		return nil, err
	}
	if err := writeECKey(p.keyFile, key); err != nil {
		return nil, err
	}
	if err := writeECKey(p.saKeyFile, saKey); err != nil {
		return nil, err
	}
	pub, err := x509.MarshalPKIXPublicKey(&saKey.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("marshal service-account public key: %w", err)
	}
	if err := writePEM(p.saPubFile, "PUBLIC KEY", pub); err != nil {
		return nil, err
	}
	return p, nil
}

func writeECKey(path string, key *ecdsa.PrivateKey) error {
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return fmt.Errorf("marshal key for %s: %w", filepath.Base(path), err)
	}
	return writePEM(path, "EC PRIVATE KEY", der)
}

func writePEM(path, typ string, der []byte) error {
	data := pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der})
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	return nil
}
