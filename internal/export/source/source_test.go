package source

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
)

// TestConfine: a link may point anywhere inside the source but never out
// of it, whether the source is a Dir (os.Root) or another file system
// that reports links (linkGuard).
func TestConfine(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("key"), 0o600); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for name, body := range map[string]string{"docs.json": "{}", "pages/a.mdx": "A"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"inside.mdx":   "pages/a.mdx",
		"folder":       "pages",
		"chain.mdx":    "inside.mdx",
		"absolute.mdx": filepath.Join(outside, "secret"),
		"dotdot.mdx":   "../" + filepath.Base(outside) + "/secret",
		"up":           "..",
		"loop.mdx":     "loop.mdx",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	for _, src := range []struct {
		name string
		fsys fs.FS
	}{{"Dir", Dir(root)}, {"os.DirFS", os.DirFS(root)}} {
		fsys, done, err := Confine(src.fsys)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name string
			want string // the content, or "" for a refusal
		}{
			{"pages/a.mdx", "A"},
			{"inside.mdx", "A"},
			{"chain.mdx", "A"},
			{"folder/a.mdx", "A"},
			{"absolute.mdx", ""},
			{"dotdot.mdx", ""},
			{"up/" + filepath.Base(root) + "/docs.json", ""},
			{"loop.mdx", ""},
			{"missing.mdx", ""},
		} {
			got, err := fs.ReadFile(fsys, tc.name)
			switch {
			case tc.want != "" && (err != nil || string(got) != tc.want):
				t.Errorf("%s: read %s = %q, %v; want %q", src.name, tc.name, got, err, tc.want)
			case tc.want == "" && err == nil:
				t.Errorf("%s: read %s = %q; want a refusal", src.name, tc.name, got)
			}
		}
		done()
	}
}

// TestWithIgnore: what .mintignore names is hidden from every read, with
// gitignore's rules; docs.json never is.
func TestWithIgnore(t *testing.T) {
	src := fstest.MapFS{
		".mintignore":        {Data: []byte("# tooling\nAGENTS.md\ndrafts/\n*.tmp\n!keep.tmp\n/root-only.md\ndocs.json\n")},
		"docs.json":          {Data: []byte("{}")},
		"AGENTS.md":          {Data: []byte("x")},
		"guide/AGENTS.md":    {Data: []byte("x")},
		"drafts/a.mdx":       {Data: []byte("x")},
		"guide/drafts/b.mdx": {Data: []byte("x")},
		"a.tmp":              {Data: []byte("x")},
		"keep.tmp":           {Data: []byte("x")},
		"root-only.md":       {Data: []byte("x")},
		"guide/root-only.md": {Data: []byte("x")},
		"guide/page.mdx":     {Data: []byte("x")},
	}
	fsys := WithIgnore(src)
	for name, visible := range map[string]bool{
		"docs.json": true, "AGENTS.md": false, "guide/AGENTS.md": false, "drafts/a.mdx": false,
		"guide/drafts/b.mdx": false, "a.tmp": false, "keep.tmp": true, "root-only.md": false,
		"guide/root-only.md": true, "guide/page.mdx": true,
	} {
		_, err := fs.ReadFile(fsys, name)
		if visible && err != nil || !visible && !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("read %s: %v, want visible: %v", name, err, visible)
		}
	}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() == "drafts" || e.Name() == "AGENTS.md" {
			t.Errorf("ReadDir lists the ignored %s", e.Name())
		}
	}
	plain := fstest.MapFS{"docs.json": {Data: []byte("{}")}, "AGENTS.md": {Data: []byte("x")}}
	if _, ok := WithIgnore(plain).(fstest.MapFS); !ok {
		t.Error("a source without .mintignore is wrapped; want it as it is")
	}
}

// TestReadLimited and the budget: a file or an export over its limit is
// an InputError the author can act on.
func TestReadLimited(t *testing.T) {
	src := fstest.MapFS{"small.mdx": {Data: []byte("12345")}, "big.mdx": {Data: []byte(strings.Repeat("x", 2048))}}
	for _, tc := range []struct {
		name    string
		limit   int64
		wantErr string
	}{
		{"small.mdx", 5, ""},
		{"small.mdx", 4, "small.mdx: page is larger than the limit of 4 bytes (at least 5 bytes)"},
		{"big.mdx", 1024, "big.mdx: page is larger than the limit of 1.0 KiB (at least 2.0 KiB)"},
	} {
		_, err := ReadLimited(src, tc.name, "page", tc.limit)
		var ie *docsjson.InputError
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s under %d: %v", tc.name, tc.limit, err)
		case tc.wantErr != "" && (!errors.As(err, &ie) || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s under %d: %v, want an InputError %q", tc.name, tc.limit, err, tc.wantErr)
		}
	}

	b := &Budget{Limits: Limits{MaxFiles: 2, MaxTotalBytes: 100}}
	for i, tc := range []struct {
		size    int64
		wantErr string
	}{{40, ""}, {60, ""}, {1, "more than the limit of 2 files"}} {
		if err := b.Take("f", tc.size); tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("take %d: %v, want %q", i, err, tc.wantErr)
		}
	}
	b = &Budget{Limits: Limits{MaxFiles: 10, MaxTotalBytes: 100}}
	if err := b.Take("f", 101); err == nil || !strings.Contains(err.Error(), "more than the limit of 100 bytes") {
		t.Errorf("101 bytes against 100: %v", err)
	}
	if got := (Limits{}).WithDefaults(); got != DefaultLimits {
		t.Errorf("zero limits take %+v, want the defaults %+v", got, DefaultLimits)
	}
}

// growingFS is a file system whose files hold more than their Stat says,
// as a file written to while it is read does.
type growingFS struct{ fstest.MapFS }

func (g growingFS) Open(name string) (fs.File, error) {
	f, err := g.MapFS.Open(name)
	return shrunkStat{f}, err
}

type shrunkStat struct{ fs.File }

func (s shrunkStat) Stat() (fs.FileInfo, error) {
	fi, err := s.File.Stat()
	return shrunkInfo{fi}, err
}

type shrunkInfo struct{ fs.FileInfo }

func (shrunkInfo) Size() int64 { return 3 }

// A page is read whole into a buffer of its own size (it lives until the
// page renders, so no room to spare), and a file that holds more than its
// size said is still read whole, and refused past the limit.
func TestReadLimited_sizedBuffer(t *testing.T) {
	body := strings.Repeat("words and more words\n", 100)
	m := fstest.MapFS{"p.mdx": {Data: []byte(body)}}
	b, err := ReadLimited(m, "p.mdx", "the page", 1<<20)
	if err != nil || string(b) != body || cap(b) > len(body)+1 {
		t.Fatalf("read %d bytes (cap %d), %v; want %d and no room to spare", len(b), cap(b), err, len(body))
	}
	g := growingFS{m}
	if b, err := ReadLimited(g, "p.mdx", "the page", 1<<20); err != nil || string(b) != body {
		t.Fatalf("a grown file: %d bytes, %v", len(b), err)
	}
	var input *docsjson.InputError
	if _, err := ReadLimited(g, "p.mdx", "the page", 100); !errors.As(err, &input) {
		t.Fatalf("a grown file past the limit: %v", err)
	}
}
