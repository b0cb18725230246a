package openapi

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// MaxSpecBytes bounds one OpenAPI file. Real specs of large APIs reach a
// few megabytes; anything far beyond is a mistake, not documentation.
const MaxSpecBytes = 32 << 20

// Obj is a JSON or YAML mapping that keeps its key order: the order of
// paths and properties in a spec is the order readers expect to see them.
//
// The values sit in a slice beside the keys, found by a scan while the
// mapping is small and through an index past smallObj keys: most of a
// spec's mappings have a few keys, and a Go map per mapping made the
// parsed specs of a versioned, translated site (120 of them) about three
// times the size.
type Obj struct {
	Keys []string // in document order
	vals []any    // vals[i] is Keys[i]'s: *Obj, []any, string, json.Number, bool or nil
	idx  map[string]int
}

// smallObj is how many keys a mapping has before it is indexed; up to
// there a scan of the keys is as fast as a map.
const smallObj = 8

// NewObj returns an empty mapping.
func NewObj() *Obj { return &Obj{} }

// find is the index of k in o.Keys, or -1.
func (o *Obj) find(k string) int {
	if o.idx != nil {
		if i, ok := o.idx[k]; ok {
			return i
		}
		return -1
	}
	for i, key := range o.Keys {
		if key == k {
			return i
		}
	}
	return -1
}

// Set sets k, keeping its place if it is already there.
func (o *Obj) Set(k string, v any) {
	if i := o.find(k); i >= 0 {
		o.vals[i] = v
		return
	}
	o.Keys = append(o.Keys, k)
	o.vals = append(o.vals, v)
	switch n := len(o.Keys); {
	case o.idx != nil:
		o.idx[k] = n - 1
	case n > smallObj:
		o.idx = make(map[string]int, n)
		for i, key := range o.Keys {
			o.idx[key] = i
		}
	}
}

// Lookup is the value at k and whether k is there (false when o is nil).
func (o *Obj) Lookup(k string) (any, bool) {
	if o == nil {
		return nil, false
	}
	if i := o.find(k); i >= 0 {
		return o.vals[i], true
	}
	return nil, false
}

// Get is the value at k, nil when absent (or o is nil).
func (o *Obj) Get(k string) any {
	v, _ := o.Lookup(k)
	return v
}

// Len is how many keys o has.
func (o *Obj) Len() int {
	if o == nil {
		return 0
	}
	return len(o.Keys)
}

// Str is the string at k, "" when absent or not a string.
func (o *Obj) Str(k string) string {
	s, _ := o.Get(k).(string)
	return s
}

// Flag is the boolean at k, false when absent or not a boolean.
func (o *Obj) Flag(k string) bool {
	b, _ := o.Get(k).(bool)
	return b
}

// Sub is the mapping at k, nil when absent or not a mapping.
func (o *Obj) Sub(k string) *Obj {
	v, _ := o.Get(k).(*Obj)
	return v
}

// List is the sequence at k, nil when absent or not a sequence.
func (o *Obj) List(k string) []any {
	v, _ := o.Get(k).([]any)
	return v
}

// Spec is one parsed OpenAPI 3.0 or 3.1 document of the source.
type Spec struct {
	File    string
	Root    *Obj
	V31     bool
	Servers []string
	Ops     []*Operation
}

// Operation is one endpoint (or webhook) of a spec.
type Operation struct {
	Spec    *Spec
	Method  string // upper case, "WEBHOOK" for webhooks
	Path    string // the path template, or the webhook's name
	Webhook bool
	Item    *Obj // the path item, for parameters shared by its operations
	Op      *Obj
	// hidden (x-hidden) operations get a page that the generated
	// navigation and search leave out: reachable by its address only.
	Hidden bool
}

// Summary titles the operation's page: x-mint metadata, then the
// summary, then the method and path, as the platform does.
func (o *Operation) Summary() string {
	if t := o.Op.Sub("x-mint").Sub("metadata").Str("title"); t != "" {
		return t
	}
	if s := strings.TrimSpace(o.Op.Str("summary")); s != "" {
		return s
	}
	if o.Webhook {
		return o.Path
	}
	return o.Method + " " + o.Path
}

