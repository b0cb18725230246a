package image_test

import (
	"archive/tar"
	"bytes"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/image"
)

// fakeBins stand in for the release's binaries where only the image's
// assembly is under test; the release's real binaries run in run_test.go.
var fakeBins = map[string][]byte{"amd64": []byte("amd64 binary"), "arm64": []byte("arm64 binary")}

func testOptions(t *testing.T) image.Options {
	t.Helper()
	roots, err := image.RootsPEM()
	if err != nil {
		t.Fatal(err)
	}
	zones, err := image.ToolchainZoneinfo()
	if err != nil {
		t.Fatal(err)
	}
	return image.Options{
		Version:     "1.2.3",
		Revision:    "0123456789abcdef0123456789abcdef01234567",
		Created:     time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC),
		Source:      image.DefaultSource,
		ZoneinfoZip: zones,
		CACerts:     roots,
	}
}

func build(t *testing.T, opts image.Options) v1.ImageIndex {
	t.Helper()
	idx, err := image.Build(opts, fakeBins)
	if err != nil {
		t.Fatal(err)
	}
	return idx
}

func digest(t *testing.T, d interface{ Digest() (v1.Hash, error) }) string {
	t.Helper()
	h, err := d.Digest()
	if err != nil {
		t.Fatal(err)
	}
	return h.String()
}

// platformImage is idx's image for linux/arch.
func platformImage(t *testing.T, idx v1.ImageIndex, arch string) v1.Image {
	t.Helper()
	im, err := idx.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range im.Manifests {
		if d.Platform != nil && d.Platform.OS == "linux" && d.Platform.Architecture == arch {
			img, err := idx.Image(d.Digest)
			if err != nil {
				t.Fatal(err)
			}
			return img
		}
	}
	t.Fatalf("the index has no linux/%s image", arch)
	return nil
}

// files reads img's flattened file system: path → header and contents.
func files(t *testing.T, img v1.Image) (map[string]*tar.Header, map[string][]byte) {
	t.Helper()
	rc := mutate.Extract(img)
	defer rc.Close()
	hdrs, data := map[string]*tar.Header{}, map[string][]byte{}
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return hdrs, data
		}
		if err != nil {
			t.Fatal(err)
		}
		p := "/" + strings.TrimSuffix(h.Name, "/")
		hdrs[p] = h
		if data[p], err = io.ReadAll(tr); err != nil {
			t.Fatal(err)
		}
	}
}

// TestBuild_contents: each architecture's image runs its own binary as
// the non-root user, carries the labels naming version, revision and
// source, trusts the Mozilla roots, knows the time zones, and has no shell.
func TestBuild_contents(t *testing.T) {
	opts := testOptions(t)
	idx := build(t, opts)
	for _, arch := range []string{"amd64", "arm64"} {
		img := platformImage(t, idx, arch)
		cf, err := img.ConfigFile()
		if err != nil {
			t.Fatal(err)
		}
		if cf.Architecture != arch || cf.OS != "linux" {
			t.Errorf("%s: config says %s/%s", arch, cf.OS, cf.Architecture)
		}
		if cf.Config.User != "65532:65532" {
			t.Errorf("%s: user %q, want 65532:65532", arch, cf.Config.User)
		}
		if len(cf.Config.Entrypoint) != 1 || cf.Config.Entrypoint[0] != image.Entrypoint {
			t.Errorf("%s: entrypoint %q, want [%s]", arch, cf.Config.Entrypoint, image.Entrypoint)
		}
		for k, want := range map[string]string{
			"org.opencontainers.image.version":  opts.Version,
			"org.opencontainers.image.revision": opts.Revision,
			"org.opencontainers.image.source":   opts.Source,
			"org.opencontainers.image.created":  "2026-11-01T12:00:00Z",
		} {
			if got := cf.Config.Labels[k]; got != want {
				t.Errorf("%s: label %s = %q, want %q", arch, k, got, want)
			}
		}
		if !cf.Created.Equal(opts.Created) {
			t.Errorf("%s: created %v, want the commit's time %v", arch, cf.Created, opts.Created)
		}

		hdrs, data := files(t, img)
		if !bytes.Equal(data[image.Entrypoint], fakeBins[arch]) || hdrs[image.Entrypoint].Mode&0o111 == 0 {
			t.Errorf("%s: %s is not the %s binary, executable", arch, image.Entrypoint, arch)
		}
		for _, shell := range []string{"/bin/sh", "/bin/bash", "/bin/busybox", "/bin", "/sbin"} {
			if hdrs[shell] != nil {
				t.Errorf("%s: the image has %s", arch, shell)
			}
		}
		if !strings.Contains(string(data["/etc/passwd"]), "nonroot:x:65532:65532:") {
			t.Errorf("%s: /etc/passwd has no nonroot user 65532:\n%s", arch, data["/etc/passwd"])
		}
		if h := hdrs["/home/nonroot"]; h == nil || h.Uid != image.UID || h.Gid != image.GID {
			t.Errorf("%s: /home/nonroot is not the user's: %+v", arch, h)
		}
		if h := hdrs["/tmp"]; h == nil || h.Mode&0o1777 != 0o1777 {
			t.Errorf("%s: /tmp is not 1777: %+v", arch, h)
		}
		for p, h := range hdrs {
			if !h.ModTime.Equal(opts.Created) {
				t.Fatalf("%s: %s dated %v, not the commit's time", arch, p, h.ModTime)
			}
		}
		if n := countCerts(t, data[image.CACertificates]); n < 100 {
			t.Errorf("%s: %s holds %d certificates, want the Mozilla roots (over 100)", arch, image.CACertificates, n)
		}
		loc, err := time.LoadLocationFromTZData("Europe/Berlin", data[image.Zoneinfo+"/Europe/Berlin"])
		if err != nil {
			t.Errorf("%s: no usable Europe/Berlin in %s: %v", arch, image.Zoneinfo, err)
		} else if _, off := time.Date(2026, 7, 1, 0, 0, 0, 0, loc).Zone(); off != 2*3600 {
			t.Errorf("%s: Europe/Berlin in July is UTC%+d, want +2h", arch, off)
		}
	}
}

