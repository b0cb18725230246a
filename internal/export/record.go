package export

import (
	"bytes"
	"cmp"
	"compress/flate"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/frame"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/machines"
)

// renderRecord is what an export keeps beside its archive (the bundle's
// sidecar, never inside the archive) for a later export of the same
// deployment to reuse its pages: each reusable page's input key and
// trace, the archive's file list, and the files read through parts
// shared by every page, which the keys hold.
type renderRecord struct {
	Format int
	// Files are the archive's manifest entries: which of a later
	// archive's groups are copied from this one (bundle.CopiedGroups).
	Files []bundle.File
	// Keys are the reusable pages' input keys, Pages their traces
	// (encodeTrace), by page key. A trace is encoded on its own, by the
	// worker that rendered the page, and a reused page's is kept as it
	// was: an export encodes only the pages it rendered.
	Keys  map[string]string
	Pages map[string][]byte
	// Shared are the files read for every page alike (the components'),
	// Specs the files the specs' loader read, with their content hashes.
	Shared, Specs map[string]string
}

// recordFormat changes whenever renderRecord or pageTrace does; a record
// of another format is not read.
const recordFormat = 4

// maxTraceBytes bounds a page's trace as decompressed: a larger one is
// not read (the page is then rendered).
const maxTraceBytes = 64 << 20

// encodeRecord is r as a bundle sidecar.
func encodeRecord(r *renderRecord) ([]byte, error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(r); err != nil {
		return nil, fmt.Errorf("encode render record: %w", err)
	}
	return buf.Bytes(), nil
}

// decodeRecord reads a sidecar encodeRecord made.
func decodeRecord(data []byte) (*renderRecord, error) {
	var r renderRecord
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&r); err != nil {
		return nil, fmt.Errorf("render record: %w", err)
	}
	if r.Format != recordFormat {
		return nil, errors.New("render record: another format")
	}
	return &r, nil
}

// Compressors of traces, kept between pages: a new one is a few hundred
// KB to clear.
var (
	traceWriters = sync.Pool{New: func() any {
		w, _ := flate.NewWriter(nil, flate.BestSpeed) // a valid level never fails
		return w
	}}
	traceReaders = sync.Pool{New: func() any { return flate.NewReader(bytes.NewReader(nil)) }}
)

