package export

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
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

// playgroundOK waits for the answer to the request the playground sent
// and ends the test unless it is a 200.
func playgroundOK(ctx context.Context, t *testing.T, b *browser) {
	t.Helper()
	if status, failure := playgroundAnswer(ctx, t, b); failure != "" || status != "200" {
		t.Fatalf("playground: status %q, error %q", status, failure)
	}
}

// corsEcho starts an endpoint on 127.0.0.1 for the playground to send to.
// It answers CORS preflights from pages opened from file:// (origin
// "null") allowing methods and headers, turns every other request into a
// record (a failure is a 400), keeps the records for the test and echoes
// each back as JSON.
func corsEcho[T any](t *testing.T, methods, headers string, record func(*http.Request) (T, error)) (*httptest.Server, func() []T) {
	var mu sync.Mutex
	var got []T
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "null")
		if r.Method == http.MethodOptions {
			w.Header().Set("Access-Control-Allow-Methods", methods)
			w.Header().Set("Access-Control-Allow-Headers", headers)
			w.WriteHeader(http.StatusNoContent)
			return
		}
		rec, err := record(r)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		got = append(got, rec)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(rec)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []T { mu.Lock(); defer mu.Unlock(); return append([]T(nil), got...) }
}

// openTryItScript presses the page's "Try it" button and reports whether
// the playground dialog is open with its Send button shown, as a reader
// gets to it.
const openTryItScript = `(function () {
	var d = document.querySelector(".playground"), send = d && d.querySelector(".send");
	if (d && !d.open) { var t = document.querySelector(".try-it"); if (t) t.click(); }
	return !!(d && d.open && send && send.getClientRects().length > 0);
})()`

// openTryIt opens the playground of the page as a reader does, with its
// "Try it" button, and waits until the dialog shows.
func openTryIt(ctx context.Context, b *browser) error {
	return b.waitFor(ctx, openTryItScript)
}