// Tags are the operation's non-empty tags, in order.
func (o *Operation) Tags() []string {
	var out []string
	for _, t := range o.Op.List("tags") {
		if s, ok := t.(string); ok && s != "" {
			out = append(out, s)
		}
	}
	return out
}

// HTTPMethods are the operations of a path item, in the order pages list them.
var HTTPMethods = []string{"get", "post", "put", "patch", "delete", "head", "options", "trace"}

// Parse decodes a JSON or YAML OpenAPI document and lists its
// operations. Errors are meant for the docs author and name the file.
func Parse(file string, data []byte) (*Spec, error) {
	if len(data) > MaxSpecBytes {
		return nil, fmt.Errorf("%s: spec is %d bytes, over the limit of %d", file, len(data), MaxSpecBytes)
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
	o, ok := root.(*Obj)
	if !ok {
		return nil, fmt.Errorf("%s: an OpenAPI document is an object", file)
	}
	ver := o.Str("openapi")
	if !strings.HasPrefix(ver, "3.0") && !strings.HasPrefix(ver, "3.1") {
		if o.Get("swagger") != nil {
			return nil, fmt.Errorf("%s: Swagger 2.0 is not supported; convert it to OpenAPI 3", file)
		}
		return nil, fmt.Errorf("%s: \"openapi\" is %q, want 3.0.x or 3.1.x", file, ver)
	}
	s := &Spec{File: file, Root: o, V31: strings.HasPrefix(ver, "3.1")}
	for _, sv := range o.List("servers") {
		if so, ok := sv.(*Obj); ok && so.Str("url") != "" {
			s.Servers = append(s.Servers, ServerURL(so))
		}
	}
	s.collect(o.Sub("paths"), false)
	s.collect(o.Sub("webhooks"), true)
	return s, nil
}

// ServerURL fills a server's variables with their defaults.
func ServerURL(so *Obj) string {
	u := so.Str("url")
	vars := so.Sub("variables")
	if vars == nil {
		return u
	}
	for _, k := range vars.Keys {
		if v, ok := vars.Get(k).(*Obj); ok {
			u = strings.ReplaceAll(u, "{"+k+"}", fmt.Sprint(v.Get("default")))
		}
	}
	return u
}

func (s *Spec) collect(paths *Obj, webhooks bool) {
	if paths == nil {
		return
	}
	for _, p := range paths.Keys {
		item, _, err := s.Deref(paths.Get(p))
		if err != nil || item == nil {
			continue
		}
		for _, m := range HTTPMethods {
			op, _, err := s.Deref(item.Get(m))
			if err != nil || op == nil || op.Flag("x-excluded") {
				continue
			}
			o := &Operation{Spec: s, Method: strings.ToUpper(m), Path: p, Webhook: webhooks, Item: item, Op: op, Hidden: op.Flag("x-hidden")}
			if webhooks {
				o.Method = "WEBHOOK"
			}
			s.Ops = append(s.Ops, o)
			if webhooks {
				break // a webhook is one request
			}
		}
	}
}

// Find returns the operation named by "METHOD /path" or "webhook name".
func (s *Spec) Find(ref string) *Operation {
	method, rest, ok := strings.Cut(strings.TrimSpace(ref), " ")
	if !ok {
		return nil
	}
	rest = strings.TrimSpace(rest)
	for _, o := range s.Ops {
		if strings.EqualFold(method, "webhook") && o.Webhook && o.Path == rest ||
			!o.Webhook && strings.EqualFold(method, o.Method) && o.Path == rest {
			return o
		}
	}
	return nil
}

// maxRefHops bounds a chain of references to references.
const maxRefHops = 32

// errRefCycle marks a chain of $refs that comes back to itself.
var errRefCycle = errors.New("$ref cycle")

// Deref follows internal $refs from v and returns the object reached and
// the name of the first reference (its last pointer segment), "" when v
// is no reference. External references are not followed: the platform
// supports internal ones only.
func (s *Spec) Deref(v any) (*Obj, string, error) {
	name := ""
	var seen []string
	for hop := 0; ; hop++ {
		o, ok := v.(*Obj)
		if !ok {
			return nil, name, nil
		}
		r, isRef := o.Get("$ref").(string)
		if !isRef {
			return o, name, nil
		}
		if name == "" {
			name = RefName(r)
		}
		for _, prev := range seen {
			if prev == r {
				chain := strings.Join(append(seen, r), " -> ")
				return nil, name, fmt.Errorf("%s: %w: %s", s.File, errRefCycle, chain)
			}
		}
		if hop >= maxRefHops {
			return nil, name, fmt.Errorf("%s: $ref chain longer than %d at %s", s.File, maxRefHops, r)
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
func (s *Spec) pointer(r string) (any, error) {
	frag, ok := strings.CutPrefix(r, "#")
	if !ok {
		return nil, fmt.Errorf("%s: external $ref %q is not supported (only \"#/...\" inside the file)", s.File, r)
	}
	if u, err := url.PathUnescape(frag); err == nil {
		frag = u
	}
	var cur any = s.Root
	for _, seg := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		if frag == "" {
			break
		}
		seg = unescapePointer.Replace(seg)
		switch c := cur.(type) {
		case *Obj:
			v, ok := c.Lookup(seg)
			if !ok {
				return nil, fmt.Errorf("%s: $ref %q names nothing", s.File, r)
			}
			cur = v
		default:
			return nil, fmt.Errorf("%s: $ref %q names nothing", s.File, r)
		}
	}
	return cur, nil
}

// RefName is the display name of a reference: its last segment.
func RefName(r string) string {
	return unescapePointer.Replace(path.Base(r))
}

// unescapePointer undoes the escapes of a JSON pointer segment.
var unescapePointer = strings.NewReplacer("~1", "/", "~0", "~")

// Specs loads the OpenAPI files of a source on first use, each once.
type Specs struct {
	src    fs.FS
	skip   func(dir string) bool // directories of the source that hold no docs
	loaded map[string]*Spec
	failed map[string]error
	all    []string // every spec-like file of the source, found on demand
	walked bool
}

// NewSpecs reads specs from src; Files lists none below a directory skip
// names (dependencies, build output).
func NewSpecs(src fs.FS, skip func(dir string) bool) *Specs {
	return &Specs{src: src, skip: skip, loaded: map[string]*Spec{}, failed: map[string]error{}}
}

// Load returns the spec at file (a source path, leading slash allowed).
func (ss *Specs) Load(file string) (*Spec, error) {
	file = strings.TrimSpace(file)
	if markup.Scheme(file) == "" { // cleaning would fold the // of a URL in the message
		file = strings.TrimPrefix(path.Clean("/"+file), "/")
	}
	if s, ok := ss.loaded[file]; ok {
		return s, nil
	}
	if err, ok := ss.failed[file]; ok {
		return nil, err
	}
	s, err := ss.read(file)
	if errors.Is(err, fs.ErrNotExist) && !specExts[strings.ToLower(path.Ext(file))] {
		// Frontmatter may name a spec without its extension
		// ("v3-openapi GET /runs"), as on the platform.
		for _, ext := range []string{".json", ".yaml", ".yml"} {
			if alt, aerr := ss.Load(file + ext); aerr == nil {
				s, err = alt, nil
				break
			}
		}
	}
	if err != nil {
		ss.failed[file] = err
		return nil, err
	}
	ss.loaded[file] = s
	return s, nil
}

// specExts are the extensions of spec files.
var specExts = map[string]bool{".json": true, ".yaml": true, ".yml": true}

func (ss *Specs) read(file string) (*Spec, error) {
	if markup.Scheme(file) != "" {
		return nil, fmt.Errorf("%s: remote specs are not fetched by an export; add the file to the repository", file)
	}
	f, err := ss.src.Open(file)
	if err != nil {
		return nil, fmt.Errorf("openapi %s: %w", file, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSpecBytes+1))
	if err != nil {
		return nil, fmt.Errorf("openapi %s: %w", file, err)
	}
	return Parse(file, data)
}

// Search finds an operation in any spec of the source, in file name
// order, for frontmatter that names no file; the first match wins, as on
// the platform.
func (ss *Specs) Search(ref string) *Operation {
	for _, f := range ss.Files() {
		s, err := ss.Load(f)
		if err != nil {
			continue // other JSON and YAML files are not specs
		}
		if o := s.Find(ref); o != nil {
			return o
		}
	}
	return nil
}
