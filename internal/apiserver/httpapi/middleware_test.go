package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// serveError answers as the server does, minus its logging: the status an
// *Error carries, else a 500.
func serveError(w http.ResponseWriter, _ *http.Request, err error) {
	var he *Error
	if !errors.As(err, &he) {
		he = &Error{Status: http.StatusInternalServerError, Msg: "internal server error"}
	}
	WriteJSON(w, he.Status, api.Error{Error: he.Msg})
}

// errorBody decodes a JSON error answer, failing the test on anything else.
func errorBody(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	var e api.Error
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q, body %q: want a JSON error", ct, rec.Body)
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
		t.Fatalf("body %q: %v", rec.Body, err)
	}
	return e.Error
}

// A panicking handler answers a JSON 500 and is logged; one that panics
// after writing its status keeps that status (no second answer); and
// http.ErrAbortHandler still reaches net/http, which aborts the response.
func TestLogAndRecover_panics(t *testing.T) {
	var logs bytes.Buffer
	log := hclog.New(&hclog.LoggerOptions{Output: &logs, Level: hclog.Debug})
	serve := func(h http.HandlerFunc) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		LogAndRecover(log, serveError, h).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/x?sig=secret", nil))
		return rec
	}

	rec := serve(func(http.ResponseWriter, *http.Request) { panic("boom") })
	if rec.Code != http.StatusInternalServerError || errorBody(t, rec) != "internal server error" {
		t.Fatalf("panic answered %d %q, want a JSON 500", rec.Code, rec.Body)
	}
	if rec.Header().Get("X-Content-Type-Options") != "nosniff" {
		t.Error("no X-Content-Type-Options: nosniff")
	}
	if out := logs.String(); !strings.Contains(out, "handler panicked") || !strings.Contains(out, "boom") ||
		!strings.Contains(out, "status=500") || strings.Contains(out, "secret") {
		t.Errorf("log %q: want the panic and the request's 500 logged, never the query", out)
	}

	rec = serve(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusAccepted)
		panic("late")
	})
	if rec.Code != http.StatusAccepted || rec.Body.Len() != 0 {
		t.Fatalf("late panic answered %d %q, want the 202 already sent and nothing more", rec.Code, rec.Body)
	}

	defer func() {
		p := recover()
		if err, _ := p.(error); !errors.Is(err, http.ErrAbortHandler) {
			t.Fatalf("recovered %v, want http.ErrAbortHandler passed on", p)
		}
	}()
	serve(func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) })
	t.Fatal("http.ErrAbortHandler was swallowed")
}

// LimitBody: bodies are JSON and at most api.MaxRequestBodyBytes; an
// empty chunked body is no body at all.
func TestLimitBody(t *testing.T) {
	var got []byte
	h := LimitBody(serveError, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var err error
		if got, err = io.ReadAll(r.Body); err != nil {
			serveError(w, r, Errorf(http.StatusRequestEntityTooLarge, "read: %v", err))
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	big := strings.Repeat(" ", api.MaxRequestBodyBytes) + "{}"
	for _, tc := range []struct {
		name, ct, body string
		length         int64 // -1: chunked, as a body of unknown length arrives
		status         int
		want           string
	}{
		{name: "json", ct: "application/json; charset=utf-8", body: `{"a":1}`, length: 7, status: http.StatusNoContent},
		{name: "noBody", length: 0, status: http.StatusNoContent},
		{name: "emptyChunked", length: -1, status: http.StatusNoContent},
		{name: "chunkedText", ct: "text/plain", body: "hi", length: -1, status: http.StatusUnsupportedMediaType, want: `content type "text/plain" is not supported`},
		{name: "noContentType", body: "{}", length: 2, status: http.StatusUnsupportedMediaType, want: "send application/json"},
		{name: "announcedTooLarge", ct: "application/json", body: "{}", length: api.MaxRequestBodyBytes + 1, status: http.StatusRequestEntityTooLarge, want: "exceeds"},
		{name: "chunkedTooLarge", ct: "application/json", body: big, length: -1, status: http.StatusRequestEntityTooLarge, want: "read:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got = nil
			r := httptest.NewRequest(http.MethodPost, "/v1/x", strings.NewReader(tc.body))
			r.ContentLength = tc.length
			if tc.ct != "" {
				r.Header.Set("Content-Type", tc.ct)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			if rec.Code != tc.status {
				t.Fatalf("status %d %q, want %d", rec.Code, rec.Body, tc.status)
			}
			if tc.want != "" && !strings.Contains(errorBody(t, rec), tc.want) {
				t.Fatalf("error %q does not say %q", rec.Body, tc.want)
			}
			if tc.status == http.StatusNoContent && string(got) != tc.body {
				t.Fatalf("handler read %q, want %q", got, tc.body)
			}
		})
	}
}
