package bundle

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"hash/crc32"
	"io"
	"sync"

	// klauspost's deflate at BestSpeed takes about 30 % less CPU than
	// compress/flate's on rendered HTML, and its output is 3 % smaller;
	// a stream it writes is plain deflate, read by any gzip reader.
	"github.com/klauspost/compress/flate"
)

// gzipBlock is the most input one gzip member takes: a tar entry longer
// than this is cut into several members at fixed offsets from its start,
// so the output depends only on the input and an archive stays
// byte-identical however many workers compress it.
const gzipBlock = 1 << 20

// memberGzip writes an archive as a series of gzip members, each a
// complete deflate stream of one piece of one tar entry, compressed on
// several cores at once (the technique of pigz, with a member instead of
// a sync flush between blocks). A member depends on nothing but its own
// bytes, so an entry whose file did not change can have its members
// copied verbatim from an earlier archive (Reuse): an archive made that
// way is byte for byte the archive made from scratch. Every gzip reader
// reads a series of members as one stream (RFC 1952, 2.2).
//
// Each member names what it holds in its header's extra field (see
// memberTag), so an earlier archive can be matched without inflating it.
// At most workers members are in flight, so memory stays bounded.
type memberGzip struct {
	w       io.Writer
	buf     []byte
	tag     memberTag // of the entry being written
	first   bool      // buf starts the entry
	pending chan chan gzResult
	done    chan error
	sem     chan struct{}
	err     error
	closed  bool

	mu      sync.Mutex
	sinkErr error // first failure writing to w, seen by the next Write
}

type gzResult struct {
	data []byte
	err  error
}

// blocks and compressors are reused across archives: allocating (and
// zeroing) a fresh block buffer and deflate state per member cost more
// than compressing a small one.
var (
	blocks      = sync.Pool{New: func() any { b := make([]byte, 0, gzipBlock); return &b }}
	compressors sync.Pool // *flate.Writer at BestSpeed
)

func getBlock() []byte { return (*blocks.Get().(*[]byte))[:0] }

func putBlock(b []byte) { blocks.Put(&b) }

// deflate appends the complete deflate stream of block to out.
func deflate(out *bytes.Buffer, block []byte) error {
	fw, _ := compressors.Get().(*flate.Writer)
	if fw == nil {
		var err error
		if fw, err = flate.NewWriter(out, flate.BestSpeed); err != nil {
			return err
		}
	} else {
		fw.Reset(out)
	}
	_, err := fw.Write(block)
	if err == nil {
		err = fw.Close()
	}
	if err == nil {
		compressors.Put(fw)
	}
	return err
}

func newMemberGzip(w io.Writer, workers int) *memberGzip {
	z := &memberGzip{
		w:       w,
		pending: make(chan chan gzResult, workers),
		done:    make(chan error, 1),
		sem:     make(chan struct{}, workers),
	}
	go z.drain()
	return z
}

// drain writes members to w in order.
func (z *memberGzip) drain() {
	var err error
	for ch := range z.pending {
		r := <-ch
		if err == nil {
			err = r.err
		}
		if err == nil {
			if _, err = z.w.Write(r.data); err != nil {
				z.mu.Lock()
				z.sinkErr = err
				z.mu.Unlock()
			}
		}
	}
	z.done <- err
}

// failed is the error that stops the archive: a write that failed
// before, or a reader that went away.
func (z *memberGzip) failed() error {
	z.mu.Lock()
	if z.err == nil {
		z.err = z.sinkErr
	}
	z.mu.Unlock()
	return z.err
}

// beginEntry starts the members of a tar entry named by tag.
func (z *memberGzip) beginEntry(tag memberTag) {
	z.tag, z.first = tag, true
	if z.buf == nil {
		z.buf = getBlock()
	}
}

// Write adds bytes of the current entry.
func (z *memberGzip) Write(p []byte) (int, error) {
	if err := z.failed(); err != nil {
		return 0, err
	}
	n := len(p)
	for len(p) > 0 {
		if z.buf == nil {
			z.buf = getBlock()
		}
		if len(z.buf) == gzipBlock {
			// More of the entry follows: the full block is not its last.
			z.dispatch(false)
			continue
		}
		k := min(len(p), gzipBlock-len(z.buf))
		z.buf = append(z.buf, p[:k]...)
		p = p[k:]
	}
	return n, nil
}

// endEntry compresses the rest of the current entry as its last member.
func (z *memberGzip) endEntry() error {
	if err := z.failed(); err != nil {
		return err
	}
	z.dispatch(true)
	return nil
}

// dispatch hands the current block to a compressor goroutine.
func (z *memberGzip) dispatch(last bool) {
	block := z.buf
	z.buf = nil
	tag := z.tag
	tag.first, tag.last = z.first, last
	z.first = false
	z.enqueue(func() ([]byte, error) {
		data, err := tag.member(block)
		// The compressor keeps no reference to its input once closed.
		putBlock(block)
		return data, err
	})
}

