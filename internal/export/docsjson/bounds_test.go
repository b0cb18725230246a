package docsjson

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
)

// files is a docs source of JSON files that counts how often each is read.
type files struct {
	m     map[string]string
	reads map[string]int
}

func (f *files) read(name string) ([]byte, error) {
	if f.reads == nil {
		f.reads = map[string]int{}
	}
	f.reads[name]++
	s, ok := f.m[name]
	if !ok {
		return nil, fs.ErrNotExist
	}
	return []byte(s), nil
}

// fanOut is a source whose docs.json names level1.json width times, which
// names level2.json width times, and so on for depth levels: a few
// hundred bytes that describe width^depth copies of the last file.
func fanOut(width, depth int, leaf string) map[string]string {
	m := map[string]string{fmt.Sprintf("level%d.json", depth): leaf}
	for i := depth - 1; i >= 0; i-- {
		refs := make([]string, width)
		for j := range refs {
			refs[j] = fmt.Sprintf(`{"$ref": "level%d.json"}`, i+1)
		}
		body := "[" + strings.Join(refs, ",") + "]"
		if i == 0 {
			m["docs.json"] = `{"name": "fan", "navigation": {"pages": ["index"]}, "x": ` + body + "}"
			continue
		}
		m[fmt.Sprintf("level%d.json", i)] = body
	}
	return m
}

// TestLoad_fanOutRefused holds a $ref fan-out to the bounds: a source
// whose written-out configuration is far over them fails with a message
// naming the file, the place and the bound, after reading each file once.
func TestLoad_fanOutRefused(t *testing.T) {
	tests := []struct {
		name   string
		bounds Bounds
		want   string
	}{
		{"bytes", Bounds{MaxBytes: 1 << 20}, "more than the limit of 1048576 bytes"},
		{"values", Bounds{MaxValues: 10_000, MaxBytes: 1 << 40}, "more than the limit of 10000 JSON values"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// 10^6 copies of a 60-byte file: 60 MB written out.
			src := &files{m: fanOut(10, 6, `{"group": "leaf", "pages": ["a", "b", "c", "d", "e", "f"]}`)}
			_, err := Load(context.Background(), src.read, tt.bounds, nil)
			var ie *InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "with $ref level") {
				t.Fatalf("Load = %v, want an input error naming the $ref and %q", err, tt.want)
			}
			for name, n := range src.reads {
				if n != 1 {
					t.Errorf("%s read %d times, want once", name, n)
				}
			}
		})
	}
}

// TestLoad_sharedFilesWithinBounds loads a configuration that names one
// file many times, within the bounds: every use has the file's content,
// and sibling keys merged over one use do not show in the others.
func TestLoad_sharedFilesWithinBounds(t *testing.T) {
	src := &files{m: map[string]string{
		"docs.json": `{"navigation": {"groups": [
			{"$ref": "group.json", "group": "First"},
			{"$ref": "group.json"},
			{"$ref": "group.json", "group": "Third"}]}}`,
		"group.json": `{"group": "Shared", "pages": [{"$ref": "pages.json"}]}`,
		"pages.json": `{"group": "Inner", "pages": ["intro", "setup"]}`,
	}}
	c, err := Load(context.Background(), src.read, Bounds{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, g := range c.Navigation.Groups {
		inner := g.Pages[0].Group
		got = append(got, fmt.Sprintf("%s:%s:%v", g.Group, inner.Group, inner.Pages))
	}
	want := "[First:Inner:[{intro <nil>} {setup <nil>}] Shared:Inner:[{intro <nil>} {setup <nil>}] Third:Inner:[{intro <nil>} {setup <nil>}]]"
	if fmt.Sprint(got) != want {
		t.Errorf("groups = %v\nwant %s", got, want)
	}
	if src.reads["group.json"] != 1 || src.reads["pages.json"] != 1 {
		t.Errorf("reads = %v, want each file once", src.reads)
	}
}

// TestLoad_depthAndSizeOfOneFile refuses a file over the bounds before
// decoding it, with or without $ref, and a nesting that only $ref makes
// too deep.
func TestLoad_depthAndSizeOfOneFile(t *testing.T) {
	deep := strings.Repeat("[", 200) + strings.Repeat("]", 200)
	tests := []struct {
		name string
		m    map[string]string
		b    Bounds
		want string
	}{
		{"deep without $ref", map[string]string{"docs.json": `{"x": ` + deep + `}`}, Bounds{}, "docs.json: the file is nested deeper than the limit of 128 levels"},
		{"deep in a $ref file", map[string]string{"docs.json": `{"x": {"$ref": "d.json"}}`, "d.json": deep}, Bounds{}, "d.json: the file is nested deeper than the limit of 128 levels"},
		{"deep through $ref", map[string]string{
			"docs.json": `{"x": ` + strings.Repeat("[", 100) + `{"$ref": "d.json"}` + strings.Repeat("]", 100) + `}`,
			"d.json":    strings.Repeat("[", 50) + strings.Repeat("]", 50),
		}, Bounds{}, "with $ref d.json written out, docs.json is nested deeper than the limit of 128 levels"},
		{"values without $ref", map[string]string{"docs.json": `{"x": [` + strings.Repeat("0,", 2000) + `0]}`}, Bounds{MaxValues: 1000}, "more than the limit of 1000 JSON values"},
		{"bytes without $ref", map[string]string{"docs.json": `{"name": "` + strings.Repeat("x", 5000) + `"}`}, Bounds{MaxBytes: 4096}, "more than the limit of 4096 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(context.Background(), (&files{m: tt.m}).read, tt.b, nil)
			var ie *InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Load = %v, want an input error with %q", err, tt.want)
			}
		})
	}
}

