package bundle

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
)

func gzipWith(t *testing.T, data []byte, workers, chunk int) []byte {
	t.Helper()
	var out bytes.Buffer
	z, err := newParallelGzip(&out, workers)
	if err != nil {
		t.Fatal(err)
	}
	for len(data) > 0 {
		k := min(chunk, len(data))
		if _, err := z.Write(data[:k]); err != nil {
			t.Fatal(err)
		}
		data = data[k:]
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func TestParallelGzip_roundTripAndDeterminism(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	big := make([]byte, 3*gzipBlock+12345)
	for i := range big {
		big[i] = "<div class=\"x\">abcdefgh</div>\n"[rng.IntN(30)]
	}
	for name, data := range map[string][]byte{"empty": nil, "small": []byte("hello"), "exactBlock": big[:gzipBlock], "multiBlock": big} {
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
			r, err := gzip.NewReader(bytes.NewReader(four))
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(r) // checks the CRC and size trailer
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, data) {
				t.Fatalf("round trip gave %d bytes, want %d", len(got), len(data))
			}
		})
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

func TestParallelGzip_sinkErrorStopsWrites(t *testing.T) {
	z, err := newParallelGzip(&failingWriter{n: 1}, 2)
	if err != nil {
		t.Fatal(err)
	}
	block := bytes.Repeat([]byte("x"), gzipBlock)
	var werr error
	for i := 0; i < 64 && werr == nil; i++ {
		_, werr = z.Write(block)
	}
	cerr := z.Close()
	if werr == nil || cerr == nil {
		t.Fatalf("write error %v, close error %v; want the sink's failure reported", werr, cerr)
	}
}
