package apiserver

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// maxStatusBodies bounds statusBodies: past it the memo starts over.
const maxStatusBodies = 4096

// statusBodies keeps the JSON of each job's last status answer, so a job
// polled by many clients is encoded once per change: encoding and the
// header values were a fifth of a status read's server time. An entry is
// used only for a view equal to the one it was encoded from, so the bytes
// sent are always what writeJSON would have sent. The zero value is ready.
type statusBodies struct {
	m sync.Map // job id → *statusBody, never changed once stored
	n atomic.Int64
}

type statusBody struct {
	view   api.ExportJob
	body   []byte
	length []string // the Content-Length header's value
}

// Header values shared by every status answer; net/http only reads them.
var (
	jsonContentType = []string{"application/json"}
	noStore         = []string{"no-store"}
)

// write sends v as a 200, with the headers and bytes writeJSON would.
func (c *statusBodies) write(w http.ResponseWriter, v api.ExportJob) {
	e, ok := c.load(v.JobID)
	if !ok || !sameView(&e.view, &v) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			writeJSON(w, http.StatusOK, v) // answers the failure as writeJSON does
			return
		}
		e = &statusBody{view: cloneView(v), body: buf.Bytes(), length: []string{strconv.Itoa(buf.Len())}}
		c.keep(v.JobID, e)
	}
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Content-Length"] = e.length
	h["Cache-Control"] = noStore
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(e.body)
}

func (c *statusBodies) load(id string) (*statusBody, bool) {
	v, ok := c.m.Load(id)
	if !ok {
		return nil, false
	}
	return v.(*statusBody), true
}

func (c *statusBodies) keep(id string, e *statusBody) {
	if c.n.Load() >= maxStatusBodies {
		c.m.Clear()
		c.n.Store(0)
	}
	if _, loaded := c.m.Swap(id, e); !loaded {
		c.n.Add(1)
	}
}

// sameView reports whether a and b encode to the same JSON. Times are
// compared whole (instant and location, as UTC() leaves them), so equal
// means an identical encoding; a false "different" only costs an encode.
// TestSameView_everyField keeps it in step with api.ExportJob.
func sameView(a, b *api.ExportJob) bool {
	if a.JobID != b.JobID || a.Status != b.Status || a.Progress != b.Progress || a.PageCount != b.PageCount ||
		a.CreatedAt != b.CreatedAt || a.UpdatedAt != b.UpdatedAt || a.Error != b.Error || a.Version != b.Version {
		return false
	}
	wa, wb := a.Warnings, b.Warnings
	if wa == nil || wb == nil {
		return wa == wb
	}
	// nil and empty messages encode differently (null and []).
	return wa.Count == wb.Count && (wa.Messages == nil) == (wb.Messages == nil) && slices.Equal(wa.Messages, wb.Messages) &&
		maps.Equal(wa.ByKind, wb.ByKind)
}

// cloneView copies v so that the memo shares nothing with a request.
func cloneView(v api.ExportJob) api.ExportJob {
	if v.Warnings != nil {
		w := *v.Warnings
		w.Messages = slices.Clone(v.Warnings.Messages)
		w.ByKind = maps.Clone(v.Warnings.ByKind)
		v.Warnings = &w
	}
	return v
}
