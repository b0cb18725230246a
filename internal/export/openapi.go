package export

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"strings"
)

// maxSpecBytes bounds one OpenAPI file. Real specs of large APIs reach a
// few megabytes; anything far beyond is a mistake, not documentation.
const maxSpecBytes = 32 << 20

// obj is a JSON or YAML mapping that keeps its key order: the order of
// paths and properties in a spec is the order readers expect to see them.
type obj struct {
	keys []string
	m    map[string]any
}

func newObj() *obj { return &obj{m: map[string]any{}} }

func (o *obj) set(k string, v any) {
	if _, ok := o.m[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.m[k] = v
}

func (o *obj) get(k string) any {
	if o == nil {
		return nil
	}
	return o.m[k]
}

func (o *obj) str(k string) string {
	s, _ := o.get(k).(string)
	return s
}

func (o *obj) flag(k string) bool {
	b, _ := o.get(k).(bool)
	return b
}

func (o *obj) sub(k string) *obj {
	v, _ := o.get(k).(*obj)
	return v
}

func (o *obj) list(k string) []any {
	v, _ := o.get(k).([]any)
	return v
}

// spec is one parsed OpenAPI 3.0 or 3.1 document of the source.
type spec struct {
	file    string
	root    *obj
	v31     bool
	servers []string
	ops     []*operation
}

// operation is one endpoint (or webhook) of a spec.
type operation struct {
	spec    *spec
	method  string // upper case, "WEBHOOK" for webhooks
	path    string // the path template, or the webhook's name
	webhook bool
	item    *obj // the path item, for parameters shared by its operations
	op      *obj
	// hidden (x-hidden) operations get a page that the generated
	// navigation and search leave out: reachable by its address only.
	hidden bool
}

// summary titles the operation's page: x-mint metadata, then the
// summary, then the method and path, as the platform does.
func (o *operation) summary() string {
	if t := o.op.sub("x-mint").sub("metadata").str("title"); t != "" {
		return t
	}
	if s := strings.TrimSpace(o.op.str("summary")); s != "" {
		return s
	}
	if o.webhook {
		return o.path
	}
	return o.method + " " + o.path
}

func (o *operation) tags() []string {
	var out []string
	for _, t := range o.op.list("tags") {
		if s, ok := t.(string); ok && s != "" {
			out = append(out, s)
		}
	}
	return out
}

// httpMethods are the operations of a path item, in the order pages list them.
var httpMethods = []string{"get", "post", "put", "patch", "delete", "head", "options", "trace"}

// parseSpec decodes a JSON or YAML OpenAPI document and lists its
// operations. Errors are meant for the docs author and name the file.
func parseSpec(file string, data []byte) (*spec, error) {
	if len(data) > maxSpecBytes {
		return nil, fmt.Errorf("%s: spec is %d bytes, over the limit of %d", file, len(data), maxSpecBytes)
	}
	var root any
	var err error
	trimmed := bytes.TrimLeft(data, " \t\r\n\xef\xbb\xbf")
	if len(trimmed) > 0 && trimmed[0] == '{' {
		root, err = decodeJSONOrdered(data)
	} else {
		root, err = decodeYAMLOrdered(data)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: not valid JSON or YAML: %w", file, err)
	}
	o, ok := root.(*obj)
	if !ok {
		return nil, fmt.Errorf("%s: an OpenAPI document is an object", file)
	}
	ver := o.str("openapi")
	if !strings.HasPrefix(ver, "3.0") && !strings.HasPrefix(ver, "3.1") {
		if o.get("swagger") != nil {
			return nil, fmt.Errorf("%s: Swagger 2.0 is not supported; convert it to OpenAPI 3", file)
		}
		return nil, fmt.Errorf("%s: \"openapi\" is %q, want 3.0.x or 3.1.x", file, ver)
	}
	s := &spec{file: file, root: o, v31: strings.HasPrefix(ver, "3.1")}
	for _, sv := range o.list("servers") {
		if so, ok := sv.(*obj); ok && so.str("url") != "" {
			s.servers = append(s.servers, serverURL(so))
		}
	}
	s.collect(o.sub("paths"), false)
	s.collect(o.sub("webhooks"), true)
	return s, nil
}

// serverURL fills a server's variables with their defaults.
func serverURL(so *obj) string {
	u := so.str("url")
	vars := so.sub("variables")
	if vars == nil {
		return u
	}
	for _, k := range vars.keys {
		if v, ok := vars.get(k).(*obj); ok {
			u = strings.ReplaceAll(u, "{"+k+"}", fmt.Sprint(v.get("default")))
		}
	}
	return u
}

func (s *spec) collect(paths *obj, webhooks bool) {
	if paths == nil {
		return
	}
	for _, p := range paths.keys {
		item, _, err := s.deref(paths.get(p))
		if err != nil || item == nil {
			continue
		}
		for _, m := range httpMethods {
			op, _, err := s.deref(item.get(m))
			if err != nil || op == nil || op.flag("x-excluded") {
				continue
			}
			o := &operation{spec: s, method: strings.ToUpper(m), path: p, webhook: webhooks, item: item, op: op, hidden: op.flag("x-hidden")}
			if webhooks {
				o.method = "WEBHOOK"
			}
			s.ops = append(s.ops, o)
			if webhooks {
				break // a webhook is one request
			}
		}
	}
}

// find returns the operation named by "METHOD /path" or "webhook name".
func (s *spec) find(ref string) *operation {
	method, rest, ok := strings.Cut(strings.TrimSpace(ref), " ")
	if !ok {
		return nil
	}
	rest = strings.TrimSpace(rest)
	for _, o := range s.ops {
		if strings.EqualFold(method, "webhook") && o.webhook && o.path == rest ||
			!o.webhook && strings.EqualFold(method, o.method) && o.path == rest {
			return o
		}
	}
	return nil
}

// maxRefHops bounds a chain of references to references.
const maxRefHops = 32

// errRefCycle marks a chain of $refs that comes back to itself.
var errRefCycle = errors.New("$ref cycle")

// deref follows internal $refs from v and returns the object reached and
// the name of the first reference (its last pointer segment), "" when v
// is no reference. External references are not followed: the platform
// supports internal ones only.
func (s *spec) deref(v any) (*obj, string, error) {
	name := ""
	var seen []string
	for hop := 0; ; hop++ {
		o, ok := v.(*obj)
		if !ok {
			return nil, name, nil
		}
		r, isRef := o.get("$ref").(string)
		if !isRef {
			return o, name, nil
		}
		if name == "" {
			name = refName(r)
		}
		for _, prev := range seen {
			if prev == r {
				chain := strings.Join(append(seen, r), " -> ")
				return nil, name, fmt.Errorf("%s: %w: %s", s.file, errRefCycle, chain)
			}
		}
		if hop >= maxRefHops {
			return nil, name, fmt.Errorf("%s: $ref chain longer than %d at %s", s.file, maxRefHops, r)
		}
		seen = append(seen, r)
		target, err := s.pointer(r)
		if err != nil {
			return nil, name, err
		}
		v = target
	}
}

// pointer resolves "#/a/b" inside the document.
func (s *spec) pointer(r string) (any, error) {
	frag, ok := strings.CutPrefix(r, "#")
	if !ok {
		return nil, fmt.Errorf("%s: external $ref %q is not supported (only \"#/...\" inside the file)", s.file, r)
	}
	if u, err := url.PathUnescape(frag); err == nil {
		frag = u
	}
	var cur any = s.root
	for _, seg := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		if frag == "" {
			break
		}
		seg = strings.NewReplacer("~1", "/", "~0", "~").Replace(seg)
		switch c := cur.(type) {
		case *obj:
			v, ok := c.m[seg]
			if !ok {
				return nil, fmt.Errorf("%s: $ref %q names nothing", s.file, r)
			}
			cur = v
		default:
			return nil, fmt.Errorf("%s: $ref %q names nothing", s.file, r)
		}
	}
	return cur, nil
}

