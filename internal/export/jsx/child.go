package jsx

import (
	"bufio"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// The evaluator process: the binary that runs the export, started again
// with childArg0 as its name (os.Args[0]) and childEnv set. It binds
// itself before it reads anything (child_linux.go: a memory and a CPU
// limit the kernel enforces), then evaluates the pages the export sends,
// one at a time, until its input closes.

const (
	childArg0 = "docsadmin-component-evaluator"
	childEnv  = "DOCSADMIN_COMPONENT_EVALUATOR" // its value: the memory bound in bytes
)

// Bounds the evaluator's Go runtime keeps on itself.
const (
	maxCallStack  = 400      // nested JavaScript calls
	maxGoStack    = 64 << 20 // a goroutine's stack (deep native recursion)
	childCPULimit = 10 * 60  // seconds of CPU in one evaluator's life
)

func init() {
	if len(os.Args) == 0 || os.Args[0] != childArg0 {
		return
	}
	mem, err := strconv.ParseInt(os.Getenv(childEnv), 10, 64)
	if err != nil || mem <= 0 {
		return // not started by the export: run as the binary it is
	}
	os.Exit(runChild(os.Stdin, os.Stdout, mem))
}

// runChild serves the export on in and out and returns the exit code.
func runChild(in io.Reader, out io.Writer, mem int64) int {
	if err := bindSelf(mem); err != nil {
		fmt.Fprintln(os.Stderr, "component evaluator:", err)
		return 3
	}
	// The collector works harder as the heap nears the bound, so a page
	// that only needs memory briefly does not end the process.
	debug.SetMemoryLimit(mem * 3 / 4)
	debug.SetMaxStack(maxGoStack)
	e := &evaluator{r: bufio.NewReader(in), w: bufio.NewWriter(out), programs: map[string]compiledFile{}, resolved: map[string]string{}}
	// Ready once bound and with the prelude compiled: a page's budget
	// counts from here, not the binary's start-up.
	ready := &message{Op: "ready"}
	if _, err := prelude(); err != nil {
		ready.Err = err.Error()
	}
	if err := writeFrame(e.w, ready); err != nil {
		return 1
	}
	if err := e.serve(); err != nil && !errors.Is(err, io.EOF) {
		fmt.Fprintln(os.Stderr, "component evaluator:", err)
		return 1
	}
	return 0
}

// evaluator is the state of one evaluator process: the source modules
// it has compiled (an evaluator serves one export, so they stay valid)
// and the page it is rendering.
type evaluator struct {
	r        *bufio.Reader
	w        *bufio.Writer
	builtins []string
	programs map[string]compiledFile
	resolved map[string]string // by importing folder and spec
	page     *childPage
	tex      *texRuntime // KaTeX, started on the first formula (math.go)
}

type compiledFile struct {
	prog *goja.Program
	err  error
}

func (e *evaluator) serve() error {
	var m message
	for {
		if err := readFrame(e.r, &m); err != nil {
			return err
		}
		switch m.Op {
		case "init": // the pages of another export follow
			e.builtins = m.Builtins
			clear(e.programs)
			clear(e.resolved)
		case "page":
			e.page.close()
			e.page = &childPage{e: e, scopes: m.Scopes, budget: time.Duration(m.Budget)}
		case "render":
			if err := writeFrame(e.w, e.render(m.Scope, m.Call, m.Raw)); err != nil {
				return err
			}
		case "math":
			if err := writeFrame(e.w, e.math(m.Tex, m.Display)); err != nil {
				return err
			}
		default:
			return fmt.Errorf("unexpected message %q", m.Op)
		}
	}
}

// ask sends a question to the export in the middle of a render and
// returns its answer.
func (e *evaluator) ask(q *message) (message, error) {
	var a message
	if err := writeFrame(e.w, q); err != nil {
		return a, err
	}
	err := readFrame(e.r, &a)
	return a, err
}

// childPage is one page's runtime: started on its first render, so a
// page whose scopes fail to compile costs no runtime.
type childPage struct {
	e        *evaluator
	scopes   []scopeCode
	budget   time.Duration
	compiled map[int]compiledFile

	vm       *goja.Runtime
	render   goja.Callable
	startErr error
	timer    *time.Timer
	spent    bool
}

func (p *childPage) close() {
	if p != nil && p.timer != nil {
		p.timer.Stop()
	}
}

//go:embed prelude.js
var preludeJS string

var prelude = sync.OnceValues(func() (*goja.Program, error) {
	return goja.Compile("prelude.js", preludeJS, true)
})

// errBudget interrupts a runtime whose time budget is spent.
var errBudget = errors.New("time budget spent")

func (p *childPage) start() error {
	prog, err := prelude()
	if err != nil {
		return fmt.Errorf("prelude: %w", err)
	}
	vm := goja.New()
	vm.SetMaxCallStackSize(maxCallStack)
	host := vm.NewObject()
	builtins := make([]any, len(p.e.builtins))
	for i, b := range p.e.builtins {
		builtins[i] = b
	}
	_ = host.Set("builtins", vm.NewArray(builtins...))
	_ = host.Set("resolve", func(from, spec string) string {
		file, err := p.resolve(from, spec)
		if err != nil {
			throw(vm, err)
		}
		return file
	})
	_ = host.Set("load", func(file string) goja.Value {
		f, err := p.load(vm, file)
		if err != nil {
			throw(vm, err)
		}
		return f
	})
	hostGlobals(vm, host)
	_ = vm.Set("__host", host)
	// The export kills the process a little after the budget; the
	// interrupt stops plain JavaScript first, which keeps the process.
	p.timer = time.AfterFunc(p.budget, func() { vm.Interrupt(errBudget) })
	if _, err := vm.RunProgram(prog); err != nil {
		return fmt.Errorf("prelude: %w", err)
	}
	// The prelude keeps the host object to itself: a component cannot
	// reach it to load files it does not import.
	if err := vm.GlobalObject().Delete("__host"); err != nil || vm.Get("__host") != nil {
		return errors.New("prelude: the host object stays reachable")
	}
	render, ok := goja.AssertFunction(vm.Get("__render"))
	if !ok {
		return errors.New("prelude: no __render")
	}
	p.vm, p.render = vm, render
	return nil
}

// resolve returns the module that spec names when imported from the
// module from: a scope of the page by its own name, a source file as
// the export answers, remembered for the export's later pages (the
// answer depends on the importing folder and spec only).
func (p *childPage) resolve(from, spec string) (string, error) {
	if strings.HasPrefix(spec, "#") {
		if from == "" {
			return spec, nil
		}
		return "", nil
	}
	dir := path.Dir(from)
	if i, ok := scopeIndex(from); ok && i >= 0 && i < len(p.scopes) {
		dir = path.Dir(p.scopes[i].File)
	}
	key := dir + "\x00" + spec
	if file, ok := p.e.resolved[key]; ok {
		return file, nil
	}
	a, err := p.e.ask(&message{Op: "resolve", From: dir, Spec: spec})
	if err != nil {
		return "", err
	}
	p.e.resolved[key] = a.File
	return a.File, nil
}

// load returns the factory of a module: a scope of the page, compiled
// for this page only, or a source file, compiled once per evaluator.
func (p *childPage) load(vm *goja.Runtime, file string) (goja.Value, error) {
	var c compiledFile
	if i, ok := scopeIndex(file); ok && i >= 0 && i < len(p.scopes) {
		var seen bool
		if c, seen = p.compiled[i]; !seen {
			c = compileCode(p.scopes[i].File, p.scopes[i].Code, p.scopes[i].Err)
			if p.compiled == nil {
				p.compiled = map[int]compiledFile{}
			}
			p.compiled[i] = c
		}
	} else {
		var seen bool
		if c, seen = p.e.programs[file]; !seen {
			a, err := p.e.ask(&message{Op: "load", File: file})
			if err != nil {
				return nil, err
			}
			c = compileCode(file, a.Code, a.Err)
			p.e.programs[file] = c
		}
	}
	if c.err != nil {
		return nil, c.err
	}
	return vm.RunProgram(c.prog)
}

// compileCode compiles a module factory the export transpiled; failed
// is the export's reason when it could not.
func compileCode(file, code, failed string) compiledFile {
	if failed != "" {
		return compiledFile{err: errors.New(failed)}
	}
	prog, err := goja.Compile(file, code, false)
	if err != nil {
		return compiledFile{err: fmt.Errorf("%s: %w", file, err)}
	}
	return compiledFile{prog: prog}
}

// render runs use i of scope and returns its host nodes as JSON, or why
// it could not.
func (e *evaluator) render(scope, i, raw int) *message {
	p := e.page
	if p == nil {
		return &message{Op: "error", Err: "no page to render"}
	}
	if p.spent {
		return &message{Op: "error", Kind: kindBudget}
	}
	if p.vm == nil && p.startErr == nil {
		p.startErr = p.start()
	}
	if p.startErr != nil {
		return &message{Op: "error", Err: p.startErr.Error()}
	}
	v, err := p.render(goja.Undefined(), p.vm.ToValue(scopeFile(scope)), p.vm.ToValue(i), p.vm.ToValue(raw))
	if err != nil {
		var intr *goja.InterruptedError
		if errors.As(err, &intr) {
			p.spent = true
			return &message{Op: "error", Kind: kindBudget}
		}
		return &message{Op: "error", Err: jsMessage(err)}
	}
	return &message{Op: "done", Tree: v.String()}
}

// jsMessage turns what the runtime threw into a message for the author.
func jsMessage(err error) string {
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		return fmt.Sprintf("calls nested deeper than %d", maxCallStack)
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		msg := ex.Value().String()
		if obj, ok := ex.Value().(*goja.Object); ok {
			if s := obj.Get("message"); s != nil && !goja.IsUndefined(s) {
				if n := obj.Get("name"); n != nil && !goja.IsUndefined(n) {
					msg = n.String() + ": " + s.String()
				}
			}
		}
		return msg
	}
	return err.Error()
}

// throw raises err in the runtime as a JavaScript Error, which a
// component may catch.
func throw(vm *goja.Runtime, err error) {
	ctor, _ := goja.AssertConstructor(vm.Get("Error"))
	if ctor != nil {
		if e, cerr := ctor(nil, vm.ToValue(err.Error())); cerr == nil {
			panic(e)
		}
	}
	panic(vm.ToValue(err.Error()))
}
