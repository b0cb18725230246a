package bundle

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// countingReader counts the bytes a consumer pulled from the stream.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func TestReadManifest_readsOnlyTheHead(t *testing.T) {
	dir, want := writeSite(t)
	// An incompressible file makes the archive far larger than its head.
	big := make([]byte, 4<<20)
	if _, err := rand.Read(big); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "zz-big.bin"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(big)
	want.Files = append(want.Files, File{Path: "zz-big.bin", Size: int64(len(big)), SHA256: hex.EncodeToString(sum[:])})
	if err := WriteManifest(dir, want); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(context.Background(), dir, &buf, 0); err != nil {
		t.Fatal(err)
	}
	cr := &countingReader{r: bytes.NewReader(buf.Bytes())}
	got, err := ReadManifest(cr)
	if err != nil {
		t.Fatalf("ReadManifest: %v", err)
	}
	if got.Version != want.Version || len(got.Files) != len(want.Files) {
		t.Errorf("ReadManifest = version %s with %d files, want %s with %d", got.Version, len(got.Files), want.Version, len(want.Files))
	}
	if cr.n > 256<<10 {
		t.Errorf("ReadManifest read %d of %d bytes; it should stop after the manifest", cr.n, buf.Len())
	}
}

func TestReadManifest_rejects(t *testing.T) {
	_, b := siteArchive(t)
	es := readArchive(t, b)
	last := append(append([]tarEntry(nil), es[1:]...), es[0])
	forged := append([]tarEntry(nil), es...)
	forged[0].data = bytes.Replace(forged[0].data, []byte(`"version": "`), []byte(`"version": "0`), 1)
	for name, archive := range map[string][]byte{
		"manifestLast":  writeArchive(t, last),
		"forgedVersion": writeArchive(t, forged),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := ReadManifest(bytes.NewReader(archive)); !errors.Is(err, ErrMismatch) {
				t.Fatalf("ReadManifest = %v, want a mismatch", err)
			}
		})
	}
	if _, err := ReadManifest(bytes.NewReader([]byte("plain text"))); err == nil {
		t.Error("ReadManifest accepted something that is not gzip")
	}
}
