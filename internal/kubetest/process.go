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
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// Deadlines for the processes. A warm start takes about three seconds on
// two busy cores; the margin is for CI machines under load, not for sleeping.
const (
	readyTimeout = 90 * time.Second
	stopTimeout  = 10 * time.Second
	pollInterval = 100 * time.Millisecond
)

// contextName is the one context in the generated kubeconfigs.
const contextName = "kubetest"

func start(e Env, bin string, o options) (*Cluster, error) {
	s, err := prepare(e, o)
	if err != nil {
		return nil, err
	}
	dir, p, token, ports := s.dir, s.pki, s.token, s.ports
	tokenFile := filepath.Join(dir, "tokens.csv")
	if err := os.WriteFile(tokenFile, []byte(token+",kubetest-admin,kubetest-admin,system:masters\n"), 0o600); err != nil {
		return nil, fmt.Errorf("write token file: %w", err)
	}

	etcdURL := "http://127.0.0.1:" + strconv.Itoa(ports[0])
	peerURL := "http://127.0.0.1:" + strconv.Itoa(ports[1])
	etcd, err := launch(e, filepath.Join(bin, "etcd"), filepath.Join(dir, "etcd.log"),
		"--name=kubetest",
		"--data-dir="+filepath.Join(dir, "etcd"),
		"--listen-client-urls="+etcdURL,
		"--advertise-client-urls="+etcdURL,
		"--listen-peer-urls="+peerURL,
		"--initial-advertise-peer-urls="+peerURL,
		"--initial-cluster=kubetest="+peerURL,
		// Data thrown away after the test need not cost fsyncs; kept
		// data (WithStateDir) must survive a crash.
		"--unsafe-no-fsync="+strconv.FormatBool(o.stateDir == ""),
		"--log-level=warn",
	)
	if err != nil {
		return nil, err
	}

	authz := "AlwaysAllow"
	if o.rbac {
		authz = "Node,RBAC"
	}
	args := []string{
		"--etcd-servers=" + etcdURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(ports[2]),
		"--cert-dir=" + filepath.Join(dir, "certs"),
		"--tls-cert-file=" + p.certFile,
		"--tls-private-key-file=" + p.keyFile,
		"--token-auth-file=" + tokenFile,
		"--client-ca-file=" + p.caFile,
		"--authorization-mode=" + authz,
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file=" + p.saPubFile,
		"--service-account-signing-key-file=" + p.saKeyFile,
		"--service-cluster-ip-range=10.96.0.0/24",
		"--profiling=false",
		"--v=0",
	}
	if !o.nodes {
		// No controller manager creates the default ServiceAccount, so the
		// admission plugin would reject every pod-bearing object.
		args = append(args, "--disable-admission-plugins=ServiceAccount")
	}
	server := "https://127.0.0.1:" + strconv.Itoa(ports[2])
	apiserver, err := launch(e, filepath.Join(bin, "kube-apiserver"), filepath.Join(dir, "kube-apiserver.log"), args...)
	if err != nil {
		return nil, err
	}
	procs := []*process{etcd, apiserver}

	c := &Cluster{
		Kubeconfig: filepath.Join(dir, "kubeconfig"),
		Context:    contextName,
		Server:     server,
		Token:      token,
		CAData:     p.caPEM,
		dir:        dir,
		pki:        p,
	}
	// Written before the wait: the controllers started WithNodes read it.
	if err := os.WriteFile(c.Kubeconfig, kubeconfig(c, contextName, token, "default"), 0o600); err != nil {
		return nil, fmt.Errorf("write kubeconfig: %w", err)
	}
	if err := waitReady(server, token, p.caPEM, procs); err != nil {
		return nil, err
	}
	if o.nodes {
		more, err := startNodes(e, bin, c, p, procs)
		procs = append(procs, more...)
		if err != nil {
			return nil, err
		}
	}
	// Registered last, so it runs first: before the processes are stopped,
	// report any that died while the test ran. Otherwise a test would only
	// see its own timeout, not that, say, the scheduler had crashed.
	e.Cleanup(func() {
		for _, p := range procs {
			select {
			case <-p.exited:
				e.Logf("kubetest: %s exited while the test ran (%v); last lines of its log:\n%s",
					p.name, exitErr(p), tail(p.log))
			default:
			}
		}
	})
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

// launch starts a binary in a process group of its own with its output in
// logPath, and registers a cleanup that stops the group. Cleanups run in
// reverse order, so the controllers stop before kube-apiserver, it before
// etcd, and all before the Env removes their data.
func launch(e Env, path, logPath string, args ...string) (*process, error) {
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", filepath.Base(logPath), err)
	}
	cmd := exec.Command(path, args...)
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.SysProcAttr = testutil.ServerProcAttr()
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
	e.Cleanup(func() { p.stop(e) })
	return p, nil
}

