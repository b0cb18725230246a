package bundle

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
)

// Spool holds a bundle being made in one local file instead of a
// directory tree: every file written is appended to it, and the archive
// is made by reading the files back in manifest order. It is for a bundle
// whose only use is its archive (the server's exports, whichever store
// keeps the archive): one file created and removed per export instead of
// one per page.
// On a file system that must not reuse a freed inode for a while (ext4
// without a journal scans past every inode freed in the last half minute
// on each new one), rendering into a tree that is removed after each
// upload made every file's creation cost a millisecond of kernel time,
// most of a small export's CPU.
//
// The file is unlinked as soon as it is made, so a crash leaves nothing
// behind and Close frees the space. Its methods may be called from many
// goroutines at once: writers reserve their own region of the file and
// write it without holding a lock.
type Spool struct {
	f   *os.File
	end atomic.Int64 // where the next reserved region begins

	mu       sync.Mutex
	files    map[string][]extent // path → its bytes, in order
	creating map[string]bool     // paths opened by Create and not yet closed
	manifest []byte              // set by WriteManifest
	closed   bool
	// prev opens an earlier archive of the same site to copy unchanged
	// entries from (ReuseArchive), nil without one.
	prev   func() (io.ReadCloser, error)
	copied atomic.Int64 // entries the last WriteArchive copied
	// carried are the files whose content is the earlier archive's
	// (Carry), by path, with their sizes.
	carried map[string]int64
	sidecar []byte // SetSidecar
}

// extent is a run of a file's bytes in the spool.
type extent struct{ off, n int64 }

// spoolChunk is how much of a streamed file a writer buffers before it
// reserves a region and writes it: large enough that an asset of a few
// megabytes is a handful of writes, small enough that many streams at
// once hold little memory.
const spoolChunk = 256 << 10

// spoolChunks keeps writers' chunk buffers between files. Most files of a
// site are far smaller than a chunk, and a chunk made for each (a large
// object, zeroed as it is allocated) was a fifth of the bytes a demo-site
// export allocated.
var spoolChunks = sync.Pool{New: func() any {
	b := make([]byte, 0, spoolChunk)
	return &b
}}

// NewSpool makes an empty spool in dir (which must exist).
func NewSpool(dir string) (*Spool, error) {
	f, err := os.CreateTemp(dir, "spool-*")
	if err != nil {
		return nil, fmt.Errorf("spool: %w", err)
	}
	// Nothing reopens it by name: the open descriptor is the spool.
	if err := os.Remove(f.Name()); err != nil {
		_ = f.Close()
		_ = os.Remove(f.Name())
		return nil, fmt.Errorf("spool: %w", err)
	}
	return &Spool{f: f, files: map[string][]extent{}, creating: map[string]bool{}}, nil
}

// Close releases the spool and the disk space it holds.
func (s *Spool) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	return s.f.Close()
}

// Size is the bytes the spool's file holds, the files of the bundle
// together.
func (s *Spool) Size() int64 { return s.end.Load() }

// writeRegion writes p to a region of the spool reserved for it alone.
func (s *Spool) writeRegion(p []byte) (extent, error) {
	n := int64(len(p))
	off := s.end.Add(n) - n
	if _, err := s.f.WriteAt(p, off); err != nil {
		return extent{}, fmt.Errorf("spool: %w", err)
	}
	return extent{off, n}, nil
}