// TestLoad_cancelled stops with the context's cause, between files.
func TestLoad_cancelled(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("export timeout")
	src := &files{m: fanOut(3, 3, `{"a": 1}`)}
	read := func(name string) ([]byte, error) {
		if name == "level2.json" {
			cancel(cause)
		}
		return src.read(name)
	}
	_, err := Load(ctx, read, Bounds{}, nil)
	if !errors.Is(err, cause) {
		t.Fatalf("Load = %v, want it stopped with the context's cause", err)
	}
	if src.reads["level3.json"] != 0 {
		t.Errorf("level3.json was read after the context ended")
	}
}

// TestMeasure_countsAsTheDecoderDoes holds measure to encoding/json: the
// values and depth it counts from the bytes are those of the decoded
// tree.
func TestMeasure_countsAsTheDecoderDoes(t *testing.T) {
	for _, doc := range []string{
		`0`, `"a"`, `[]`, `{}`, `[[]]`, `[{}]`, `[1, 2, [3, {"a": [], "b": {"c": null}}]]`,
		`{"a\"[,:": "]}\\", "b": [true, false, "x,y"], "c": {"d": {"e": [[[1]]]}}}`,
		` { "x" : [ 1 , 2 ] } `,
	} {
		var v any
		if err := json.Unmarshal([]byte(doc), &v); err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		values, depth := count(v)
		if s := measure([]byte(doc)); s.values != values || s.depth != depth {
			t.Errorf("measure(%s) = %d values, depth %d; decoded: %d values, depth %d", doc, s.values, s.depth, values, depth)
		}
	}
}

// count is the values and nesting depth of a decoded tree.
func count(v any) (values int64, depth int) {
	values = 1
	var kids []any
	switch t := v.(type) {
	case []any:
		kids = t
	case map[string]any:
		for _, k := range sortedKeys(t) {
			kids = append(kids, t[k])
		}
	default:
		return values, 0
	}
	for _, k := range kids {
		n, d := count(k)
		values += n
		depth = max(depth, d)
	}
	return values, depth + 1
}

// FuzzMeasure holds measure to encoding/json on any valid JSON text: the
// bounds are checked on its counts before a file is decoded, so a count
// below the decoder's would let a file past them. Above is allowed: an
// object that repeats a key counts each, where the decoder keeps one.
func FuzzMeasure(f *testing.F) {
	f.Add(`{"a": [1, {"b": "c\"]"}], "d": null}`)
	f.Add(`[[], {}, [[{}]], "\\", "\\\""]`)
	f.Fuzz(func(t *testing.T, doc string) {
		var v any
		if json.Unmarshal([]byte(doc), &v) != nil {
			return
		}
		values, depth := count(v)
		if s := measure([]byte(doc)); s.values < values || s.depth < depth {
			t.Fatalf("measure(%q) = %d values, depth %d; decoded: %d values, depth %d", doc, s.values, s.depth, values, depth)
		}
	})
}
