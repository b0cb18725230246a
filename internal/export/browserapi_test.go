package export

import (
	"context"
	"os"
	"os/exec"
	"testing"
)

// This file lends the CDP client to the package's external tests, which
// may import the reference server (it imports this package).

// TestBrowser drives a headless Chromium.
type TestBrowser struct{ b *browser }

// StartTestBrowser starts Chromium for t, skipping (or, under CI, failing)
// when it is not installed.
func StartTestBrowser(t *testing.T) *TestBrowser {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is not installed and CI is set: the browser tests must run in CI")
		}
		t.Skip("chromium is not installed (Debian: apt-get install chromium); skipping the browser test")
	}
	return &TestBrowser{startBrowser(t, bin)}
}

// Navigate opens url in the page.
func (tb *TestBrowser) Navigate(url string) error {
	return tb.b.call("Page.navigate", map[string]any{"url": url}, nil)
}

// Eval evaluates a script expression and decodes its value into into.
func (tb *TestBrowser) Eval(expr string, into any) error { return tb.b.eval(expr, into) }

// WaitFor polls a boolean expression until it holds or ctx ends.
func (tb *TestBrowser) WaitFor(ctx context.Context, expr string) error {
	return tb.b.waitFor(ctx, expr)
}

// OpenTryIt presses the page's "Try it" button and waits until the
// playground dialog shows.
func (tb *TestBrowser) OpenTryIt(ctx context.Context) error { return openTryIt(ctx, tb.b) }
