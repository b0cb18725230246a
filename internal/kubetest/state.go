package kubetest

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/fsutil"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// WithStateDir keeps the cluster in dir across starts instead of a
// temporary directory: the CA and the serving certificate, the
// service-account key, the admin token, the etcd data (and with it every
// object, the kwok node included) and the three ports. The first start
// creates them; later starts reuse them, so a kubeconfig written by an
// earlier start keeps working and what was stored is still there. etcd
// syncs its writes in this mode, so a crash loses nothing.
//
// A saved port that another program has taken fails the start with an
// error naming it rather than moving the cluster: a new port would break
// every kubeconfig already handed out. The CA key is kept too, so
// Cluster.ClientCertificate works after a restart. Certificates within an
// hour of expiry (newPKI issues them for a day, the CA included) are
// issued anew with a new CA; the log says so, and the kubeconfig
// (Cluster.Kubeconfig, in dir) is rewritten. Otherwise it stays byte for
// byte the same.
//
// The directory is locked while the cluster runs; a second start on it
// fails with ErrStateLocked. Stopping leaves the directory in place.
func WithStateDir(dir string) Option { return func(o *options) { o.stateDir = dir } }

// ErrStateLocked is wrapped by the error of a start whose state directory
// is in use by another running cluster.
var ErrStateLocked = errors.New("the state directory is in use by another cluster")

// stateFile records what a state directory's cluster was created with.
// It is written last on the first start, so a directory without it holds
// no cluster yet and is set up from scratch.
const stateFile = "cluster.json"

// certRenewMargin is how long before expiry kept certificates are issued
// anew, so that a cluster started now does not stop verifying mid-run.
const certRenewMargin = time.Hour

type savedState struct {
	// Ports are etcd's client and peer ports and kube-apiserver's.
	Ports []int  `json:"ports"`
	Token string `json:"token"`
}

// portNames says what each saved port is for, in error messages.
var portNames = []string{"etcd client", "etcd peer", "kube-apiserver"}

// setup is what start needs before launching anything: where the cluster
// lives, its key material, admin token and ports.
type setup struct {
	dir   string
	pki   *pki
	token string
	ports []int
}

// prepare returns a fresh setup in a temporary directory, or with
// WithStateDir the kept one (after locking the directory).
func prepare(e Env, o options) (*setup, error) {
	if o.stateDir == "" {
		s := &setup{dir: e.TempDir()}
		var err error
		if s.pki, err = newPKI(s.dir); err != nil {
			return nil, err
		}
		if s.token, err = randomToken(); err != nil {
			return nil, err
		}
		if s.ports, err = testutil.FreePorts(3); err != nil {
			return nil, err
		}
		return s, nil
	}
	dir, err := filepath.Abs(o.stateDir)
	if err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create state directory: %w", err)
	}
	unlock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	// Registered before any process starts, so it runs after they have
	// all stopped: the next start may only begin once this one is over.
	e.Cleanup(unlock)
	s, err := loadState(e, dir, time.Now())
	if err != nil {
		return nil, err
	}
	if err := checkPortsFree(dir, s.ports); err != nil {
		return nil, err
	}
	return s, nil
}

