package export

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// writeSource writes a docs source (file name to content) into a fresh
// directory and returns it.
func writeSource(t *testing.T, files map[string]string) string {
	t.Helper()
	src := t.TempDir()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(src, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return src
}

// playgroundAnswer waits until the open page's playground shows the
// answer to a request it sent (a status, or an error) and returns both.
func playgroundAnswer(ctx context.Context, t *testing.T, b *browser) (status, failure string) {
	t.Helper()
	if err := b.waitFor(ctx, `!!(document.querySelector(".playground .pg-status") || document.querySelector(".playground .pg-error"))`); err != nil {
		t.Fatal(err)
	}
	if err := b.eval(`(document.querySelector(".playground .pg-error") || {}).textContent || ""`, &failure); err != nil {
		t.Fatal(err)
	}
	if err := b.eval(`(document.querySelector(".playground .pg-status") || {}).textContent || ""`, &status); err != nil {
		t.Fatal(err)
	}
	return status, failure
}
