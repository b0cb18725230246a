package bundle

import (
	"archive/tar"
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Reuse is an earlier archive of the same layout, read once from its
// start, whose members an archive being written copies verbatim for
// every entry whose path and content did not change (memberGzip). Both
// archives list their files in manifest order, so the two are walked
// side by side and the earlier one is never held in memory. Reuse is
// only ever a shortcut: an earlier archive that is of another layout,
// made by another compressor, damaged or cut short stops the copying,
// never the archive, which is then compressed as if there were none.
type Reuse struct {
	r    *bufio.Reader
	head *memberHead // the next entry's first member, header read
	done bool        // nothing more to copy (end, or an error)
	// Copied counts the files (and manifest) whose entries were taken
	// from the earlier archive.
	Copied int
}

// maxReusedEntry bounds the compressed bytes of one entry held while it
// is checked before being copied; a larger entry is compressed again.
const maxReusedEntry = 8 << 20

// NewReuse reads the earlier archive r from its start.
func NewReuse(r io.Reader) *Reuse { return &Reuse{r: bufio.NewReaderSize(r, 64<<10)} }

// memberHead is a member whose header has been read: raw holds its bytes
// so far, and memberLen-len(raw) follow.
type memberHead struct {
	memberTag
	coder     [8]byte
	memberLen int
	raw       []byte
}

// errNotOurs is a member of an archive of another layout.
var errNotOurs = errors.New("not a member of this archive layout")

// readHead reads the header of the next member.
func (u *Reuse) readHead() (*memberHead, error) {
	var head [gzipHeadLen + 2]byte
	if _, err := io.ReadFull(u.r, head[:]); err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(head[:], []byte{0x1f, 0x8b, 8, 4}) { // gzip, deflate, FEXTRA

		return nil, errNotOurs
	}
	xlen := int(binary.LittleEndian.Uint16(head[gzipHeadLen:]))
	raw := append(append(make([]byte, 0, len(head)+xlen+64), head[:]...), make([]byte, xlen)...)
	x := raw[len(head):]
	if _, err := io.ReadFull(u.r, x); err != nil {
		return nil, err
	}
	if xlen < 4+tagFixedLen || x[0] != 'D' || x[1] != 'A' || int(binary.LittleEndian.Uint16(x[2:])) != xlen-4 || x[4] != tagVersion {
		return nil, errNotOurs
	}
	x = x[4:]
	h := &memberHead{raw: raw}
	h.first, h.last = x[1]&1 != 0, x[1]&2 != 0
	copy(h.coder[:], x[2:10])
	h.memberLen = int(binary.LittleEndian.Uint32(x[10:14]))
	copy(h.sum[:], x[14:14+len(h.sum)])
	h.path = string(x[tagFixedLen:])
	if h.memberLen < len(raw)+8 {
		return nil, errNotOurs
	}
	return h, nil
}

// stop ends the copying for good.
func (u *Reuse) stop() { u.done, u.head = true, nil }

// peek returns the first member of the next entry of the earlier archive,
// nil at its end or once copying stopped.
func (u *Reuse) peek() *memberHead {
	if u.done {
		return nil
	}
	if u.head == nil {
		h, err := u.readHead()
		if err != nil || !h.first {
			u.stop()
			return nil
		}
		u.head = h
	}
	return u.head
}

// rest reads the rest of member h into h.raw, or discards it.
func (u *Reuse) rest(h *memberHead, keep bool) error {
	n := h.memberLen - len(h.raw)
	if !keep {
		_, err := u.r.Discard(n)
		return err
	}
	h.raw = append(h.raw, make([]byte, n)...)
	_, err := io.ReadFull(u.r, h.raw[len(h.raw)-n:])
	return err
}

// entry reads (keep) or skips the whole entry whose first member is
// u.head, returning its members' bytes and the length of the tar entry
// they hold, or ok false if the earlier archive is not as its headers
// say.
func (u *Reuse) entry(keep bool) (data []byte, size int64, ok bool) {
	h := u.head
	u.head = nil
	for {
		keep = keep && len(data)+h.memberLen <= maxReusedEntry
		if err := u.rest(h, keep); err != nil {
			u.stop()
			return nil, 0, false
		}
		if keep {
			data = append(data, h.raw...)
			size += int64(binary.LittleEndian.Uint32(h.raw[len(h.raw)-4:]))
		}
		if h.last {
			return data, size, keep
		}
		next, err := u.readHead()
		if err != nil || next.first || next.path != h.path || next.sum != h.sum || next.coder != h.coder {
			u.stop()
			return nil, 0, false
		}
		h = next
	}
}

// take returns the members of the earlier archive holding the group
// tagged t (same first path, files and compressor), whose tar entries
// are total bytes long, counting its files copied. Groups of the earlier
// archive before t's place in manifest order are skipped.
func (u *Reuse) take(t memberTag, total int64, files int) ([]byte, bool) {
	if u == nil {
		return nil, false
	}
	for {
		h := u.peek()
		if h == nil || before(t.path, h.path) {
			return nil, false
		}
		if h.path != t.path {
			u.entry(false)
			continue
		}
		same := h.sum == t.sum && h.coder == coder() && h.coder != [8]byte{}
		data, size, ok := u.entry(same)
		if ok && size == total {
			u.Copied += files
			return data, true
		}
		return nil, false
	}
}

// before reports whether path a comes before b in an archive: the
// manifest first, the end-of-archive entry ("") last, files in between
// in manifest (byte) order.
func before(a, b string) bool {
	switch {
	case a == b:
		return false
	case a == ManifestName || b == "":
		return true
	case b == ManifestName || a == "":
		return false
	}
	return a < b
}

// padded is size rounded up to tar's 512-byte blocks.
func padded(size int64) int64 { return (size + 511) &^ 511 }

// tarHeader returns the tar header bytes of the entry for name: what
// writeEntry writes before the content.
func tarHeader(name string, size int64) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	if err := tw.WriteHeader(entryHeader(name, size)); err != nil {
		return nil, fmt.Errorf("archive %s: %w", name, err)
	}
	return buf.Bytes(), nil
}
