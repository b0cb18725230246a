// Package jsx renders the custom components of a docs source: React
// components written in JSX or TSX, defined in a page (`export const
// Card = ...`) or in snippet files it imports, evaluated at export time
// into static HTML.
//
// Each module is transpiled once per export by esbuild (JSX to plain
// JavaScript calling our own element factory) and run in goja, a
// JavaScript engine written in Go, against a small server-side React of
// our own (prelude.js): elements, fragments, context and hooks that return
// their initial state. The resulting element tree is written as HTML here,
// through internal/export/markup, with event handlers, script and unsafe
// URLs left out.
//
// A docs source is untrusted, so its code runs in evaluator processes
// (sandbox.go) whose memory and CPU the kernel bounds and which the
// export kills when a page's time budget, the export's context or the
// export ends; within them the call stack, the number of nodes and the
// size of the output are bounded too, and the engine has nothing to reach
// outside with (no require of real modules, no network, no files, no
// window or document, no environment). A component that cannot be
// evaluated is an error the caller reports; it never fails the page.
//
// It knows nothing of MDX, pages, docs.json or bundles: the caller hands
// it JavaScript sources, the MDX children as HTML, and how the platform's
// built-in components are written.
package jsx

import (
	"fmt"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// Options are what a Modules needs from the export.
type Options struct {
	// Load reads a file of the docs source (a snippet), confined and
	// bounded by the caller.
	Load func(file string) (string, error)
	// ESM returns the import and export statements of an MDX file, the
	// part of it that is a JavaScript module.
	ESM func(mdxSource string) string
	// Builtin writes the opening and closing HTML of one of the platform's
	// components, with its attributes as text, exactly as MDX renders it;
	// rich are the attributes given JSX as their value, rendered here
	// (title={<span>Beta</span>}).
	Builtin func(name string, attrs map[string]string, rich map[string]markup.HTML) (open, closing markup.HTML)
	// Builtins names the platform's components ("Card", "Tree.Folder").
	Builtins []string
	// Budget is the time all the components of one page may run.
	Budget time.Duration
	// Evaluators run the components; nil starts a set of the export's
	// own, with the default bounds, ended by Close.
	Evaluators *Evaluators
}

// DefaultBudget is a page's time budget when Options.Budget is zero.
const DefaultBudget = 2 * time.Second

// Modules transpiles and caches the component modules of one export and
// holds its evaluator processes; it is safe for concurrent use by the
// pages being rendered. Close ends the processes.
type Modules struct {
	opt   Options
	id    uint64 // tells the evaluators one export's modules from another's
	mu    sync.Mutex
	files map[string]*compiled
	// resolved are the source files imports have named, the only ones
	// whose code the evaluators are given.
	resolved map[string]bool
	owned    bool // Close ends the evaluators
}

var exports atomic.Uint64

type compiled struct {
	once sync.Once
	code string
	err  error
}

// NewModules returns the module cache of one export.
func NewModules(opt Options) *Modules {
	if opt.Budget <= 0 {
		opt.Budget = DefaultBudget
	}
	m := &Modules{opt: opt, id: exports.Add(1), files: map[string]*compiled{}, resolved: map[string]bool{}}
	if m.opt.Evaluators == nil {
		m.opt.Evaluators, m.owned = NewEvaluators(EvaluatorOptions{}), true
	}
	return m
}

// Close ends the evaluators the Modules started itself; those it was
// given go on serving other exports.
func (m *Modules) Close() {
	if m.owned {
		m.opt.Evaluators.Close()
	}
}

// program returns the transpiled module of a source file, transpiled
// once per export whatever the number of pages importing it.
func (m *Modules) program(file string) (string, error) {
	m.mu.Lock()
	c, ok := m.files[file]
	if !ok {
		c = &compiled{}
		m.files[file] = c
	}
	m.mu.Unlock()
	c.once.Do(func() {
		src, err := m.opt.Load(file)
		if err != nil {
			c.err = err
			return
		}
		ext := path.Ext(file)
		if ext == ".mdx" || ext == ".md" {
			src = m.opt.ESM(src)
		}
		c.code, c.err = transpile(file, src)
	})
	return c.code, c.err
}

// loaders are the esbuild loaders of the module files a page may import.
var loaders = map[string]api.Loader{
	".jsx": api.LoaderJSX, ".js": api.LoaderJSX, ".mjs": api.LoaderJSX,
	".tsx": api.LoaderTSX, ".ts": api.LoaderTS,
	".mdx": api.LoaderJSX, ".md": api.LoaderJSX,
}

// transpile turns a module into the source of a CommonJS factory,
// function(module, exports, require), for the evaluator to compile.
func transpile(file, src string) (string, error) {
	loader, ok := loaders[path.Ext(file)]
	if !ok {
		loader = api.LoaderJSX // a page's own module
	}
	res := api.Transform(src, api.TransformOptions{
		Loader:      loader,
		Format:      api.FormatCommonJS,
		Target:      api.ES2017, // what goja runs; esbuild lowers the rest
		JSX:         api.JSXTransform,
		JSXFactory:  "__h",
		JSXFragment: "__Fragment",
		Sourcefile:  file,
		LogLevel:    api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		e := res.Errors[0]
		if e.Location != nil {
			return "", fmt.Errorf("%s:%d: %s", file, e.Location.Line, e.Text)
		}
		return "", fmt.Errorf("%s: %s", file, e.Text)
	}
	return "(function (module, exports, require) {" + string(res.Code) + "\n})", nil
}

// moduleExts are tried in this order for an import without an extension.
var moduleExts = []string{".jsx", ".tsx", ".js", ".ts"}

// resolveImport returns the source file that spec names when imported
// from a module in dir, or "" when it names nothing of the source (a
// package such as "lodash", a path out of the source).
func (m *Modules) resolveImport(dir, spec string) string {
	var p string
	switch {
	case strings.HasPrefix(spec, "/"):
		p = path.Clean(spec)[1:]
	case strings.HasPrefix(spec, "./"), strings.HasPrefix(spec, "../"):
		p = path.Join(dir, spec)
	default:
		return ""
	}
	if p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return ""
	}
	if _, ok := loaders[path.Ext(p)]; !ok {
		found := ""
		for _, ext := range moduleExts {
			if _, err := m.opt.Load(p + ext); err == nil {
				found = p + ext
				break
			}
		}
		if p = found; p == "" {
			return ""
		}
	}
	m.mu.Lock()
	m.resolved[p] = true
	m.mu.Unlock()
	return p
}

// imported reports whether an import of the export's pages named file:
// the evaluator is given no other file's code.
func (m *Modules) imported(file string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.resolved[file]
}
