package jsx

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// Scope is one JavaScript module of a page: its import and export
// statements, and the uses of its components, each called with the props
// written on its tag.
type Scope struct {
	// ESM is the module's import and export statements.
	ESM string
	// File is the page or snippet the statements come from, named in
	// errors; relative imports are resolved from its folder.
	File string
	// Calls are the uses of components in the module's content.
	Calls []Call
}

// Call is one use of a component: its name in the module and its props as
// a JavaScript object literal ({"title": "A", "count": (3)}).
type Call struct {
	Name  string
	Props string
}

// Page evaluates the components of one page. It starts a JavaScript
// runtime on its first Render, so a page that uses no component costs
// nothing; it is not safe for concurrent use.
type Page struct {
	m      *Modules
	ctx    context.Context
	scopes []Scope

	compiled map[int]scopeProgram

	vm       *goja.Runtime
	render   goja.Callable
	startErr error
	stop     func()
	spent    error // the budget or the context ended the runtime
	raw      markup.HTML
	written  int
}

// Bounds of one page's components, beyond which a component fails.
const (
	maxCallStack = 400     // nested JavaScript calls
	maxOutput    = 4 << 20 // bytes of HTML written by all of a page's components
)

// errBudget interrupts a runtime whose time budget is spent.
var errBudget = errors.New("time budget spent")

// NewPage returns the evaluator of a page's scopes; ctx is the export's.
func (m *Modules) NewPage(ctx context.Context, scopes []Scope) *Page {
	return &Page{m: m, ctx: ctx, scopes: scopes}
}

//go:embed prelude.js
var preludeJS string

var prelude = sync.OnceValues(func() (*goja.Program, error) {
	return goja.Compile("prelude.js", preludeJS, true)
})

func (p *Page) start() error {
	prog, err := prelude()
	if err != nil {
		return fmt.Errorf("prelude: %w", err)
	}
	vm := goja.New()
	vm.SetMaxCallStackSize(maxCallStack)
	host := vm.NewObject()
	builtins := make([]any, len(p.m.opt.Builtins))
	for i, b := range p.m.opt.Builtins {
		builtins[i] = b
	}
	_ = host.Set("builtins", vm.NewArray(builtins...))
	_ = host.Set("resolve", func(from, spec string) string { return p.resolve(from, spec) })
	_ = host.Set("load", func(file string) goja.Value {
		f, err := p.load(vm, file)
		if err != nil {
			ctor, _ := goja.AssertConstructor(vm.Get("Error"))
			e, cerr := ctor(nil, vm.ToValue(err.Error()))
			if cerr != nil {
				panic(vm.ToValue(err.Error()))
			}
			panic(e)
		}
		return f
	})
	_ = vm.Set("__host", host)
	timer := time.AfterFunc(p.m.opt.Budget, func() { vm.Interrupt(errBudget) })
	stopCtx := context.AfterFunc(p.ctx, func() { vm.Interrupt(p.ctx.Err()) })
	p.stop = func() { timer.Stop(); stopCtx() }
	if _, err := vm.RunProgram(prog); err != nil {
		return fmt.Errorf("prelude: %w", err)
	}
	render, ok := goja.AssertFunction(vm.Get("__render"))
	if !ok {
		return errors.New("prelude: no __render")
	}
	p.vm, p.render = vm, render
	return nil
}

// Close stops the page's timers; the runtime is left to the collector.
func (p *Page) Close() {
	if p.stop != nil {
		p.stop()
	}
}

// scopeFile is how a page's scope is named as a module.
func scopeFile(i int) string { return "#" + strconv.Itoa(i) }

func (p *Page) resolve(from, spec string) string {
	if strings.HasPrefix(spec, "#") {
		if from == "" {
			return spec
		}
		return ""
	}
	dir := path.Dir(from)
	if i, ok := scopeIndex(from); ok && i >= 0 && i < len(p.scopes) {
		dir = path.Dir(p.scopes[i].File)
	}
	return p.m.resolveImport(dir, spec)
}

func scopeIndex(file string) (int, bool) {
	if !strings.HasPrefix(file, "#") {
		return 0, false
	}
	i, err := strconv.Atoi(file[1:])
	return i, err == nil
}

// load returns the factory of a module: a scope of the page, compiled
// for this page only, or a source file, compiled once per export.
func (p *Page) load(vm *goja.Runtime, file string) (goja.Value, error) {
	var prog *goja.Program
	var err error
	if i, ok := scopeIndex(file); ok && i >= 0 && i < len(p.scopes) {
		c, ok := p.compiled[i]
		if !ok {
			// Once per page, however many uses fail on it.
			c.prog, c.err = compile(p.scopes[i].File, scopeSource(p.scopes[i]))
			if p.compiled == nil {
				p.compiled = map[int]scopeProgram{}
			}
			p.compiled[i] = c
		}
		prog, err = c.prog, c.err
	} else {
		prog, err = p.m.program(file)
	}
	if err != nil {
		return nil, err
	}
	return vm.RunProgram(prog)
}

type scopeProgram struct {
	prog *goja.Program
	err  error
}

// scopeSource is a scope as a module whose __calls export holds one
// function per component use, so a prop that throws fails its own use.
func scopeSource(s Scope) string {
	var b strings.Builder
	b.WriteString(s.ESM)
	b.WriteString("\nexport const __calls = [\n")
	for _, c := range s.Calls {
		b.WriteString("() => [")
		b.WriteString(c.Name)
		b.WriteString(", ")
		b.WriteString(c.Props)
		b.WriteString("],\n")
	}
	b.WriteString("];\n")
	return b.String()
}

// Render evaluates use i of scope with children (the rendered MDX body
// of its tag; selfClosing when it has none) and returns its HTML. An
// error names what went wrong; the caller shows the children instead.
func (p *Page) Render(scope, i int, children markup.HTML, selfClosing bool) (markup.HTML, error) {
	if p.vm == nil && p.startErr == nil {
		p.startErr = p.start()
	}
	if p.startErr != nil {
		return markup.HTML{}, p.startErr
	}
	if p.spent != nil {
		return markup.HTML{}, p.spent
	}
	raw := -1
	if !selfClosing {
		raw = 0
	}
	p.raw = children
	v, err := p.render(goja.Undefined(), p.vm.ToValue(scopeFile(scope)), p.vm.ToValue(i), p.vm.ToValue(raw))
	if err != nil {
		return markup.HTML{}, p.jsError(err)
	}
	r := renderer{builtin: p.m.opt.Builtin, raw: p.raw, limit: maxOutput - p.written}
	out, err := r.html(v.String())
	p.written += len(out.String())
	return out, err
}

// jsError turns what the runtime threw into an error for the author.
func (p *Page) jsError(err error) error {
	var intr *goja.InterruptedError
	if errors.As(err, &intr) {
		if p.ctx.Err() != nil {
			p.spent = p.ctx.Err()
		} else {
			p.spent = fmt.Errorf("the page's components ran past their time budget of %v", p.m.opt.Budget)
		}
		return p.spent
	}
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		return fmt.Errorf("calls nested deeper than %d", maxCallStack)
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
		return fmt.Errorf("%s", msg)
	}
	return err
}