// refName is the display name of a reference: its last segment.
func refName(r string) string {
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(path.Base(r))
}

// specs loads the OpenAPI files of a source on first use, each once.
type specs struct {
	src    fs.FS
	loaded map[string]*spec
	failed map[string]error
	all    []string // every spec-like file of the source, found on demand
	walked bool
}

func newSpecs(src fs.FS) *specs {
	return &specs{src: src, loaded: map[string]*spec{}, failed: map[string]error{}}
}

// load returns the spec at file (a source path, leading slash allowed).
func (ss *specs) load(file string) (*spec, error) {
	file = strings.TrimSpace(file)
	if !hasScheme(file) { // cleaning would fold the // of a URL in the message
		file = strings.TrimPrefix(path.Clean("/"+file), "/")
	}
	if s, ok := ss.loaded[file]; ok {
		return s, nil
	}
	if err, ok := ss.failed[file]; ok {
		return nil, err
	}
	s, err := ss.read(file)
	if err != nil {
		ss.failed[file] = err
		return nil, err
	}
	ss.loaded[file] = s
	return s, nil
}

func (ss *specs) read(file string) (*spec, error) {
	if hasScheme(file) {
		return nil, fmt.Errorf("%s: remote specs are not fetched by an export; add the file to the repository", file)
	}
	f, err := ss.src.Open(file)
	if err != nil {
		return nil, fmt.Errorf("openapi %s: %w", file, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxSpecBytes+1))
	if err != nil {
		return nil, fmt.Errorf("openapi %s: %w", file, err)
	}
	return parseSpec(file, data)
}

// search finds an operation in any spec of the source, in file name
// order, for frontmatter that names no file; the first match wins, as on
// the platform.
func (ss *specs) search(ref string) *operation {
	for _, f := range ss.files() {
		s, err := ss.load(f)
		if err != nil {
			continue // other JSON and YAML files are not specs
		}
		if o := s.find(ref); o != nil {
			return o
		}
	}
	return nil
}
