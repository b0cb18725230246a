package jsx

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Components run in evaluator processes: the same binary, started again
// as childArg0 (child.go). A process is bound from outside the code it
// runs: the kernel enforces its memory and CPU limits (child_linux.go)
// and the export kills it when a page's time budget, the export's
// context or a shutdown ends. A regular expression that backtracks for
// ever, a 1 GiB typed array or a native call that never returns costs one
// page its components and one process, never a worker of the server or
// its memory.
//
// A page holds a process from its first component to Close, so a process
// runs one page at a time; between pages it waits, idle, for the next
// page of any export of its Evaluators, and ends after a while unused. A
// process that starts on another export's page forgets the modules it
// compiled for the last one; every page gets a new JavaScript runtime.
// Starting a process costs the binary's start-up (its package
// initialisers: about 0.15 s of CPU and 11 MB of private memory for the
// server's binary), which is why they are kept between exports. Its
// heap is small, so the collector runs at GOGC=400: less often, with the
// memory bound as the backstop.

// DefaultMemory is an evaluator process's memory bound when
// EvaluatorOptions.Memory is zero: the Go runtime, a page's runtime and
// its component trees fit in a small part of it.
const DefaultMemory = 256 << 20

// DefaultIdle is how long an evaluator process waits unused before it
// ends, when EvaluatorOptions.Idle is zero.
const DefaultIdle = 30 * time.Second

// killGrace is how long past a page's budget the process is given to
// stop its JavaScript itself before it is killed.
const killGrace = 250 * time.Millisecond

// EvaluatorOptions bound the evaluator processes; a zero field takes its
// default.
type EvaluatorOptions struct {
	// Memory bounds each process's memory, in bytes (DefaultMemory).
	Memory int64
	// Processes bounds the processes running at once, so the pages with
	// components rendering at once (GOMAXPROCS).
	Processes int
	// Idle is how long a process waits unused before it ends (DefaultIdle).
	Idle time.Duration
}

// Evaluators are the evaluator processes of an export engine, shared by
// its exports; it is safe for concurrent use.
type Evaluators struct {
	opt   EvaluatorOptions
	slots chan struct{} // one per process that may run
	mu    sync.Mutex
	idle  []*proc
	live  map[*proc]bool
	done  bool
	// started counts processes started, for tests and benchmarks.
	started atomic.Int64
}

// NewEvaluators returns an engine's evaluator processes; none starts
// before a page uses a component.
func NewEvaluators(opt EvaluatorOptions) *Evaluators {
	if opt.Memory <= 0 {
		opt.Memory = DefaultMemory
	}
	if opt.Processes <= 0 {
		opt.Processes = runtime.GOMAXPROCS(0)
	}
	if opt.Idle <= 0 {
		opt.Idle = DefaultIdle
	}
	return &Evaluators{opt: opt, slots: make(chan struct{}, opt.Processes), live: map[*proc]bool{}}
}

// Started is how many evaluator processes have started.
func (ev *Evaluators) Started() int64 { return ev.started.Load() }

// Running is how many evaluator processes are running now, idle or not.
func (ev *Evaluators) Running() int {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	return len(ev.live)
}

var errClosed = errors.New("the component evaluators are closed")

// get returns a process for one page, starting one when none is idle;
// it waits while Processes pages hold one.
func (ev *Evaluators) get(ctx context.Context) (*proc, error) {
	select {
	case ev.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	ev.mu.Lock()
	if ev.done {
		ev.mu.Unlock()
		<-ev.slots
		return nil, errClosed
	}
	for n := len(ev.idle); n > 0; n = len(ev.idle) {
		pr := ev.idle[n-1]
		ev.idle = ev.idle[:n-1]
		pr.idleTimer.Stop()
		if !pr.ended() {
			ev.mu.Unlock()
			return pr, nil
		}
		// It ended while idle (the kernel's OOM killer, say).
		delete(ev.live, pr)
		go pr.stop()
	}
	ev.mu.Unlock()
	pr, err := ev.start(ctx)
	if err != nil {
		<-ev.slots
		return nil, err
	}
	return pr, nil
}

// put gives a page's process back: kept for the next page if it is
// still running, ended otherwise.
func (ev *Evaluators) put(pr *proc) {
	ev.mu.Lock()
	keep := !ev.done && !pr.ended()
	if keep {
		ev.idle = append(ev.idle, pr)
		pr.idleTimer = time.AfterFunc(ev.opt.Idle, func() { ev.reap(pr) })
	} else {
		delete(ev.live, pr)
	}
	ev.mu.Unlock()
	if !keep {
		pr.stop()
	}
	<-ev.slots
}

// reap ends a process that stayed idle for Idle.
func (ev *Evaluators) reap(pr *proc) {
	ev.mu.Lock()
	i := slices.Index(ev.idle, pr)
	if i >= 0 {
		ev.idle = slices.Delete(ev.idle, i, i+1)
		delete(ev.live, pr)
	}
	ev.mu.Unlock()
	if i >= 0 {
		pr.stop()
	}
}

// Close ends every process; pages still rendering see their process end
// and fail their remaining components.
func (ev *Evaluators) Close() {
	ev.mu.Lock()
	ev.done = true
	all := make([]*proc, 0, len(ev.live))
	for pr := range ev.live {
		all = append(all, pr)
	}
	ev.live, ev.idle = map[*proc]bool{}, nil
	ev.mu.Unlock()
	for _, pr := range all {
		if pr.idleTimer != nil {
			pr.idleTimer.Stop()
		}
		pr.stop()
	}
}

func (ev *Evaluators) start(ctx context.Context) (*proc, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("component evaluator: %w", err)
	}
	// No environment but the bound: nothing of the server's (keys,
	// credentials) reaches the process, and one OS thread for JavaScript
	// keeps it small.
	cmd := &exec.Cmd{
		Path: exe,
		Args: []string{childArg0},
		Env:  []string{childEnv + "=" + strconv.FormatInt(ev.opt.Memory, 10), "GOMAXPROCS=1", "GOGC=400", "GOTRACEBACK=none"},
	}
	cmd.SysProcAttr = childAttr()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	pr := &proc{cmd: cmd, in: stdin, w: bufio.NewWriter(stdin), r: bufio.NewReaderSize(stdout, 64<<10), exited: make(chan struct{}), memory: ev.opt.Memory}
	cmd.Stderr = &pr.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("component evaluator: %w", err)
	}
	ev.started.Add(1)
	go func() {
		_ = cmd.Wait()
		close(pr.exited)
	}()
	ev.mu.Lock()
	if ev.done {
		ev.mu.Unlock()
		pr.stop()
		return nil, errClosed
	}
	ev.live[pr] = true
	ev.mu.Unlock()
	if err := pr.awaitReady(ctx); err != nil {
		ev.mu.Lock()
		delete(ev.live, pr)
		ev.mu.Unlock()
		pr.stop()
		return nil, err
	}
	return pr, nil
}

