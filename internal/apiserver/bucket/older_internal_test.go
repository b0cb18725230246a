package bucket

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/bundles"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/objstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/s3test"
)

// packTestSite writes a bundle directory of n small pages, if big one
// file larger than an object store part, and a file the manifest does
// not list.
func packTestSite(t *testing.T, n int, big bool) string {
	t.Helper()
	dir := t.TempDir()
	var files []bundle.File
	add := func(name string, data []byte) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		files = append(files, bundle.File{Path: name, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:])})
	}
	rng := rand.New(rand.NewPCG(1, 2)) //nolint:gosec // reproducible test content, not a secret
	for i := range n {
		add(fmt.Sprintf("p/page%04d/index.html", i), []byte(strings.Repeat(fmt.Sprintf("<p>page %d</p>", i), 1+rng.IntN(4000))))
	}
	if big {
		data := make([]byte, objstore.DefaultPartSize+objstore.DefaultPartSize/2)
		for i := range data {
			data[i] = byte(rng.Uint32())
		}
		add("assets/big.bin", data)
	}
	add("empty.txt", nil)
	if err := bundle.WriteManifest(dir, &bundle.Manifest{Domain: "docs.acme.test", Kind: "air-gapped", PageCount: n, Files: files}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "unlisted.txt"), []byte("not in the manifest"), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// readManifest decodes dir's manifest without checking the files.
func readManifest(t *testing.T, dir string) *bundle.Manifest {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, bundle.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	m, err := bundle.ParseManifest(raw)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// spoolOf copies the bundle directory dir into a spool, as a worker's
// render would have written it, half of the files whole and half
// streamed.
func spoolOf(t *testing.T, dir string) *bundle.Spool {
	t.Helper()
	spool, err := bundle.NewSpool(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = spool.Close() })
	m := readManifest(t, dir)
	for i, f := range m.Files {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			err = spool.WriteFile(f.Path, data)
		} else {
			var w io.WriteCloser
			if w, err = spool.Create(f.Path); err == nil {
				_, err = w.Write(data)
				if cerr := w.Close(); err == nil {
					err = cerr
				}
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := spool.WriteManifest(m); err != nil {
		t.Fatal(err)
	}
	return spool
}

func packTestStore(t *testing.T) *Store {
	t.Helper()
	if testing.Short() {
		t.Skip("needs MinIO")
	}
	b := s3test.Start(t)
	cfg, err := objstore.ParseURL(b.URL())
	if err != nil {
		t.Fatal(err)
	}
	st, err := objstore.New(context.Background(), cfg, objstore.Options{Credentials: b.Credentials()})
	if err != nil {
		t.Fatal(err)
	}
	return newStore(st, bundles.Env{Log: hclog.NewNullLogger(), Archived: func() {}})
}

// archiveFrom streams the site under prefix into an archive.
func archiveFrom(t *testing.T, sp *Store, prefix string) []byte {
	t.Helper()
	ctx := context.Background()
	site, manifest, err := sp.openSite(ctx, prefix)
	if err != nil {
		t.Fatal(err)
	}
	defer site.Close()
	var out bytes.Buffer
	if err := bundle.WriteFrom(ctx, &out, 2, manifest, site.Open); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// putPacks stores the site in dir under prefix as an older server did:
// tar packs of at most perPack files, manifest.json first, then the
// manifest's files in its order, then the files it does not list.
func putPacks(t *testing.T, sp *Store, dir, prefix string, perPack int) {
	t.Helper()
	order := []string{bundle.ManifestName}
	for _, f := range readManifest(t, dir).Files {
		order = append(order, f.Path)
	}
	order = append(order, "unlisted.txt")
	for n := 0; len(order) > 0; n++ {
		k := min(perPack, len(order))
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		for _, rel := range order[:k] {
			data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
			if err != nil {
				t.Fatal(err)
			}
			if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: rel, Size: int64(len(data)), Mode: 0o600, Format: tar.FormatPAX}); err != nil {
				t.Fatal(err)
			}
			if _, err := tw.Write(data); err != nil {
				t.Fatal(err)
			}
		}
		if err := tw.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := sp.objects.Put(context.Background(), fmt.Sprintf("%s%05d.tar", prefix, n+1), &buf, objstore.PutOptions{}); err != nil {
			t.Fatal(err)
		}
		order = order[k:]
	}
}

// A site an older server stored as packs (a file larger than a part
// among them, one the manifest does not list last) streams into an
// archive byte for byte the one bundle.Write makes of the directory.
func TestPacks_archiveMatchesDirectory(t *testing.T) {
	sp := packTestStore(t)
	dir := packTestSite(t, 600, true)
	ctx := context.Background()
	prefix := jobObjectPrefix("se_pack") + "a1/packs/"
	putPacks(t, sp, dir, prefix, 150)
	var want bytes.Buffer
	if err := bundle.Write(ctx, dir, &want, 2); err != nil {
		t.Fatal(err)
	}
	if got := archiveFrom(t, sp, prefix); !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("archive from packs is %d bytes and differs from the directory's (%d bytes)", len(got), want.Len())
	}
}

