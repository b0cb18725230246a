package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
)

// serverBin is the docsadmin binary (-server). Its apiserver subcommand
// runs the reference server in a process of its own, as in production,
// whose CPU time is its own; the bench itself links only the export
// facade and the client, never the server's command.
var serverBin string

// benchKey is the admin key of the bench's organization. It guards a
// server that listens on 127.0.0.1 for the length of a bench run.
const benchKey = "dak_benchmark0000000000000001"

// apiServer is a reference server the harness started, serving one
// deployment: the docs to export.
type apiServer struct {
	cmd    *exec.Cmd
	client *client.Client
	exited chan error
}

// deployment is one deployment of the bench's project: docs exported as
// kind (export.Kind's names) at domain.
type deployment struct{ domain, docs, kind string }

// startAPIServer starts the reference server on a free port of
// 127.0.0.1 with its data dir under root (the disk Hugo writes to) and
// the deployments deps.
func startAPIServer(root, name string, deps ...deployment) (*apiServer, error) {
	if serverBin == "" {
		return nil, errors.New("the export through the API needs -server, the docsadmin binary (run.sh builds it)")
	}
	data := filepath.Join(root, name+"-data")
	if err := os.MkdirAll(data, 0o700); err != nil {
		return nil, err
	}
	cfg := fmt.Sprintf(`organizations:
  - id: bench
    plan: enterprise
    apiKeys: [%q]
    projects:
      - id: docs
        repository: https://git.example.invalid/bench/docs
        branch: main
        deployments:
`, benchKey)
	for _, d := range deps {
		cfg += fmt.Sprintf("          - domain: %q\n            source: %q\n            kind: %s\n", d.domain, d.docs, d.kind)
	}
	cfgPath := filepath.Join(root, name+".yaml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o600); err != nil {
		return nil, err
	}
	cmd := exec.Command(serverBin, "apiserver", "-addr", "127.0.0.1:0", "-data-dir", data, "-config", cfgPath) //nolint:gosec // the docsadmin binary named by -server, as the reference server
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var logTail tailBuffer
	cmd.Stderr = &logTail
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &apiServer{cmd: cmd, exited: make(chan error, 1)}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "listening on "); ok {
				addr <- u
			}
		}
		_, _ = io.Copy(io.Discard, stdout) // keep the pipe drained
	}()
	go func() { s.exited <- cmd.Wait() }()
	select {
	case u := <-addr:
		c, err := client.New(client.Config{BaseURL: u, APIKey: benchKey, PollTimeout: 20 * time.Minute})
		if err != nil {
			s.stop()
			return nil, err
		}
		s.client = c
		return s, nil
	case err := <-s.exited:
		return nil, fmt.Errorf("reference server exited before listening (%w): %s", err, logTail.String())
	case <-time.After(30 * time.Second):
		s.stop()
		return nil, fmt.Errorf("reference server did not listen within 30s: %s", logTail.String())
	}
}

// stop ends the server with SIGTERM, as an orchestrator would, and waits
// for it (killing it after 10 s).
func (s *apiServer) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
}

// apiRun is one export through the API: from the start request to the
// bundle link, as the provider does it (the client's own polling pace),
// and the server's CPU time meanwhile.
type apiRun struct {
	pages     int
	wall, cpu float64
	bytes     int64
}

// export starts an export of the server's deployment at domain, waits for it with
// the client's polling and asks for its bundle link.
func (s *apiServer) export(domain string) (apiRun, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	cpu0, err := procCPU(s.cmd.Process.Pid)
	if err != nil {
		return apiRun{}, err
	}
	start := time.Now()
	job, err := s.client.StartExport(ctx, api.StartExportRequest{Domain: domain})
	if err != nil {
		return apiRun{}, err
	}
	if job, err = s.client.WaitExport(ctx, job.JobID, nil); err != nil {
		return apiRun{}, err
	}
	b, err := s.client.GenerateBundle(ctx, job.JobID)
	if err != nil {
		return apiRun{}, err
	}
	wall := time.Since(start)
	cpu1, err := procCPU(s.cmd.Process.Pid)
	if err != nil {
		return apiRun{}, err
	}
	if b.BundleURL == "" {
		return apiRun{}, errors.New("bundle call returned no link")
	}
	return apiRun{pages: job.PageCount, wall: wall.Seconds(), cpu: cpu1 - cpu0, bytes: b.SizeBytes}, nil
}

// procCPU is the user and system time of a running process, in seconds,
// from /proc (Linux; the bench runs there).
func procCPU(pid int) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the command name, which is in parentheses and may
	// hold spaces: state is field 3, utime 14, stime 15.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, errors.New("unreadable /proc stat")
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0, errors.New("short /proc stat")
	}
	var ticks float64
	for _, v := range f[11:13] {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return 0, err
		}
		ticks += float64(n)
	}
	return ticks / clockTicks, nil
}

// clockTicks is USER_HZ, 100 on every Linux architecture Go supports.
const clockTicks = 100

// apiRuns collects the exports through the API of one case.
type apiRuns struct{ runs []apiRun }

func (a *apiRuns) walls() []float64 {
	w := make([]float64, len(a.runs))
	for i, r := range a.runs {
		w[i] = r.wall
	}
	return w
}

// median is the run of median wall time and the median server CPU time.
func (a *apiRuns) median() (apiRun, float64) {
	cpus := make([]float64, len(a.runs))
	for i, r := range a.runs {
		cpus[i] = r.cpu
	}
	return a.runs[medianIndex(a.walls())], cpus[medianIndex(cpus)]
}

// tailBuffer keeps the last 4 KiB written to it: the server's log, for
// an error message when it fails to start.
type tailBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > 4096 {
		t.b = t.b[len(t.b)-4096:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
