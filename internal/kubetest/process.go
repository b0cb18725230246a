package kubetest

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Deadlines for the two processes. A warm start takes about three seconds on
// two busy cores; the margin is for CI machines under load, not for sleeping.
const (
	readyTimeout = 90 * time.Second
	stopTimeout  = 10 * time.Second
	pollInterval = 100 * time.Millisecond
)

// contextName is the one context in the generated kubeconfig.
const contextName = "kubetest"

func start(t Env, bin string) (*Cluster, error) {
	dir := t.TempDir()
	p, err := newPKI(dir)
	if err != nil {
		return nil, err
	}
	token, err := randomToken()
	if err != nil {
		return nil, err
	}
	tokenFile := filepath.Join(dir, "tokens.csv")
	if err := os.WriteFile(tokenFile, []byte(token+",kubetest-admin,kubetest-admin,system:masters\n"), 0o600); err != nil {
		return nil, fmt.Errorf("write token file: %w", err)
	}

	ports, err := freePorts(3)
	if err != nil {
		return nil, err
	}
	etcdURL := "http://127.0.0.1:" + strconv.Itoa(ports[0])
	peerURL := "http://127.0.0.1:" + strconv.Itoa(ports[1])
	etcd, err := launch(t, filepath.Join(bin, "etcd"), filepath.Join(dir, "etcd.log"),
		"--name=kubetest",
		"--data-dir="+filepath.Join(dir, "etcd"),
		"--listen-client-urls="+etcdURL,
		"--advertise-client-urls="+etcdURL,
		"--listen-peer-urls="+peerURL,
		"--initial-advertise-peer-urls="+peerURL,
		"--initial-cluster=kubetest="+peerURL,
		// The data is thrown away after the test; fsync only costs time.
		"--unsafe-no-fsync",
		"--log-level=warn",
	)
	if err != nil {
		return nil, err
	}

	server := "https://127.0.0.1:" + strconv.Itoa(ports[2])
	apiserver, err := launch(t, filepath.Join(bin, "kube-apiserver"), filepath.Join(dir, "kube-apiserver.log"),
		"--etcd-servers="+etcdURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port="+strconv.Itoa(ports[2]),
		"--cert-dir="+filepath.Join(dir, "certs"),
		"--tls-cert-file="+p.certFile,
		"--tls-private-key-file="+p.keyFile,
		"--token-auth-file="+tokenFile,
		"--authorization-mode=AlwaysAllow",
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file="+p.saPubFile,
		"--service-account-signing-key-file="+p.saKeyFile,
		"--service-cluster-ip-range=10.96.0.0/24",
		// No controller manager creates the default ServiceAccount, so the
		// admission plugin would reject every pod-bearing object.
		"--disable-admission-plugins=ServiceAccount",
		"--profiling=false",
		"--v=0",
	)
	if err != nil {
		return nil, err
	}

	if err := waitReady(server, token, p.caPEM, etcd, apiserver); err != nil {
		return nil, err
	}

	c := &Cluster{
		Kubeconfig: filepath.Join(dir, "kubeconfig"),
		Context:    contextName,
		Server:     server,
		Token:      token,
		CAData:     p.caPEM,
	}
	if err := os.WriteFile(c.Kubeconfig, kubeconfig(c), 0o600); err != nil {
		return nil, fmt.Errorf("write kubeconfig: %w", err)
	}
	return c, nil
}

// process is a started binary and what is needed to report on it.
type process struct {
	name   string
	cmd    *exec.Cmd
	log    string
	exited chan struct{} // closed once Wait has returned
	err    error         // Wait's result, valid after exited is closed
}

// launch starts a binary with its output in logPath and registers a cleanup
// that stops it. Cleanups run in reverse order, so kube-apiserver stops
// before etcd and both stop before t.TempDir removes their data.
func launch(t Env, path, logPath string, args ...string) (*process, error) {
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", filepath.Base(logPath), err)
	}
	cmd := exec.Command(path, args...)
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.SysProcAttr = sysProcAttr()
	// The child writes the log through its own descriptor; closing ours
	// cannot lose any of it, so its error is not worth reporting.
	if err := cmd.Start(); err != nil {
		_ = logFile.Close()
		return nil, fmt.Errorf("start %s: %w", filepath.Base(path), err)
	}
	p := &process{name: filepath.Base(path), cmd: cmd, log: logPath, exited: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		_ = logFile.Close()
		close(p.exited)
	}()
	t.Cleanup(func() { p.stop(t) })
	return p, nil
}

// stop asks the process to terminate and kills it if it does not within
// stopTimeout, so a wedged server cannot hang the test binary.
func (p *process) stop(t Env) {
	select {
	case <-p.exited:
		return
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(stopTimeout):
		t.Logf("kubetest: %s did not stop within %s; killing it", p.name, stopTimeout)
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
}

// waitReady polls /readyz until it answers 200, a process dies or the
// deadline passes. Failing fast on a dead process turns a bad flag into an
// error with its log instead of a 90-second timeout.
func waitReady(server, token string, caPEM []byte, procs ...*process) error {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	client := &http.Client{
		Timeout:   2 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}},
	}
	defer client.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	var last string
	for {
		for _, p := range procs {
			select {
			case <-p.exited:
				err := p.err
				if err == nil {
					err = errors.New("exit status 0")
				}
				return fmt.Errorf("%s exited before the cluster was ready (%w):\n%s", p.name, err, tail(p.log))
			default:
			}
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, server+"/readyz", nil)
		if err != nil {
			return fmt.Errorf("build readyz request: %w", err)
		}
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			last = resp.Status
		} else {
			last = err.Error()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("kube-apiserver not ready after %s (last answer: %s):\n%s",
				readyTimeout, last, tail(procs[len(procs)-1].log))
		case <-tick.C:
		}
	}
}

// freePorts asks the kernel for n unused ports. They are released before the
// servers bind them, which leaves a small window for another process to take
// one; the servers then exit and waitReady reports it with their log.
func freePorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("find a free port: %w", err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

func randomToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// kubeconfig renders a kubeconfig with the CA inline, so the file stays
// valid on its own (Helm and kubectl read nothing else).
func kubeconfig(c *Cluster) []byte {
	return fmt.Appendf(nil, `apiVersion: v1
kind: Config
clusters:
- name: %[1]s
  cluster:
    server: %[2]s
    certificate-authority-data: %[3]s
users:
- name: %[1]s
  user:
    token: %[4]s
contexts:
- name: %[1]s
  context:
    cluster: %[1]s
    user: %[1]s
    namespace: default
current-context: %[1]s
`, c.Context, c.Server, base64.StdEncoding.EncodeToString(c.CAData), c.Token)
}

// tail returns the last lines of a log file for an error message.
func tail(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return "(no log: " + err.Error() + ")"
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > 30 {
		lines = lines[len(lines)-30:]
	}
	return strings.Join(lines, "\n")
}