// loadState reads the kept setup from dir, or creates it there when dir
// holds none. now decides whether the kept certificates need renewing.
func loadState(e Env, dir string, now time.Time) (*setup, error) {
	s := &setup{dir: dir}
	data, err := os.ReadFile(filepath.Join(dir, stateFile))
	if errors.Is(err, os.ErrNotExist) {
		return createState(dir)
	}
	if err != nil {
		return nil, fmt.Errorf("read cluster state: %w", err)
	}
	var saved savedState
	if err := json.Unmarshal(data, &saved); err != nil {
		return nil, fmt.Errorf("read cluster state %s: %w", filepath.Join(dir, stateFile), err)
	}
	if len(saved.Ports) != len(portNames) || saved.Token == "" {
		return nil, fmt.Errorf("cluster state %s is incomplete; remove %s to start a new cluster",
			filepath.Join(dir, stateFile), dir)
	}
	s.token, s.ports = saved.Token, saved.Ports
	s.pki, err = loadPKI(dir)
	if err != nil {
		return nil, fmt.Errorf("%w; remove %s to start a new cluster", err, dir)
	}
	expires, err := certExpiry(s.pki.certFile)
	if err != nil {
		return nil, err
	}
	if now.Add(certRenewMargin).After(expires) {
		e.Logf("kubetest: the certificates kept in %s expire at %s; issuing new ones (new CA, kubeconfig rewritten)",
			dir, expires.Format(time.RFC3339))
		if s.pki, err = newKeptPKI(dir); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// createState sets a new cluster up in dir and records it.
func createState(dir string) (*setup, error) {
	// Left over from a first start that failed before recording the
	// cluster: etcd would refuse data it cannot match with new ports.
	if err := os.RemoveAll(filepath.Join(dir, "etcd")); err != nil {
		return nil, fmt.Errorf("clear state directory: %w", err)
	}
	s := &setup{dir: dir}
	var err error
	if s.pki, err = newKeptPKI(dir); err != nil {
		return nil, err
	}
	if s.token, err = randomToken(); err != nil {
		return nil, err
	}
	if s.ports, err = testutil.FreePorts(len(portNames)); err != nil {
		return nil, err
	}
	data, err := json.Marshal(savedState{Ports: s.ports, Token: s.token})
	if err != nil {
		return nil, fmt.Errorf("encode cluster state: %w", err)
	}
	if err := fsutil.WriteFileAtomic(filepath.Join(dir, stateFile), data, 0o600); err != nil {
		return nil, fmt.Errorf("write %s: %w", stateFile, err)
	}
	return s, nil
}

// caKeyFile is where a kept cluster's CA key is written. newPKI keeps it
// in memory only, which is enough for a cluster that lives as long as the
// process; a kept one must sign client certificates after a restart too.
const caKeyFile = "ca.key"

// newKeptPKI is newPKI for a state directory: it also writes the CA key.
func newKeptPKI(dir string) (*pki, error) {
	p, err := newPKI(dir)
	if err != nil {
		return nil, err
	}
	if err := writeECKey(filepath.Join(dir, caKeyFile), p.caKey); err != nil {
		return nil, err
	}
	return p, nil
}

// loadPKI returns the pki that newKeptPKI(dir) wrote earlier. It must fill
// every field newPKI does; TestLoadPKI_matchesNewKeptPKI holds it to that.
func loadPKI(dir string) (*pki, error) {
	p := &pki{
		caFile:    filepath.Join(dir, "ca.crt"),
		certFile:  filepath.Join(dir, "apiserver.crt"),
		keyFile:   filepath.Join(dir, "apiserver.key"),
		saPubFile: filepath.Join(dir, "sa.pub"),
		saKeyFile: filepath.Join(dir, "sa.key"),
	}
	for _, f := range []string{p.certFile, p.keyFile, p.saPubFile, p.saKeyFile} {
		if _, err := os.Stat(f); err != nil {
			return nil, fmt.Errorf("kept key material: %w", err)
		}
	}
	var err error
	if p.caPEM, err = os.ReadFile(p.caFile); err != nil {
		return nil, fmt.Errorf("kept key material: %w", err)
	}
	if p.ca, err = parseCertPEM(p.caFile, p.caPEM); err != nil {
		return nil, err
	}
	keyPEM, err := os.ReadFile(filepath.Join(dir, caKeyFile))
	if err != nil {
		return nil, fmt.Errorf("kept key material: %w", err)
	}
	block, _ := pem.Decode(keyPEM)
	if block == nil {
		return nil, fmt.Errorf("%s holds no PEM key", filepath.Join(dir, caKeyFile))
	}
	if p.caKey, err = x509.ParseECPrivateKey(block.Bytes); err != nil {
		return nil, fmt.Errorf("parse %s: %w", filepath.Join(dir, caKeyFile), err)
	}
	return p, nil
}

// certExpiry returns when the PEM certificate in path expires.
func certExpiry(path string) (time.Time, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return time.Time{}, fmt.Errorf("read %s: %w", filepath.Base(path), err)
	}
	cert, err := parseCertPEM(path, data)
	if err != nil {
		return time.Time{}, err
	}
	return cert.NotAfter, nil
}

// parseCertPEM parses the first certificate in data, read from path.
func parseCertPEM(path string, data []byte) (*x509.Certificate, error) {
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, fmt.Errorf("%s holds no PEM certificate", path)
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	return cert, nil
}

// checkPortsFree fails with the port's name and number when another
// program holds a saved port. Checking first turns what would be an etcd
// or kube-apiserver crash log into one clear sentence; a program taking
// the port in the moment between check and bind still gets the log.
func checkPortsFree(dir string, ports []int) error {
	for i, port := range ports {
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			return fmt.Errorf("port %d (%s), kept in %s since the cluster was created, is taken by another program: "+
				"stop that program, or remove %s to start a new cluster: %w",
				port, portNames[i], filepath.Join(dir, stateFile), dir, err)
		}
		_ = l.Close()
	}
	return nil
}

// releaseNodeLease deletes the node lease a kept cluster's previous kwok
// held. A new kwok waits for a lease held by another process to lapse,
// which would leave a restarted cluster's node unmanaged for up to the
// lease duration (40 s); that kwok is gone, so its lease can go too.
func releaseNodeLease(c *Cluster) error {
	cs, err := c.client()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), nodeTimeout)
	defer cancel()
	err = cs.CoordinationV1().Leases(corev1.NamespaceNodeLease).Delete(ctx, nodeName, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("release the kept node lease: %w", err)
	}
	return nil
}
