package control

import (
	"bytes"
	"net/http"
	"strconv"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/httpapi"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
)

// Faults that reshape an answer let a suite test what its client does
// with a body it cannot decode, a connection that breaks mid-body, an
// answer with no body, and a body that trickles in. The answer (the
// fault's own, or the real one) is served into a buffer first, then sent
// as the fault says.

// malformedMark ends a malformed body: no JSON reader takes "<" outside
// a string, and a string cut open never ends.
const malformedMark = "<malformed>"

// bufferedAnswer keeps an answer's status, headers and body.
type bufferedAnswer struct {
	*httpapi.DiscardWriter
	body bytes.Buffer
}

func (b *bufferedAnswer) Write(p []byte) (int, error) {
	_, _ = b.DiscardWriter.Write(p) // the implicit 200
	return b.body.Write(p)
}

// reshape serves answer into a buffer and sends it on to w malformed,
// truncated, empty and/or at f.BytesPerSecond.
func reshape(f *fault, w http.ResponseWriter, r *http.Request, answer http.Handler) {
	buf := &bufferedAnswer{DiscardWriter: httpapi.NewDiscardWriter()}
	answer.ServeHTTP(buf, r)
	status := buf.Status()
	if status == 0 {
		status = http.StatusOK
	}
	body := buf.body.Bytes()
	announced := len(body)
	switch f.Response {
	case api.FaultMalformed:
		body = append(body[:len(body)/2:len(body)/2], malformedMark...)
		announced = len(body)
	case api.FaultEmpty:
		body, announced = nil, 0
	case api.FaultTruncated:
		body = body[:len(body)/2]
	}
	h := w.Header()
	for k, v := range buf.Header() {
		h[k] = v
	}
	h.Set("Content-Length", strconv.Itoa(announced))
	w.WriteHeader(status)
	if !writeAt(w, r, body, f.BytesPerSecond) {
		return // the client went away
	}
	if f.Response == api.FaultTruncated {
		// What was written goes out before the connection closes, short
		// of the length the header announced.
		_ = http.NewResponseController(w).Flush()
		httpapi.NoteFrom(r.Context()).Abort()
		panic(http.ErrAbortHandler)
	}
}

// writeAt writes body to w, all at once or, with a rate, a tenth of a
// second's worth at a time; false when the client is gone.
func writeAt(w http.ResponseWriter, r *http.Request, body []byte, perSecond int) bool {
	if perSecond == 0 {
		_, err := w.Write(body)
		return err == nil
	}
	rc := http.NewResponseController(w)
	chunk := max(1, perSecond/10)
	pause := time.Duration(chunk) * time.Second / time.Duration(perSecond)
	for len(body) > 0 {
		n := min(chunk, len(body))
		if _, err := w.Write(body[:n]); err != nil {
			return false
		}
		if err := rc.Flush(); err != nil {
			return false
		}
		body = body[n:]
		if len(body) > 0 && clock.Sleep(r.Context(), pause) != nil {
			return false
		}
	}
	return true
}