// A published site is its archive alone, made from the worker's spool
// byte for byte as bundle.Write makes it of the directory, streamed up as
// a multipart upload when larger than a part, with the content version
// as metadata.
func TestPublish_archiveMatchesDirectory(t *testing.T) {
	sp := packTestStore(t)
	dir := packTestSite(t, 600, true)
	ctx := context.Background()
	man := readManifest(t, dir)
	man.Version = "v-test"
	key := attemptObjectPrefix("se_pub", 1) + "bundle.tar.gz"
	size, err := sp.uploadArchive(ctx, spoolOf(t, dir), key, man)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := bundle.Write(ctx, dir, &want, 2); err != nil {
		t.Fatal(err)
	}
	body, info, err := sp.objects.Get(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(body)
	_ = body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if size != int64(want.Len()) || !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("published archive is %d bytes (reported %d) and differs from the directory's (%d bytes)", len(got), size, want.Len())
	}
	if want.Len() <= objstore.DefaultPartSize {
		t.Fatalf("the test archive is %d bytes: not larger than a part, so no multipart upload was tested", want.Len())
	}
	if !strings.Contains(info.ETag, "-") {
		t.Fatalf("ETag %q: want a multipart upload's", info.ETag)
	}
	if info.Metadata[versionMetadata] != "v-test" {
		t.Fatalf("metadata %v, want the content version", info.Metadata)
	}
	if !publishedArchive(attemptObjectPrefix("se_pub", 1)) || publishedArchive("") ||
		publishedArchive(jobObjectPrefix("x")+"a1/packs/") || publishedArchive(jobObjectPrefix("x")+"a1/site/") {
		t.Fatal("publishedArchive tells the layouts apart wrongly")
	}
}

// At most maxLargeUploads archives of large sites are uploaded at once:
// with every slot taken a large one waits, storing nothing, until its
// context ends, while a small site's goes up at once.
func TestPublish_largeUploadsBounded(t *testing.T) {
	sp := packTestStore(t)
	large, small := packTestSite(t, 600, true), packTestSite(t, 3, false)
	for range maxLargeUploads {
		sp.largeUploads <- struct{}{}
	}
	bigSite := readManifest(t, large)
	if siteSize(bigSite) <= objstore.DefaultPartSize || siteSize(readManifest(t, small)) > objstore.DefaultPartSize {
		t.Fatal("the test sites are not one larger and one smaller than a part")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	key := attemptObjectPrefix("se_wait", 1) + "bundle.tar.gz"
	if _, err := sp.uploadArchive(ctx, spoolOf(t, large), key, bigSite); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("large upload with every slot taken: %v, want it to wait until its context ends", err)
	}
	if _, err := sp.objects.Stat(context.Background(), key); !errors.Is(err, objstore.ErrNotFound) {
		t.Fatalf("a waiting upload stored its archive: %v", err)
	}
	if _, err := sp.uploadArchive(context.Background(), spoolOf(t, small), attemptObjectPrefix("se_small", 1)+"bundle.tar.gz", readManifest(t, small)); err != nil {
		t.Fatalf("small upload with every large slot taken: %v", err)
	}
	<-sp.largeUploads
	if _, err := sp.uploadArchive(context.Background(), spoolOf(t, large), key, bigSite); err != nil {
		t.Fatal(err)
	}
	if n := len(sp.largeUploads); n != maxLargeUploads-1 {
		t.Fatalf("%d slots taken after the upload, want the %d the test holds", n, maxLargeUploads-1)
	}
}

// Sites written by servers before packs, one object per file under
// a<n>/site/, are still archived, and to the same bytes.
func TestPacks_oneObjectPerFileStillArchived(t *testing.T) {
	sp := packTestStore(t)
	dir := packTestSite(t, 20, true)
	ctx := context.Background()
	prefix := jobObjectPrefix("se_old") + "a1/site/"
	order := []string{bundle.ManifestName}
	for _, f := range readManifest(t, dir).Files {
		order = append(order, f.Path)
	}
	for _, rel := range order {
		f, err := os.Open(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		_, err = sp.objects.Put(ctx, prefix+rel, f, objstore.PutOptions{})
		_ = f.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	var want bytes.Buffer
	if err := bundle.Write(ctx, dir, &want, 2); err != nil {
		t.Fatal(err)
	}
	if got := archiveFrom(t, sp, prefix); !bytes.Equal(got, want.Bytes()) {
		t.Fatal("archive from one object per file differs from the directory's")
	}
}

// A pack holding a file at another size than the manifest's fails the
// archive with a message naming the file, never a short archive.
func TestPacks_damagedSiteFailsArchive(t *testing.T) {
	sp := packTestStore(t)
	dir := packTestSite(t, 5, true)
	ctx := context.Background()
	if err := os.WriteFile(filepath.Join(dir, "p/page0003/index.html"), []byte("changed"), 0o600); err != nil {
		t.Fatal(err)
	}
	prefix := jobObjectPrefix("se_damaged") + "a1/packs/"
	putPacks(t, sp, dir, prefix, 4)
	site, manifest, err := sp.openSite(ctx, prefix)
	if err != nil {
		t.Fatal(err)
	}
	defer site.Close()
	err = bundle.WriteFrom(ctx, io.Discard, 1, manifest, site.Open)
	if err == nil || !strings.Contains(err.Error(), "page0003") {
		t.Fatalf("archive of a damaged site: %v; want an error naming page0003", err)
	}
	// And a job whose packs are gone says so.
	if _, _, err := sp.openSite(ctx, jobObjectPrefix("se_gone")+"a1/packs/"); err == nil || !strings.Contains(err.Error(), "gone") {
		t.Fatalf("open a site with no packs: %v", err)
	}
	if !isPackPrefix(prefix) || isPackPrefix(jobObjectPrefix("x")+"a1/site/") {
		t.Fatal("isPackPrefix tells the layouts apart wrongly")
	}
}
