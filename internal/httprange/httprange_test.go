package httprange

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// serve answers one request for a file of content with header as its
// Range, limited or not, and returns the status, Content-Range and body.
func serve(t *testing.T, content []byte, header string, limit bool) (int, string, []byte) {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, "/bundle.tar.gz", nil)
	r.Header.Set("Range", header)
	if limit {
		Limit(r, int64(len(content)))
	}
	w := httptest.NewRecorder()
	http.ServeContent(w, r, "bundle.tar.gz", time.Time{}, bytes.NewReader(content))
	body, _ := io.ReadAll(w.Result().Body)
	return w.Code, w.Header().Get("Content-Range"), body
}

func manyRanges(n, stride int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf("%d-%d", i*stride, i*stride)
	}
	return "bytes=" + strings.Join(parts, ",")
}

// A thousand one-byte ranges: without the limit the answer is several
// times the file; with it, never more than the file and MaxRanges part
// headers.
func TestLimit_manyRangesNeverAmplify(t *testing.T) {
	content := bytes.Repeat([]byte("0123456789abcdef"), 2048) // 32 KiB
	bound := len(content) + MaxRanges*200
	for _, tc := range []struct {
		name, header string
		wantStatus   int
	}{
		{"1000 ranges far apart", manyRanges(1000, 200), http.StatusOK},
		{"1000 ranges close together", manyRanges(1000, 20), http.StatusPartialContent},
		{"the same byte 1000 times", "bytes=" + strings.TrimSuffix(strings.Repeat("0-0,", 1000), ","), http.StatusPartialContent},
		{"17 ranges far apart", manyRanges(17, 1000), http.StatusOK},
		{"16 ranges far apart", manyRanges(16, 1000), http.StatusPartialContent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, raw := serve(t, content, tc.header, false)
			status, _, body := serve(t, content, tc.header, true)
			if status != tc.wantStatus || len(body) > bound {
				t.Fatalf("%d, %d bytes for a %d-byte file (bound %d; %d bytes unlimited)", status, len(body), len(content), bound, len(raw))
			}
		})
	}
}

// Overlapping and adjacent ranges come back as one part; a single range,
// an unsatisfiable one and a malformed header are answered as before.
func TestLimit_coalescesAndKeepsSingleRanges(t *testing.T) {
	content := bytes.Repeat([]byte("x"), 1000)
	for _, tc := range []struct {
		header, wantRange string
		wantStatus        int
	}{
		{"bytes=0-99,50-149", "bytes 0-149/1000", http.StatusPartialContent},
		{"bytes=900-,-50,0-9", "", http.StatusPartialContent}, // two parts: 0-9 and 900-999
		{"bytes=10-19", "bytes 10-19/1000", http.StatusPartialContent},
		{"bytes=5000-6000,7000-8000", "bytes */1000", http.StatusRequestedRangeNotSatisfiable},
		{"bytes=a-b,c-d", "", http.StatusRequestedRangeNotSatisfiable},
	} {
		status, cr, _ := serve(t, content, tc.header, true)
		if status != tc.wantStatus || cr != tc.wantRange {
			t.Errorf("%s: %d %q, want %d %q", tc.header, status, cr, tc.wantStatus, tc.wantRange)
		}
	}
}

// FuzzLimit: whatever the Range header, the answer for a limited request
// is a 200, 206 or 416 and never much more than the file. The seeds are
// the hostile headers of issue 39.
func FuzzLimit(f *testing.F) {
	f.Add(manyRanges(1000, 1))
	f.Add(manyRanges(1000, 7))
	f.Add("bytes=" + strings.TrimSuffix(strings.Repeat("0-,", 500), ","))
	f.Add("bytes=-1,-2,-3,0-0,1-1,5000-,3-2")
	f.Add("bytes=0-99,50-149, 10-,-5")
	content := bytes.Repeat([]byte("0123456789abcdef"), 256) // 4 KiB
	f.Fuzz(func(t *testing.T, header string) {
		status, _, body := serve(t, content, header, true)
		switch status {
		case http.StatusOK, http.StatusPartialContent, http.StatusRequestedRangeNotSatisfiable:
		default:
			t.Fatalf("status %d for %q", status, header)
		}
		if bound := len(content) + MaxRanges*200; len(body) > bound {
			t.Fatalf("%d bytes for %q, bound %d", len(body), header, bound)
		}
	})
}
