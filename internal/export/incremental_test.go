package export

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"path"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/frame"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/icons"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/machines"
)

// exported is one export into a spool, archived.
type exported struct {
	archive, record []byte
	man             *bundle.Manifest
	pages           map[string][]byte // page file → content, for full exports
	rendered        []string          // page keys rendered (not reused)
	warnings        []string
}

// exportIncr exports req into a spool and archives it; with prev, the
// export may reuse prev's pages (Request.Previous) and archive entries.
func exportIncr(t *testing.T, req Request, prev *exported) *exported {
	t.Helper()
	spool, err := bundle.NewSpool(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer spool.Close()
	out := &exported{}
	var mu sync.Mutex
	req.Warn = func(w Warning) { out.warnings = append(out.warnings, w.Kind+": "+w.Message) }
	e := New(Options{})
	defer e.Close()
	e.rendered = func(key string) {
		mu.Lock()
		out.rendered = append(out.rendered, key)
		mu.Unlock()
	}
	if prev != nil {
		req.Previous = prev.record
		spool.ReuseArchive(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(prev.archive)), nil })
	}
	out.man, err = e.ExportTo(context.Background(), req, spool, nil)
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	out.record = spool.Sidecar()
	if prev == nil {
		out.pages = map[string][]byte{}
		for _, f := range out.man.Files {
			if path.Ext(f.Path) == ".html" || path.Ext(f.Path) == ".md" {
				rc, err := spool.Open(f.Path)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(rc)
				out.pages[f.Path] = b
			}
		}
	}
	var buf bytes.Buffer
	if err := spool.WriteArchive(context.Background(), &buf, 2); err != nil {
		t.Fatalf("archive: %v", err)
	}
	out.archive = buf.Bytes()
	slices.Sort(out.rendered)
	slices.Sort(out.warnings)
	return out
}