// copied writes members taken verbatim from an earlier archive, in turn
// with the ones being compressed.
func (z *memberGzip) copied(data []byte) error {
	if err := z.failed(); err != nil {
		return err
	}
	z.enqueue(func() ([]byte, error) { return data, nil })
	return nil
}

// enqueue runs produce on a goroutine of its own, at most workers at
// once, and has its member written in the order enqueue was called.
func (z *memberGzip) enqueue(produce func() ([]byte, error)) {
	ch := make(chan gzResult, 1)
	z.sem <- struct{}{}
	z.pending <- ch
	go func() {
		defer func() { <-z.sem }()
		data, err := produce()
		ch <- gzResult{data, err}
	}()
}

// Close waits for every member and reports the first error. It must be
// called, also after a failed Write, to stop the writer goroutine.
func (z *memberGzip) Close() error {
	if z.closed {
		return z.err
	}
	z.closed = true
	if z.buf != nil {
		putBlock(z.buf)
		z.buf = nil
	}
	close(z.pending)
	if err := <-z.done; err != nil && z.err == nil {
		z.err = err
	}
	return z.err
}

// memberTag is what a member's header says it holds: a piece of the tar
// entries of a group of files whose first is path and whose paths, sizes
// and contents hash to sum (groupKey), compressed by coder.
// It is written as the subfield "DA" of the gzip header's extra field,
// which readers skip (RFC 1952, 2.3.1.1; BGZF keeps its block sizes the
// same way):
//
//	version(1) flags(1) coder(8) memberLen(4) sum(32) path
//
// flags has bit 0 set on a group's first member and bit 1 on its last;
// memberLen is the whole member's length, header to trailer, so a reader
// can step from member to member.
type memberTag struct {
	path        string
	sum         [sha256.Size]byte
	first, last bool
}

const (
	tagVersion  = 1
	tagFixedLen = 1 + 1 + 8 + 4 + sha256.Size
	// gzipHeadLen is the fixed gzip header before the extra field's
	// length; with the subfield's own four bytes of ID and length, the
	// extra field starts at gzipHeadLen+2.
	gzipHeadLen = 10
)

// member compresses block into one complete gzip member tagged with t.
func (t memberTag) member(block []byte) ([]byte, error) {
	var out bytes.Buffer
	sub := tagFixedLen + len(t.path)
	out.Grow(gzipHeadLen + 2 + 4 + sub + len(block)/2 + 64)
	// Magic, deflate, FEXTRA, no mtime, fastest, unknown OS.
	out.Write([]byte{0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 4, 255})
	var b [2]byte
	binary.LittleEndian.PutUint16(b[:], uint16(4+sub)) //nolint:gosec // paths are bounded far below 64 KiB (maxPathLen)
	out.Write(b[:])
	out.Write([]byte{'D', 'A'})
	binary.LittleEndian.PutUint16(b[:], uint16(sub)) //nolint:gosec // as above
	out.Write(b[:])
	var flags byte
	if t.first {
		flags |= 1
	}
	if t.last {
		flags |= 2
	}
	out.WriteByte(tagVersion)
	out.WriteByte(flags)
	c := coder()
	out.Write(c[:])
	lenAt := out.Len()
	out.Write([]byte{0, 0, 0, 0}) // memberLen, filled in below
	out.Write(t.sum[:])
	out.WriteString(t.path)
	if err := deflate(&out, block); err != nil {
		return nil, err
	}
	var trailer [8]byte
	binary.LittleEndian.PutUint32(trailer[:4], crc32.ChecksumIEEE(block))
	binary.LittleEndian.PutUint32(trailer[4:], uint32(len(block))) //nolint:gosec // at most gzipBlock
	out.Write(trailer[:])
	data := out.Bytes()
	binary.LittleEndian.PutUint32(data[lenAt:], uint32(len(data))) //nolint:gosec // at most about gzipBlock
	return data, nil
}

// coder identifies the compressor's output: a hash of what it makes of
// a fixed sample. A member is copied from an earlier archive only if the
// same coder wrote it, so an archive made after an upgrade of the
// deflate code is still the one a full export makes, never a mix.
var coder = sync.OnceValue(func() (id [8]byte) {
	sample := make([]byte, 0, 64<<10)
	for i := 0; len(sample) < cap(sample)-64; i++ {
		sample = binary.AppendUvarint(append(sample, `<li><a href="/page-`...), uint64(i*i%7919))
		sample = append(sample, `">Page</a></li>`...)
	}
	var out bytes.Buffer
	if err := deflate(&out, sample); err != nil {
		return id // no coder: members never match one that worked
	}
	sum := sha256.Sum256(append(out.Bytes(), tagVersion))
	copy(id[:], sum[:])
	return id
})
