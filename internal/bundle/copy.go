package bundle

import (
	"io"
	"sync"
)

// copyBuffers keeps the buffers Copy streams through between calls.
var copyBuffers = sync.Pool{New: func() any {
	b := make([]byte, 32<<10)
	return &b
}}

// Copy is io.Copy through a pooled buffer. A bundle's files are copied
// one at a time, tens of them per export, and io.Copy allocates a fresh
// 32 KiB buffer for each copy whose ends offer no shortcut (a hashing
// MultiWriter, a LimitReader, a tar writer): a demo-site export allocated
// about 1.5 MB in them, a quarter of all it allocated.
func Copy(dst io.Writer, src io.Reader) (int64, error) {
	bp := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(bp)
	return io.CopyBuffer(dst, src, *bp)
}

// CopyN is io.CopyN through Copy's pooled buffer: n bytes, or io.EOF if
// src has fewer.
func CopyN(dst io.Writer, src io.Reader, n int64) (int64, error) {
	written, err := Copy(dst, io.LimitReader(src, n))
	if written == n {
		return n, nil
	}
	if err == nil {
		err = io.EOF
	}
	return written, err
}
