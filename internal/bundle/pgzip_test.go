package bundle

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
)

// gzipWith compresses data as one entry, written chunk bytes at a time.
func gzipWith(t *testing.T, data []byte, workers, chunk int) []byte {
	t.Helper()
	var out bytes.Buffer
	z := newMemberGzip(&out, workers)
	z.beginEntry(memberTag{path: "a.html"})
	for len(data) > 0 {
		k := min(chunk, len(data))
		if _, err := z.Write(data[:k]); err != nil {
			t.Fatal(err)
		}
		data = data[k:]
	}
	if err := z.endEntry(); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func TestMemberGzip_roundTripAndDeterminism(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	big := make([]byte, 3*gzipBlock+12345)
	for i := range big {
		big[i] = "<div class=\"x\">abcdefgh</div>\n"[rng.IntN(30)]
	}
	for name, data := range map[string][]byte{"small": []byte("hello"), "exactBlock": big[:gzipBlock], "twoBlocks": big[:2*gzipBlock], "multiBlock": big} {
		t.Run(name, func(t *testing.T) {
			one := gzipWith(t, data, 1, 4096)
			four := gzipWith(t, data, 4, 100000)
			if !bytes.Equal(one, four) {
				t.Fatal("output depends on the number of workers or on write sizes")
			}
			// Compressors and blocks are reused: what one archive
			// compressed before must not show in the next.
			gzipWith(t, big[len(big)/3:], 2, 65536)
			if again := gzipWith(t, data, 2, 777); !bytes.Equal(again, one) {
				t.Fatal("output depends on what was compressed before")
			}
			zr, err := gzip.NewReader(bytes.NewReader(one))
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(zr)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, data) {
				t.Fatalf("round trip gave %d bytes, want %d", len(got), len(data))
			}
			// One member per block begun, each naming its entry.
			if members, want := countMembers(t, one), (len(data)+gzipBlock-1)/gzipBlock; members != want {
				t.Fatalf("%d members, want %d", members, want)
			}
		})
	}
}

// countMembers walks an archive's members by the lengths their headers
// give, checking each names its entry and the flags mark the ends.
func countMembers(t *testing.T, b []byte) int {
	t.Helper()
	u := NewReuse(bytes.NewReader(b))
	n := 0
	for i := 0; ; i++ {
		h, err := u.readHead()
		if errors.Is(err, io.EOF) {
			return n
		}
		if err != nil {
			t.Fatalf("member %d: %v", i, err)
		}
		if h.path != "a.html" || h.first != (i == 0) || h.coder != coder() {
			t.Fatalf("member %d: tag %+v", i, h.memberTag)
		}
		if err := u.rest(h, false); err != nil {
			t.Fatalf("member %d: %v", i, err)
		}
		n++
	}
}

type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.n == 0 {
		return 0, errors.New("client went away")
	}
	w.n--
	return len(p), nil
}

func TestMemberGzip_sinkErrorStopsWrites(t *testing.T) {
	z := newMemberGzip(&failingWriter{n: 1}, 2)
	block := bytes.Repeat([]byte("x"), gzipBlock)
	var werr error
	z.beginEntry(memberTag{path: "big.bin"})
	for i := 0; i < 64 && werr == nil; i++ {
		_, werr = z.Write(block)
	}
	cerr := z.Close()
	if werr == nil || cerr == nil {
		t.Fatalf("write error %v, close error %v; want the sink's failure reported", werr, cerr)
	}
}