// changed returns the keys of the pages whose HTML or Markdown copy
// differs between two full exports, or exists in one only.
func changed(a, b *exported) []string {
	set := map[string]bool{}
	for _, m := range []map[string][]byte{a.pages, b.pages} {
		for f := range m {
			if !bytes.Equal(a.pages[f], b.pages[f]) {
				set[strings.TrimSuffix(strings.TrimSuffix(f, ".html"), ".md")] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// reuseFixtures are the fixture sites re-exports are tested on.
var reuseFixtures = []reuseFixture{
	{"fixture", KindCloud, ""}, {"airgap", KindAirGapped, ""}, {"apisite", KindCloud, ""},
	{"basepath", KindCloud, "/docs"}, {"components", KindCloud, ""}, {"docsrepo", KindCloud, ""},
	{"icons", KindAirGapped, ""},
}

type reuseFixture struct {
	dir  string
	kind Kind
	base string
}

// request is the fixture's source and a request to export it; with
// -short, only the first fixture runs.
func (tc reuseFixture) request(t *testing.T) (fstest.MapFS, Request) {
	t.Helper()
	if testing.Short() && tc.dir != "fixture" {
		t.Skip("-short: the first fixture only")
	}
	src := dirFS(t, "testdata/"+tc.dir)
	return src, Request{Source: src, Kind: tc.kind, BasePath: tc.base, Domain: "docs.example.com"}
}

// incrementalChanges are the kinds of input a re-export must notice,
// each made to a source; false when the source has no such input.
var incrementalChanges = map[string]func(fstest.MapFS) bool{
	"none": func(fstest.MapFS) bool { return true },
	"onePage": func(m fstest.MapFS) bool {
		return appendToFirst(m, func(p string) bool { return isPage(p) && !strings.HasPrefix(p, "snippets/") }, "\n\nOne more paragraph.\n")
	},
	"snippet": func(m fstest.MapFS) bool {
		return appendToFirst(m, func(p string) bool { return strings.HasPrefix(p, "snippets/") && isPage(p) }, "\n\nAnd one more line.\n")
	},
	"spec": func(m fstest.MapFS) bool {
		return replaceInFirst(m, func(p string) bool { return isSpec(m, p) }, `"description": "`, `"description": "Changed. `)
	},
	"neighbourTitle": func(m fstest.MapFS) bool {
		// The last page in path order that has a title in its
		// frontmatter: its neighbours show it in the sidebar and pager.
		keys := slices.Sorted(maps.Keys(m))
		slices.Reverse(keys)
		for _, p := range keys {
			if isPage(p) && !strings.HasPrefix(p, "snippets/") && frontmatterTitle.Match(m[p].Data) {
				m[p] = &fstest.MapFile{Data: frontmatterTitle.ReplaceAll(m[p].Data, []byte("${1}Retitled ${2}"))}
				return true
			}
		}
		return false
	},
	"docsJSON": func(m fstest.MapFS) bool {
		var cfg map[string]any
		if json.Unmarshal(m["docs.json"].Data, &cfg) != nil {
			return false
		}
		cfg["name"] = "Renamed"
		raw, err := json.Marshal(cfg)
		m["docs.json"] = &fstest.MapFile{Data: raw}
		return err == nil
	},
}

var frontmatterTitle = regexp.MustCompile(`(?m)^(title:\s*["']?)(\S)`)

func isPage(p string) bool { return path.Ext(p) == ".mdx" || path.Ext(p) == ".md" }

func isSpec(m fstest.MapFS, p string) bool {
	return (path.Ext(p) == ".json" || path.Ext(p) == ".yaml") && bytes.Contains(m[p].Data, []byte(`"openapi"`))
}

// replaceInFirst replaces the first old in the first file of m, in path
// order, that match accepts and that holds old.
func replaceInFirst(m fstest.MapFS, match func(string) bool, old, repl string) bool {
	for _, p := range slices.Sorted(maps.Keys(m)) {
		if match(p) && bytes.Contains(m[p].Data, []byte(old)) {
			m[p] = &fstest.MapFile{Data: bytes.Replace(m[p].Data, []byte(old), []byte(repl), 1)}
			return true
		}
	}
	return false
}

// TestIncremental_matchesFullExport: on every fixture, after each kind of
// change, a re-export that reuses the previous export's pages (its
// record) and archive makes the archive a full export of the changed
// source makes, byte for byte, with the same warnings; it renders
// every page whose output changed, and, on a source whose renders
// escape no trace, no other page.
func TestIncremental_matchesFullExport(t *testing.T) {
	for _, tc := range reuseFixtures {
		t.Run(tc.dir, func(t *testing.T) {
			src, req := tc.request(t)
			prev := exportIncr(t, req, nil)
			if len(prev.record) == 0 {
				t.Fatal("the export left no record")
			}
			for _, name := range slices.Sorted(maps.Keys(incrementalChanges)) {
				t.Run(name, func(t *testing.T) {
					next := maps.Clone(src)
					if !incrementalChanges[name](next) {
						t.Skip("the fixture has nothing to change this way")
					}
					req := req
					req.Source = next
					full := exportIncr(t, req, nil)
					incr := exportIncr(t, req, prev)
					if !bytes.Equal(full.archive, incr.archive) {
						t.Fatal("the archive of the re-export differs from the full export's")
					}
					if !slices.Equal(full.warnings, incr.warnings) {
						t.Errorf("warnings of the re-export:\n%s\nof the full export:\n%s", strings.Join(incr.warnings, "\n"), strings.Join(full.warnings, "\n"))
					}
					var want []string // the pages whose output changed
					for _, k := range changed(prev, full) {
						if _, ok := slices.BinarySearch(full.rendered, k); ok {
							want = append(want, k)
						}
					}
					for _, k := range want {
						if _, ok := slices.BinarySearch(incr.rendered, k); !ok {
							t.Errorf("page %s changed but was not rendered", k)
						}
					}
					t.Logf("rendered %d of %d pages (%d changed): %v", len(incr.rendered), incr.man.PageCount, len(want), incr.rendered)
					if name == "none" {
						// Rendered again: exactly the pages whose render
						// escaped their trace, which the record left out.
						rec, err := decodeRecord(prev.record)
						if err != nil {
							t.Fatal(err)
						}
						var unrecorded []string
						for _, k := range full.rendered {
							if rec.Pages[k] == nil {
								unrecorded = append(unrecorded, k)
							}
						}
						if !slices.Equal(incr.rendered, unrecorded) {
							t.Errorf("an unchanged re-export rendered %v, want the pages not recorded: %v", incr.rendered, unrecorded)
						}
					}
				})
			}
		})
	}
}

// A trace reads back as it was written, and a trace cut short or
// damaged is refused, not read as another.
func TestTrace_roundTrip(t *testing.T) {
	in := &pageTrace{
		HTML:     bundle.File{Path: "a/b.html", Size: 42, SHA256: strings.Repeat("ab", 32)},
		MD:       "# B\n\ntext\n",
		Feed:     "<rss>…</rss>\n",
		Warnings: []Warning{{Kind: WarnContent, Message: "a/b.mdx: something"}},
		Classes:  []string{"mt-4", "flex"},
		Search:   &machines.CutPage{Meta: []byte(`["B","a/b.html",""]`), Doc: []byte(`[["","","text"]]`), Words: []string{"text"}, Terms: []string{"text"}, Places: []int{2}},
		Diagram:  true, Card: true,
		Links:    []linkRef{{Asset: "images/x.png"}, {Broken: "a/b: nowhere"}},
		Icons:    []frame.IconUse{{Ref: icons.Ref{Name: "rocket", Type: "solid"}, In: "Card"}},
		Snippets: map[string]string{"snippets/s.mdx": "00ff"}, Components: true,
	}
	raw, err := encodeTrace(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := decodeTrace(raw)
	if err != nil {
		t.Fatal(err)
	}
	out.raw = nil
	if !reflect.DeepEqual(in, out) {
		t.Fatalf("read back %+v, want %+v", out, in)
	}
	plain := appendTrace(nil, in)
	for _, bad := range [][]byte{plain[:len(plain)-1], append(plain, 0), {0xff}} {
		if _, err := readTrace(bad); err == nil {
			t.Errorf("a damaged trace (%d bytes) was read", len(bad))
		}
	}
}
