package export

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/source"
)

// secretMarker stands for the bytes of the server's signing key and
// config: none of it may reach a bundle.
const secretMarker = "SIGNING-KEY-7f3a9c-DO-NOT-LEAK" //nolint:gosec // a marker, not a credential

// hostileSource builds, on disk, a docs source whose links point out of
// it at a secret directory next to it, plus links that stay inside.
func hostileSource(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	secret := filepath.Join(base, "secret")
	src := filepath.Join(base, "docs")
	write := func(p, s string) {
		t.Helper()
		p = filepath.Join(base, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(base, filepath.FromSlash(p))); err != nil {
			t.Fatal(err)
		}
	}
	write("secret/signing.key", secretMarker)
	write("secret/config.yaml", "key: "+secretMarker)
	write("secret/page.mdx", "# Leaked\n\n"+secretMarker)
	write("docs/docs.json", `{"name": "Hostile", "logo": "/logo.svg", "favicon": "/favicon.svg",
		"navigation": {"groups": [{"group": "G", "pages": ["index", "alias", "leakpage", "linked/page"]}]}}`)
	write("docs/index.mdx", "---\ntitle: Home\n---\nimport Leak from '/snippets/leak.mdx';\nimport Ok from '/snippets/ok.mdx';\n\n"+
		"![key](leak.png) ![dir](linked/signing.key) ![abs](abs.png) ![fine](alias.png)\n\n<Leak />\n\n<Ok />\n\n[file](linked/config.yaml)\n")
	write("docs/real.mdx", "# Real\n\nIn-root page body.")
	write("docs/images/pic.png", "PNG-IN-ROOT")
	write("docs/snippets/real-ok.mdx", "Snippet reached through an in-root link.")
	link("../secret/signing.key", "docs/leak.png")
	link(secret+"/signing.key", "docs/abs.png")
	link("../secret", "docs/linked")
	link("../secret/page.mdx", "docs/leakpage.mdx")
	link("../../secret/config.yaml", "docs/snippets/leak.mdx")
	link("../secret/signing.key", "docs/logo.svg")
	link("../secret/signing.key", "docs/favicon.svg")
	link("images/pic.png", "docs/alias.png")
	link("real.mdx", "docs/alias.mdx")
	link("real-ok.mdx", "docs/snippets/ok.mdx")
	return src
}

// TestExport_confinedToSource exports a source full of links out of it,
// as a Dir (os.Root) and as an os.DirFS (the link guard), and checks that
// no byte of the secret reaches the bundle while in-root links work.
func TestExport_confinedToSource(t *testing.T) {
	src := hostileSource(t)
	for name, fsys := range map[string]fs.FS{"Dir": Dir(src), "DirFS": os.DirFS(src)} {
		t.Run(name, func(t *testing.T) {
			var mu sync.Mutex
			var warns []string
			dir, m := exportTo(t, Request{Source: fsys, Kind: KindAirGapped, Warn: func(wrn Warning) {
				s := wrn.Message
				mu.Lock()
				warns = append(warns, s)
				mu.Unlock()
			}})
			err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				b, err := os.ReadFile(p)
				if strings.Contains(string(b), secretMarker) || strings.Contains(string(b), "Leaked") {
					t.Errorf("%s holds bytes of the secret outside the source", p)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range m.Files {
				if f.Path == "leakpage.html" || f.Path == "logo.svg" || f.Path == "leak.png" {
					t.Errorf("bundle has %s, a link out of the source", f.Path)
				}
			}
			if got := readOut(t, dir, "alias.html"); !strings.Contains(got, "In-root page body.") {
				t.Error("an in-root page link does not render its target")
			}
			index := readOut(t, dir, "index.html")
			if got := readOut(t, dir, "alias.png"); got != "PNG-IN-ROOT" {
				t.Errorf("alias.png = %q, want the in-root target's bytes", got)
			}
			if !strings.Contains(index, "Snippet reached through an in-root link.") {
				t.Error("an in-root snippet link is not inlined")
			}
			all := strings.Join(warns, "\n")
			for _, want := range []string{"leakpage.mdx: a link out of the docs source; refused",
				`"leak.png" is a link out of the docs source`, `"linked/signing.key" is a link out of the docs source`,
				`"abs.png" is a link out of the docs source`, "snippets/leak.mdx: snippet is a link out of the docs source",
				`the logo "/logo.svg" is not a file of the source`} {
				if !strings.Contains(all, want) {
					t.Errorf("warnings lack %q; got:\n%s", want, all)
				}
			}
		})
	}
}

// TestConfine_rootMessage pins the message os.Root gives for a path out of
// the root, which isOutside recognises: os does not export the error.
func TestConfine_rootMessage(t *testing.T) {
	src := hostileSource(t)
	_, err := fs.ReadFile(Dir(src), "leak.png")
	if !docsjson.IsOutside(err) {
		t.Fatalf("reading a link out of a Dir: err = %v, want one isOutside recognises", err)
	}
	_, err = fs.ReadFile(Dir(src), "linked/config.yaml")
	if !docsjson.IsOutside(err) {
		t.Fatalf("reading through a linked folder out of a Dir: err = %v, want one isOutside recognises", err)
	}
	if _, err := fs.ReadFile(Dir(src), "alias.png"); err != nil {
		t.Fatalf("in-root link: %v", err)
	}
}

// TestLinkGuard_loops refuses a link loop instead of following it forever.
func TestLinkGuard_loops(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("b", filepath.Join(dir, "a")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a", filepath.Join(dir, "b")); err != nil {
		t.Fatal(err)
	}
	g, closeFn, err := source.Confine(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	if _, err := fs.ReadFile(g, "a"); err == nil || !strings.Contains(err.Error(), "too many levels") {
		t.Fatalf("read a link loop: err = %v, want too many levels of links", err)
	}
}

// TestExport_docsJSONOutsideRefused fails the export when docs.json itself
// is a link out of the source: nothing can render without it.
func TestExport_docsJSONOutsideRefused(t *testing.T) {
	src := hostileSource(t)
	if err := os.Remove(filepath.Join(src, "docs.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../secret/config.yaml", filepath.Join(src, "docs.json")); err != nil {
		t.Fatal(err)
	}
	_, err := New(Options{}).Export(context.Background(), Request{Source: Dir(src), Domain: "d.example.com"}, t.TempDir(), nil)
	var ie *docsjson.InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "link out of the docs source") || strings.Contains(err.Error(), secretMarker) {
		t.Fatalf("export = %v, want an input error refusing docs.json", err)
	}
}
