package apiserver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/objstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/s3test"
)

// packTestSite writes a bundle directory of n small pages, one file
// larger than a pack, and a file the manifest does not list.
func packTestSite(t *testing.T, n int) string {
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
	big := make([]byte, packSize+packSize/2)
	for i := range big {
		big[i] = byte(rng.Uint32())
	}
	add("assets/big.bin", big)
	add("empty.txt", nil)
	if err := bundle.WriteManifest(dir, &bundle.Manifest{Domain: "docs.acme.test", Kind: "air-gapped", PageCount: n, Files: files}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "unlisted.txt"), []byte("not in the manifest"), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

func packTestStore(t *testing.T) *sitePublisher {
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
	return newSitePublisher(&Server{objects: st})
}

// archiveFrom streams the site under prefix into an archive.
func archiveFrom(t *testing.T, sp *sitePublisher, prefix string) []byte {
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

// A site goes up as a few packs (the file larger than a pack in one of
// its own, the unlisted file too), and the archive streamed from them is
// byte for byte the one bundle.Write makes of the directory.
func TestPacks_archiveMatchesDirectory(t *testing.T) {
	sp := packTestStore(t)
	dir := packTestSite(t, 600)
	ctx := context.Background()
	prefix := packPrefix("se_pack", 1)
	n, err := sp.uploadPacks(ctx, dir, prefix)
	if err != nil {
		t.Fatal(err)
	}
	size, err := treeSize(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n != size {
		t.Errorf("upload reports %d bytes, the site has %d", n, size)
	}
	var keys []string
	for o, err := range sp.srv.objects.List(ctx, prefix) {
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, o.Key)
	}
	// ~12 MiB of pages and a 12 MiB file: a few packs, not 600 objects.
	if len(keys) < 3 || len(keys) > 6 {
		t.Fatalf("packs %q; want 3 to 6", keys)
	}
	var want bytes.Buffer
	if err := bundle.Write(ctx, dir, &want, 2); err != nil {
		t.Fatal(err)
	}
	if got := archiveFrom(t, sp, prefix); !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("archive from packs is %d bytes and differs from the directory's (%d bytes)", len(got), want.Len())
	}
	if _, err := bundle.VerifyArchive(bytes.NewReader(want.Bytes())); err != nil {
		t.Fatal(err)
	}
}

// Sites written by servers before packs, one object per file under
// a<n>/site/, are still archived, and to the same bytes.
func TestPacks_oneObjectPerFileStillArchived(t *testing.T) {
	sp := packTestStore(t)
	dir := packTestSite(t, 20)
	ctx := context.Background()
	prefix := jobObjectPrefix("se_old") + "a1/site/"
	order, err := packOrder(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range order {
		f, err := os.Open(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		_, err = sp.srv.objects.Put(ctx, prefix+rel, f, objstore.PutOptions{})
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
	dir := packTestSite(t, 5)
	ctx := context.Background()
	if err := os.WriteFile(filepath.Join(dir, "p/page0003/index.html"), []byte("changed"), 0o600); err != nil {
		t.Fatal(err)
	}
	prefix := packPrefix("se_damaged", 1)
	if _, err := sp.uploadPacks(ctx, dir, prefix); err != nil {
		t.Fatal(err)
	}
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
	if _, _, err := sp.openSite(ctx, packPrefix("se_gone", 1)); err == nil || !strings.Contains(err.Error(), "gone") {
		t.Fatalf("open a site with no packs: %v", err)
	}
	if !isPackPrefix(prefix) || isPackPrefix(jobObjectPrefix("x")+"a1/site/") {
		t.Fatal("isPackPrefix tells the layouts apart wrongly")
	}
}