// WriteFile stores one whole file under rel, replacing what was stored
// there, as os.WriteFile would.
func (s *Spool) WriteFile(rel string, data []byte) error {
	if !safeName(rel) {
		return fmt.Errorf("spool: unsafe path %q", rel)
	}
	var ext []extent
	if len(data) > 0 {
		e, err := s.writeRegion(data)
		if err != nil {
			return fmt.Errorf("write %s: %w", rel, err)
		}
		ext = []extent{e}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.creating[rel] {
		return fmt.Errorf("write %s: the file is open for writing", rel)
	}
	s.files[rel] = ext
	delete(s.carried, rel)
	return nil
}

// Create opens a new file rel for writing, which is stored when the
// writer is closed; like os.OpenFile with O_EXCL, it fails if rel exists.
func (s *Spool) Create(rel string) (io.WriteCloser, error) {
	if !safeName(rel) {
		return nil, fmt.Errorf("spool: unsafe path %q", rel)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.files[rel]; ok || s.creating[rel] {
		return nil, fmt.Errorf("create %s: %w", rel, os.ErrExist)
	}
	if _, ok := s.carried[rel]; ok {
		return nil, fmt.Errorf("create %s: %w", rel, os.ErrExist)
	}
	s.creating[rel] = true
	return &spoolWriter{s: s, rel: rel}, nil
}

// spoolWriter is a file of the spool being written: whole chunks go to
// regions of their own, and Close stores the file.
type spoolWriter struct {
	s      *Spool
	rel    string
	chunk  *[]byte // from spoolChunks until Close; buf is *chunk, filled
	buf    []byte
	ext    []extent
	err    error
	closed bool
}

func (w *spoolWriter) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	if w.closed {
		return 0, os.ErrClosed
	}
	n := len(p)
	for len(p) > 0 {
		if w.chunk == nil {
			w.chunk = spoolChunks.Get().(*[]byte)
			w.buf = (*w.chunk)[:0]
		}
		k := min(len(p), spoolChunk-len(w.buf))
		w.buf = append(w.buf, p[:k]...)
		p = p[k:]
		if len(w.buf) == spoolChunk {
			if err := w.flush(); err != nil {
				return 0, err
			}
		}
	}
	return n, nil
}

func (w *spoolWriter) flush() error {
	if len(w.buf) == 0 {
		return nil
	}
	e, err := w.s.writeRegion(w.buf)
	if err != nil {
		w.err = err
		return err
	}
	w.ext = append(w.ext, e)
	w.buf = w.buf[:0]
	return nil
}

// Close stores the file, unless a write failed.
func (w *spoolWriter) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	err := w.err
	if err == nil {
		err = w.flush()
	}
	if w.chunk != nil { // written out, or never to be: the chunk is free
		spoolChunks.Put(w.chunk)
		w.chunk = nil
	}
	w.buf = nil
	s := w.s
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.creating, w.rel)
	if err != nil {
		return fmt.Errorf("write %s: %w", w.rel, err)
	}
	s.files[w.rel] = w.ext
	return nil
}

// Open reads back a file stored in the spool.
func (s *Spool) Open(rel string) (io.ReadCloser, error) {
	s.mu.Lock()
	ext, ok := s.files[rel]
	_, carried := s.carried[rel]
	s.mu.Unlock()
	if carried {
		return nil, fmt.Errorf("open %s: %w", rel, ErrCarried)
	}
	if !ok {
		return nil, fmt.Errorf("open %s: %w", rel, os.ErrNotExist)
	}
	readers := make([]io.Reader, len(ext))
	for i, e := range ext {
		readers[i] = io.NewSectionReader(s.f, e.off, e.n)
	}
	return io.NopCloser(io.MultiReader(readers...)), nil
}

// fileSize is the size of a stored file, -1 if there is none.
func (s *Spool) fileSize(rel string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	ext, ok := s.files[rel]
	if n, carried := s.carried[rel]; carried {
		return n
	}
	if !ok {
		return -1
	}
	var n int64
	for _, e := range ext {
		n += e.n
	}
	return n
}

// WriteManifest sorts m.Files, stamps m.Version and keeps m as the
// bundle's manifest, as WriteManifest does for a directory.
func (s *Spool) WriteManifest(m *Manifest) error {
	raw, err := EncodeManifest(m)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.manifest = raw
	return nil
}

// errNoManifest is WriteArchive's error for a spool whose bundle was
// never finished.
var errNoManifest = errors.New("spool: the bundle has no manifest yet")

// WriteArchive streams the deterministic tar.gz of the bundle to w, byte
// for byte what Write makes of the same bundle in a directory, checking
// each file's size against the manifest. It may be called more than once
// (a retried upload).
func (s *Spool) WriteArchive(ctx context.Context, w io.Writer, workers int) error {
	s.mu.Lock()
	raw := s.manifest
	s.mu.Unlock()
	if raw == nil {
		return errNoManifest
	}
	var prev *Reuse
	if s.prev != nil {
		// An earlier archive that cannot be read is only not copied from.
		if rc, err := s.prev(); err == nil {
			defer rc.Close() // read-only: Close cannot lose data
			prev = NewReuse(rc)
		}
	}
	err := WriteReusing(ctx, w, workers, raw, func(f File) (io.ReadCloser, error) {
		if n := s.fileSize(f.Path); n != f.Size {
			return nil, fmt.Errorf("%s does not match the manifest (size %d, want %d)", f.Path, n, f.Size)
		}
		return s.Open(f.Path)
	}, prev)
	if prev != nil {
		s.copied.Store(int64(prev.Copied))
	}
	return err
}

// ReuseArchive has WriteArchive copy the compressed entries of every file
// that did not change from the archive open returns, an earlier export
// of the same site, instead of compressing them again; the archive is
// byte for byte the same. open is called once per WriteArchive, and an
// error from it only means nothing is copied.
func (s *Spool) ReuseArchive(open func() (io.ReadCloser, error)) { s.prev = open }

// Copied is how many entries the last WriteArchive copied from the
// earlier archive.
func (s *Spool) Copied() int { return int(s.copied.Load()) }
