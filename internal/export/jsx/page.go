package jsx

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

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

// Page evaluates the components of one page. It takes an evaluator
// process on its first Render, so a page that uses no component costs
// nothing, and holds it until Close; it is not safe for concurrent use.
type Page struct {
	m      *Modules
	ctx    context.Context
	scopes []Scope

	pr       *proc
	startErr error
	stop     func()
	spent    error // a bound or the context ended the page's components
	written  int
	classes  classNames
	drawn    []Drawn // since the last TakeDrawn
}

// Classes are the class names the page's components wrote in their
// elements' className, for the site's Tailwind CSS.
func (p *Page) Classes() []string { return p.classes }

// TakeDrawn returns the platform's components drawn by the renders since
// the last call, and forgets them.
func (p *Page) TakeDrawn() []Drawn {
	d := p.drawn
	p.drawn = nil
	return d
}

// maxOutput bounds the bytes of HTML written by all of a page's components.
const maxOutput = 4 << 20

// NewPage returns the evaluator of a page's scopes; ctx is the export's.
func (m *Modules) NewPage(ctx context.Context, scopes []Scope) *Page {
	return &Page{m: m, ctx: ctx, scopes: scopes}
}

// start takes a process, sends it the page's scopes and starts the
// page's clock: the budget, then the export's context, end the process.
func (p *Page) start() error {
	pr, err := p.m.opt.Evaluators.get(p.ctx)
	if err != nil {
		return err
	}
	p.pr = pr
	if pr.export != p.m.id {
		if err := pr.send(&message{Op: "init", Builtins: p.m.opt.Builtins}); err != nil {
			return pr.failure(err)
		}
		pr.export = p.m.id
	}
	codes := make([]scopeCode, len(p.scopes))
	for i, s := range p.scopes {
		code, err := transpile(s.File, scopeSource(s))
		codes[i] = scopeCode{File: s.File, Code: code}
		if err != nil {
			codes[i] = scopeCode{File: s.File, Err: err.Error()}
		}
	}
	budget := p.m.opt.Budget
	if err := pr.send(&message{Op: "page", Scopes: codes, Budget: int64(budget)}); err != nil {
		return pr.failure(err)
	}
	timer := time.AfterFunc(budget+killGrace, func() { pr.kill(p.budgetError().Error()) })
	stopCtx := context.AfterFunc(p.ctx, func() { pr.kill(p.ctx.Err().Error()) })
	p.stop = func() { timer.Stop(); stopCtx() }
	return nil
}

func (p *Page) budgetError() error {
	return fmt.Errorf("the page's components ran past their time budget of %v", p.m.opt.Budget)
}

// Close gives the page's process back to the export.
func (p *Page) Close() {
	if p.stop != nil {
		p.stop()
	}
	if p.pr != nil {
		p.m.opt.Evaluators.put(p.pr)
		p.pr = nil
	}
}

// scopeFile is how a page's scope is named as a module.
func scopeFile(i int) string { return "#" + strconv.Itoa(i) }

func scopeIndex(file string) (int, bool) {
	if !strings.HasPrefix(file, "#") {
		return 0, false
	}
	i, err := strconv.Atoi(file[1:])
	return i, err == nil
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
	if err := p.ready(); err != nil {
		return markup.HTML{}, err
	}
	raw := -1
	if !selfClosing {
		raw = 0
	}
	tree, err := p.call(&message{Op: "render", Scope: scope, Call: i, Raw: raw})
	if err != nil {
		return markup.HTML{}, err
	}
	r := renderer{builtin: p.m.opt.Builtin, raw: children, limit: maxOutput - p.written, classes: &p.classes, drawn: &p.drawn}
	out, err := r.html(tree)
	p.written += len(out.String())
	return out, err
}

// ready starts the page's process on its first use, and says why the
// page's components can run no more.
func (p *Page) ready() error {
	if p.pr == nil && p.startErr == nil && p.spent == nil {
		p.startErr = p.start()
	}
	if p.startErr != nil {
		return p.startErr
	}
	return p.spent
}

// call sends a render and answers the evaluator's questions until it
// ends; a process that fails ends the page's components.
func (p *Page) call(req *message) (string, error) {
	pr := p.pr
	fail := func(err error) (string, error) {
		p.spent = pr.failure(err)
		if ctxErr := p.ctx.Err(); ctxErr != nil {
			p.spent = ctxErr
		}
		return "", p.spent
	}
	if err := pr.send(req); err != nil {
		return fail(err)
	}
	var m message
	for {
		if err := pr.recv(&m); err != nil {
			return fail(err)
		}
		var a *message
		switch m.Op {
		case "done":
			return m.Tree, nil
		case "error":
			if m.Kind == kindBudget {
				p.spent = p.budgetError()
				return "", p.spent
			}
			return "", errors.New(m.Err)
		case "resolve":
			// From is the importing module's folder (the evaluator knows
			// where the page's scopes live).
			a = &message{Op: "file", File: p.m.resolveImport(m.From, m.Spec)}
		case "load":
			a = &message{Op: "file"}
			if !p.m.imported(m.File) {
				a.Err = m.File + ": not a module the page imports"
			} else if code, err := p.m.program(m.File); err != nil {
				a.Err = err.Error()
			} else {
				a.Code = code
			}
		default:
			pr.kill("the component evaluator sent an unexpected message")
			return fail(fmt.Errorf("unexpected message %q", m.Op))
		}
		if err := pr.send(a); err != nil {
			return fail(err)
		}
	}
}
