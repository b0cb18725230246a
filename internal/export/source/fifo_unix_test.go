//go:build unix

package source

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestDir_refusesNamedPipes: a named pipe in a source (a page, an image)
// would hold an open until a writer came; it is refused at once, through
// a Dir and through the root an export holds, while its neighbours read
// as usual.
func TestDir_refusesNamedPipes(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.mdx"), []byte("# Home\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "stuck.mdx"), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	confined, done, err := Confine(Dir(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	for name, fsys := range map[string]fs.FS{"Dir": Dir(dir), "confined": confined} {
		start := time.Now()
		_, err := fs.ReadFile(fsys, "stuck.mdx")
		if !errors.Is(err, errNotRegular) {
			t.Errorf("%s: reading a named pipe: %v", name, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: reading a named pipe took %v", name, d)
		}
		if b, err := fs.ReadFile(fsys, "index.mdx"); err != nil || string(b) != "# Home\n" {
			t.Errorf("%s: index.mdx: %q %v", name, b, err)
		}
		if _, err := ReadLimited(fsys, "stuck.mdx", "page", 1<<20); err == nil {
			t.Errorf("%s: ReadLimited read a named pipe", name)
		}
	}
}
