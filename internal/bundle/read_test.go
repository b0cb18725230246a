package bundle

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

func TestFetchManifest(t *testing.T) {
	_, archive := siteArchive(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok":
			_, _ = w.Write(archive)
		case "/stall":
			<-r.Context().Done()
		default:
			http.Error(w, "expired", http.StatusForbidden)
		}
	}))
	defer srv.Close()
	hc := &http.Client{Timeout: 200 * time.Millisecond}
	m, err := FetchManifest(context.Background(), hc, srv.URL+"/ok")
	if err != nil || m.Version == "" {
		t.Fatalf("FetchManifest = %v, %v", m, err)
	}
	// A link is a credential: failures must not repeat it.
	for _, p := range []string{"/expired", "/stall"} {
		link := srv.URL + p + "?signature=s3cr3t"
		if _, err := FetchManifest(context.Background(), hc, link); err == nil || strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("%s: err = %v; want an error that does not quote the link", p, err)
		}
	}
}