func countCerts(t *testing.T, b []byte) int {
	t.Helper()
	n := 0
	for {
		var block *pem.Block
		block, b = pem.Decode(b)
		if block == nil {
			return n
		}
		if _, err := x509.ParseCertificate(block.Bytes); err != nil {
			t.Fatalf("the CA bundle holds a certificate Go cannot parse: %v", err)
		}
		n++
	}
}

// TestBuild_reproducible: the same inputs give the same digest, written to
// an OCI layout or not; another revision gives another.
func TestBuild_reproducible(t *testing.T) {
	opts := testOptions(t)
	first, second := build(t, opts), build(t, opts)
	if a, b := digest(t, first), digest(t, second); a != b {
		t.Fatalf("two builds of the same inputs: %s and %s", a, b)
	}
	dir := t.TempDir()
	var indexes [2][]byte
	for i, idx := range []v1.ImageIndex{first, second} {
		p := filepath.Join(dir, "layout")
		if err := image.WriteLayout(p, idx, opts.Version); err != nil {
			t.Fatal(err)
		}
		lp, err := layout.ImageIndexFromPath(p)
		if err != nil {
			t.Fatal(err)
		}
		im, err := lp.IndexManifest()
		if err != nil || len(im.Manifests) != 1 || im.Manifests[0].Digest.String() != digest(t, first) {
			t.Fatalf("the layout's one entry should be the index %s: %+v, %v", digest(t, first), im, err)
		}
		if im.Manifests[0].Annotations["org.opencontainers.image.ref.name"] != opts.Version {
			t.Errorf("the layout's entry is not named %s: %v", opts.Version, im.Manifests[0].Annotations)
		}
		if indexes[i], err = os.ReadFile(filepath.Join(p, "index.json")); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(indexes[0], indexes[1]) {
		t.Errorf("two layouts of one image differ:\n%s\n%s", indexes[0], indexes[1])
	}
	opts.Revision = strings.Repeat("f", 40)
	if digest(t, build(t, opts)) == digest(t, first) {
		t.Error("another revision gave the same digest: the label is not in the image")
	}
}

// TestFromRelease_missingPackages: a directory without the linux zips is
// refused, naming what is missing.
func TestFromRelease_missingPackages(t *testing.T) {
	dir := t.TempDir()
	_, _, err := image.FromRelease(dir, image.Options{Revision: "abc", Created: time.Now()})
	if err == nil || !strings.Contains(err.Error(), "linux_amd64.zip") {
		t.Fatalf("FromRelease of an empty directory: %v, want an error naming the missing linux_amd64.zip", err)
	}
	if _, err := image.Build(image.Options{}, fakeBins); err == nil {
		t.Error("Build without version, revision and time: no error")
	}
}
