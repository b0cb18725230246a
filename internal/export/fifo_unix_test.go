//go:build unix

package export

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestExport_namedPipesDoNotHold: a source whose docs.json, a page of its
// navigation, a snippet or an image is a named pipe ends at once: nothing
// waits for a writer that never comes.
func TestExport_namedPipesDoNotHold(t *testing.T) {
	for _, pipe := range []string{"docs.json", "stuck.mdx", "snippets/s.mdx", "pipe.png"} {
		t.Run(pipe, func(t *testing.T) { exportWithPipe(t, pipe) })
	}
}

func exportWithPipe(t *testing.T, pipe string) {
	dir := t.TempDir()
	files := map[string]string{
		"docs.json":      `{"name": "Pipes", "navigation": {"pages": ["index", "stuck"]}}`,
		"index.mdx":      "import S from '/snippets/s.mdx'\n\n# Home\n\n<S />\n\n![a pipe](pipe.png)\n",
		"stuck.mdx":      "# Stuck\n",
		"snippets/s.mdx": "A snippet.\n",
		"pipe.png":       "png",
	}
	for name, body := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if name == pipe {
			if err := syscall.Mkfifo(filepath.Join(dir, name), 0o644); err != nil {
				t.Skipf("no named pipes here: %v", err)
			}
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := New(Options{})
	defer e.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	_, err := e.Export(ctx, Request{Source: Dir(dir), Domain: "docs.example.com", Kind: KindCloud}, t.TempDir(), nil)
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("the export took %v", d)
	}
	if ctx.Err() != nil {
		t.Fatal("the export waited on a named pipe until its time ran out")
	}
	var ie *InputError
	switch {
	case pipe == "docs.json" && (!errors.As(err, &ie) || !strings.Contains(err.Error(), "docs.json: not a regular file")):
		t.Errorf("a docs.json that is a named pipe: %v, want an input error naming it", err)
	case pipe != "docs.json" && err != nil:
		t.Errorf("export: %v", err)
	}
}
