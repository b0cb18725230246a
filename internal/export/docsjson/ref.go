package docsjson

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// maxRefDepth bounds nested $ref files; real configurations nest two or
// three levels, and the bound keeps a pathological chain from running on.
const maxRefDepth = 32

// refResolver expands "$ref" objects in docs.json: {"$ref": "./nav.json"}
// is replaced by that file's JSON, nested references resolve relative to
// the file holding them, and sibling keys of a $ref merge over a
// referenced object (the platform's rule; they are ignored next to any
// other value). Every path stays inside the source root.
//
// Each file is read, measured and decoded once; a file named again is
// the same tree, shared (nothing below a $ref is written to after its
// file is resolved), and counted again against the bounds, which hold
// the configuration as if every $ref were written out.
type refResolver struct {
	ctx    context.Context
	read   func(name string) ([]byte, error)
	bounds Bounds
	chain  []string // files being resolved, outermost first, for cycles
	done   map[string]*resolved
	used   bool  // whether any $ref was seen
	walked int64 // values walked, for looking at ctx now and then
}

// resolved is a file with its references expanded, and the size of that
// tree written out.
type resolved struct {
	v    any
	size size
}

// refError names the file and the JSON path of a problem, as a docs
// author needs both to find it.
func refError(file, jsonPath, format string, args ...any) error {
	if jsonPath == "" {
		jsonPath = "(top level)"
	}
	return &InputError{Msg: fmt.Sprintf("%s at %s: %s", file, jsonPath, fmt.Sprintf(format, args...))}
}

// file reads one JSON file of the configuration and resolves it, or
// returns it resolved before.
func (r *refResolver) file(name, from, jsonPath string) (*resolved, error) {
	if f, ok := r.done[name]; ok {
		return f, nil
	}
	if err := r.ctx.Err(); err != nil {
		return nil, errCancelled(r.ctx)
	}
	b, err := r.read(name)
	if err != nil {
		var ie *InputError
		switch {
		case errors.As(err, &ie):
			return nil, refError(from, jsonPath, "%s", ie.Msg)
		case IsOutside(err):
			return nil, refError(from, jsonPath, "$ref %q is a link out of the docs source; refused", name)
		case errors.Is(err, fs.ErrNotExist):
			return nil, refError(from, jsonPath, "$ref names %s, which does not exist", name)
		}
		return nil, refError(from, jsonPath, "$ref %s: %v", name, err)
	}
	return r.decode(name, b)
}

// decode measures, decodes and resolves the text b of file name.
func (r *refResolver) decode(name string, b []byte) (*resolved, error) {
	own := measure(b)
	if over := r.bounds.over(own); over != "" {
		return nil, &InputError{Msg: fmt.Sprintf("%s: the file is %s; split it or simplify it", name, over)}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // numbers pass through as written
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, jsonSyntaxError(name, b, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &InputError{Msg: fmt.Sprintf("%s: invalid JSON: text after the JSON value", name)}
	}
	r.chain = append(r.chain, name)
	defer func() { r.chain = r.chain[:len(r.chain)-1] }()
	f := &resolved{size: own}
	// Paths in errors below are inside this file, where its author looks.
	v, err := r.value(v, name, "", 0, &f.size)
	if err != nil {
		return nil, err
	}
	f.v = v
	if r.done == nil {
		r.done = map[string]*resolved{}
	}
	r.done[name] = f
	return f, nil
}

// value resolves the references inside v, which was read from file at
// the given nesting depth, adding what they expand to to total.
func (r *refResolver) value(v any, file, jsonPath string, depth int, total *size) (any, error) {
	if r.walked++; r.walked%checkCtx == 0 && r.ctx.Err() != nil {
		return nil, errCancelled(r.ctx)
	}
	switch t := v.(type) {
	case []any:
		for i, e := range t {
			out, err := r.value(e, file, jsonPath+"["+strconv.Itoa(i)+"]", depth+1, total)
			if err != nil {
				return nil, err
			}
			t[i] = out
		}
		return t, nil
	case map[string]any:
		ref, hasRef := t["$ref"]
		for _, k := range sortedKeys(t) {
			if k == "$ref" {
				continue
			}
			out, err := r.value(t[k], file, joinPath(jsonPath, k), depth+1, total)
			if err != nil {
				return nil, err
			}
			t[k] = out
		}
		if !hasRef {
			return t, nil
		}
		r.used = true
		target, err := r.target(ref, file, jsonPath)
		if err != nil {
			return nil, err
		}
		f, err := r.file(target, file, jsonPath)
		if err != nil {
			return nil, err
		}
		total.add(f.size, depth)
		if over := r.bounds.over(*total); over != "" {
			return nil, refError(file, jsonPath, "with $ref %s written out, %s is %s", target, file, over)
		}
		obj, ok := f.v.(map[string]any)
		if !ok || len(t) == 1 {
			return f.v, nil // siblings only merge over an object
		}
		// The target's tree is shared with its other uses: the merge
		// is a new object.
		merged := make(map[string]any, len(obj)+len(t)-1)
		for k, sv := range obj {
			merged[k] = sv
		}
		for k, sv := range t {
			if k != "$ref" {
				merged[k] = sv
			}
		}
		return merged, nil
	}
	return v, nil
}

// target checks a $ref value and returns the file it names, relative to
// the source root.
func (r *refResolver) target(ref any, file, jsonPath string) (string, error) {
	s, ok := ref.(string)
	if !ok || s == "" {
		return "", refError(file, jsonPath, "$ref must be a relative file path such as \"./navigation.json\"")
	}
	if path.IsAbs(s) || strings.Contains(s, "\\") || markup.Scheme(s) != "" {
		return "", refError(file, jsonPath, "$ref %q must be a path relative to %s", s, file)
	}
	target := path.Join(path.Dir(file), s)
	if target == ".." || strings.HasPrefix(target, "../") {
		return "", refError(file, jsonPath, "$ref %q leaves the docs source", s)
	}
	for i, f := range r.chain {
		if f == target {
			cycle := append(append([]string{}, r.chain[i:]...), target)
			return "", refError(file, jsonPath, "$ref cycle: %s", strings.Join(cycle, " -> "))
		}
	}
	if len(r.chain) >= maxRefDepth {
		return "", refError(file, jsonPath, "$ref nesting is deeper than %d files", maxRefDepth)
	}
	return target, nil
}

// joinPath extends a JSON path ("navigation.tabs[0]") by a key.
func joinPath(p, key string) string {
	if p == "" {
		return key
	}
	return p + "." + key
}

// jsonSyntaxError turns a decoding error into a message with a line
// number that a docs author can act on.
func jsonSyntaxError(file string, b []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &InputError{Msg: fmt.Sprintf("%s: invalid JSON at line %d: %v", file, lineOf(b, se.Offset), se)}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &InputError{Msg: fmt.Sprintf("%s: invalid JSON: unexpected end of file", file)}
	}
	return &InputError{Msg: fmt.Sprintf("%s: invalid JSON: %v", file, err)}
}