// stop asks the process group to terminate and kills it if the process
// does not exit within stopTimeout, so a wedged server cannot hang the test
// binary.
func (p *process) stop(e Env) {
	select {
	case <-p.exited:
		return
	default:
	}
	_ = testutil.SignalGroup(p.cmd.Process, syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(stopTimeout):
		e.Logf("kubetest: %s did not stop within %s; killing it", p.name, stopTimeout)
		_ = testutil.SignalGroup(p.cmd.Process, syscall.SIGKILL)
		<-p.exited
	}
}

func exitErr(p *process) error {
	if p.err == nil {
		return errors.New("exit status 0")
	}
	return p.err
}

// poll calls check every pollInterval until it reports done, one of procs
// exits or timeout passes. Failing fast on a dead process turns a bad flag
// into an error with that process's log instead of a long timeout; on a
// timeout the error carries blame's log, the process that should have
// brought the awaited state about. check returns what it saw last, for
// that error.
func poll(what string, timeout time.Duration, blame *process, procs []*process,
	check func(ctx context.Context) (done bool, last string),
) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	var last string
	for {
		for _, p := range procs {
			select {
			case <-p.exited:
				return fmt.Errorf("%s exited while waiting for %s (%w); last lines of its log:\n%s",
					p.name, what, exitErr(p), tail(p.log))
			default:
			}
		}
		done, seen := check(ctx)
		if done {
			return nil
		}
		// A check cut short by the deadline saw only the deadline.
		if ctx.Err() == nil {
			last = seen
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("timed out after %s waiting for %s (last seen: %s); last lines of %s's log:\n%s",
				timeout, what, last, blame.name, tail(blame.log))
		case <-tick.C:
		}
	}
}

// waitReady polls kube-apiserver's /readyz until it answers 200.
func waitReady(server, token string, caPEM []byte, procs []*process) error {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	client := &http.Client{
		Timeout:   2 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}},
	}
	defer client.CloseIdleConnections()
	return poll("kube-apiserver to be ready", readyTimeout, procs[len(procs)-1], procs, func(ctx context.Context) (bool, string) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, server+"/readyz", nil)
		if err != nil {
			return false, err.Error()
		}
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err != nil {
			return false, err.Error()
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK, resp.Status
	})
}

func randomToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// kubeconfig renders a kubeconfig for one user and bearer token with the CA
// inline, so the file stays valid on its own (Helm and kubectl read nothing
// else).
func kubeconfig(c *Cluster, user, token, namespace string) []byte {
	return fmt.Appendf(nil, `apiVersion: v1
kind: Config
clusters:
- name: %[1]s
  cluster:
    server: %[2]s
    certificate-authority-data: %[3]s
users:
- name: %[4]s
  user:
    token: %[5]s
contexts:
- name: %[1]s
  context:
    cluster: %[1]s
    user: %[4]s
    namespace: %[6]s
current-context: %[1]s
`, c.Context, c.Server, base64.StdEncoding.EncodeToString(c.CAData), user, token, namespace)
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