// encodeTrace is a page's trace as a record keeps it: traceCodec's
// encoding, deflated. (gob was a third of a re-export's time: each
// page's encoding carried its types, compiled again to decode it.)
func encodeTrace(t *pageTrace) ([]byte, error) {
	var buf bytes.Buffer
	z := traceWriters.Get().(*flate.Writer)
	defer traceWriters.Put(z)
	z.Reset(&buf)
	if _, err := z.Write(appendTrace(nil, t)); err != nil {
		return nil, err
	}
	if err := z.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// decodeTrace reads a trace encodeTrace made; the trace keeps data as
// its encoding.
func decodeTrace(data []byte) (*pageTrace, error) {
	z := traceReaders.Get().(io.ReadCloser)
	defer traceReaders.Put(z)
	if err := z.(flate.Resetter).Reset(bytes.NewReader(data), nil); err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(io.LimitReader(z, maxTraceBytes+1))
	if err != nil || len(raw) > maxTraceBytes {
		return nil, fmt.Errorf("render record: a trace does not decompress (%d bytes or more): %w", len(raw), err)
	}
	t, err := readTrace(raw)
	if err != nil {
		return nil, err
	}
	t.raw = data
	return t, nil
}

// appendTrace appends t's encoding to b: each field in order, strings
// and lists prefixed with their lengths as uvarints.
func appendTrace(b []byte, t *pageTrace) []byte {
	w := traceWriter{b}
	w.str(t.HTML.Path)
	w.int(t.HTML.Size)
	w.str(t.HTML.SHA256)
	w.str(t.MD)
	w.str(t.Feed)
	w.num(uint64(len(t.Warnings)))
	for _, x := range t.Warnings {
		w.str(x.Kind)
		w.str(x.Message)
	}
	w.strs(t.Classes)
	w.flag(t.Search != nil)
	if c := t.Search; c != nil {
		w.str(string(c.Meta))
		w.str(string(c.Doc))
		w.strs(c.Words)
		w.strs(c.Terms)
		w.num(uint64(len(c.Places)))
		for _, p := range c.Places {
			w.int(int64(p))
		}
	}
	w.flag(t.Diagram)
	w.flag(t.Math)
	w.flag(t.Card)
	w.num(uint64(len(t.Links)))
	for _, l := range t.Links {
		w.str(l.Asset)
		w.str(l.Broken)
	}
	w.num(uint64(len(t.Icons)))
	for _, u := range t.Icons {
		w.str(u.Ref.Name)
		w.str(u.Ref.Type)
		w.str(u.Ref.Library)
		w.str(u.In)
	}
	w.flag(t.Components)
	files := sortedKeys(t.Snippets)
	w.num(uint64(len(files)))
	for _, f := range files {
		w.str(f)
		w.str(t.Snippets[f])
	}
	return w.b
}

// readTrace decodes what appendTrace encoded.
func readTrace(b []byte) (*pageTrace, error) {
	r := traceReader{b: b}
	t := &pageTrace{}
	t.HTML.Path = r.str()
	t.HTML.Size = r.int()
	t.HTML.SHA256 = r.str()
	t.MD = r.str()
	t.Feed = r.str()
	for range r.count() {
		t.Warnings = append(t.Warnings, Warning{Kind: r.str(), Message: r.str()})
	}
	t.Classes = r.strs()
	if r.flag() {
		c := &machines.CutPage{Meta: []byte(r.str()), Doc: []byte(r.str()), Words: r.strs(), Terms: r.strs()}
		for range r.count() {
			c.Places = append(c.Places, r.place())
		}
		t.Search = c
	}
	t.Diagram, t.Math, t.Card = r.flag(), r.flag(), r.flag()
	for range r.count() {
		t.Links = append(t.Links, linkRef{Asset: r.str(), Broken: r.str()})
	}
	for range r.count() {
		var u frame.IconUse
		u.Ref.Name, u.Ref.Type, u.Ref.Library, u.In = r.str(), r.str(), r.str(), r.str()
		t.Icons = append(t.Icons, u)
	}
	t.Components = r.flag()
	if n := r.count(); n > 0 {
		t.Snippets = make(map[string]string, n)
		for range n {
			f := r.str()
			t.Snippets[f] = r.str()
		}
	}
	if r.err == nil && len(r.b) > 0 {
		r.err = errors.New("trailing bytes")
	}
	if r.err != nil {
		return nil, fmt.Errorf("render record: a trace does not decode: %w", r.err)
	}
	return t, nil
}

type traceWriter struct{ b []byte }

func (w *traceWriter) num(n uint64) { w.b = binary.AppendUvarint(w.b, n) }

func (w *traceWriter) int(n int64) { w.b = binary.AppendVarint(w.b, n) }

func (w *traceWriter) str(s string) {
	w.num(uint64(len(s)))
	w.b = append(w.b, s...)
}

func (w *traceWriter) strs(ss []string) {
	w.num(uint64(len(ss)))
	for _, s := range ss {
		w.str(s)
	}
}

func (w *traceWriter) flag(v bool) {
	if v {
		w.b = append(w.b, 1)
	} else {
		w.b = append(w.b, 0)
	}
}

// traceReader reads what traceWriter wrote; past an error every read
// returns zero values, and err says what went wrong.
type traceReader struct {
	b   []byte
	err error
}

func (r *traceReader) num() uint64 {
	if r.err != nil {
		return 0
	}
	n, k := binary.Uvarint(r.b)
	if k <= 0 {
		r.err = errors.New("bad number")
		return 0
	}
	r.b = r.b[k:]
	return n
}

// count is a length: never more than the bytes left could hold.
func (r *traceReader) count() int {
	n := r.num()
	if n > uint64(len(r.b)) {
		r.err = errors.New("bad length")
		return 0
	}
	return len(r.b[:n])
}

func (r *traceReader) int() int64 {
	if r.err != nil {
		return 0
	}
	n, k := binary.Varint(r.b)
	if k <= 0 {
		r.err = errors.New("bad number")
		return 0
	}
	r.b = r.b[k:]
	return n
}

// place is a search posting's place, which the index holds in 32 bits.
func (r *traceReader) place() int {
	n := r.int()
	if n < 0 || n > math.MaxInt32 {
		r.err = cmp.Or(r.err, errors.New("bad place"))
		return 0
	}
	return int(n)
}

func (r *traceReader) str() string {
	n := r.count()
	if r.err != nil {
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func (r *traceReader) strs() []string {
	n := r.count()
	if n == 0 {
		return nil
	}
	out := make([]string, 0, n)
	for range n {
		out = append(out, r.str())
	}
	return out
}

func (r *traceReader) flag() bool {
	if r.err != nil || len(r.b) == 0 {
		r.err = cmp.Or(r.err, errors.New("short"))
		return false
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v == 1
}

// Sidecarer is an Output that keeps what an export records for a later
// export of the same site beside the bundle (bundle.Spool): the export
// hands it the record with SetSidecar, after the manifest.
type Sidecarer interface {
	SetSidecar(data []byte)
}

// carrier is an Output that can take a file from the earlier archive
// without its content (bundle.Spool.Carry); an export reuses pages only
// into one.
type carrier interface {
	Carry(f bundle.File) error
}