// startTimeout bounds a process's start-up, far above what it takes.
const startTimeout = 30 * time.Second

// awaitReady waits for the process to say it is ready.
func (pr *proc) awaitReady(ctx context.Context) error {
	timer := time.AfterFunc(startTimeout, func() { pr.kill(fmt.Sprintf("the component evaluator did not start within %v", startTimeout)) })
	defer timer.Stop()
	stopCtx := context.AfterFunc(ctx, func() { pr.kill(ctx.Err().Error()) })
	defer stopCtx()
	var m message
	if err := pr.recv(&m); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return pr.failure(err)
	}
	if m.Op != "ready" || m.Err != "" {
		return fmt.Errorf("the component evaluator could not start: %s", cmp.Or(m.Err, "it said "+strconv.Quote(m.Op)))
	}
	return nil
}

// proc is one evaluator process, used by one page at a time.
type proc struct {
	cmd    *exec.Cmd
	in     io.Closer
	w      *bufio.Writer
	r      *bufio.Reader
	stderr tailBuffer
	exited chan struct{}
	memory int64
	// export is the Modules whose pages the process serves now.
	export    uint64
	idleTimer *time.Timer
	// why is set when the export kills the process: the bound it passed.
	why atomic.Pointer[string]
}

func (pr *proc) send(m *message) error { return writeFrame(pr.w, m) }

func (pr *proc) recv(m *message) error { return readFrame(pr.r, m) }

// kill ends the process for a reason the page reports; the first reason
// given is the one kept.
func (pr *proc) kill(why string) {
	pr.why.CompareAndSwap(nil, &why)
	_ = pr.cmd.Process.Kill()
}

func (pr *proc) ended() bool {
	if pr.why.Load() != nil {
		return true
	}
	select {
	case <-pr.exited:
		return true
	default:
		return false
	}
}

// stop ends the process and waits for it: closing its input ends a
// healthy one, killing ends any.
func (pr *proc) stop() {
	_ = pr.in.Close()
	select {
	case <-pr.exited:
		return
	case <-time.After(100 * time.Millisecond):
	}
	_ = pr.cmd.Process.Kill()
	<-pr.exited
}

// failure explains an error talking to the process: the bound the export
// killed it for, or how it ended by itself.
func (pr *proc) failure(err error) error {
	if why := pr.why.Load(); why != nil {
		return errors.New(*why)
	}
	if errors.Is(err, errFrameSize) {
		pr.kill(err.Error())
		return errOutput
	}
	// The process ended by itself; wait for its status and last words.
	select {
	case <-pr.exited:
	case <-time.After(time.Second):
		pr.kill("")
		<-pr.exited
	}
	st := pr.cmd.ProcessState
	if st != nil && exceededCPU(st) {
		return fmt.Errorf("the export's components used more than the CPU bound of %d s", childCPULimit)
	}
	tail := pr.stderr.String()
	switch {
	case strings.Contains(tail, "out of memory"), strings.Contains(tail, "cannot allocate"):
		return fmt.Errorf("the page's components used more than the memory bound of %d MiB", pr.memory>>20)
	case strings.Contains(tail, "stack exceeds"):
		return errors.New("the page's components nested native calls too deeply")
	}
	// The Go runtime does not always say why when memory runs out: a
	// thread it cannot start or a collector that cannot grow its queues
	// ends the process otherwise.
	how := "it ended"
	if st != nil {
		how = st.String()
	}
	if line, _, _ := strings.Cut(tail, "\n"); line != "" {
		how += ": " + line
	}
	return fmt.Errorf("the evaluator running the page's components ended (%s), as it does when they pass its memory bound of %d MiB", how, pr.memory>>20)
}

// tailBuffer keeps the first bytes a process writes to its standard
// error, enough for the Go runtime's reason to end.
type tailBuffer struct {
	mu sync.Mutex
	b  []byte
}

const stderrKeep = 4 << 10

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if room := stderrKeep - len(t.b); room > 0 {
		t.b = append(t.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
