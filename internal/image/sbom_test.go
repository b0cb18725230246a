package image_test

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/remote"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/image"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/releasetest"
)

// TestImage_sbomReferrer: each platform image of the release carries the
// release's SBOM of its binary as an OCI 1.1 referrer, found the way
// clients find one (the registry's referrers API on the image manifest's
// digest; in an OCI layout, an index.json entry whose subject is that
// manifest), with artifact type CycloneDX JSON and the release's document
// byte for byte. The image index's digest does not change.
func TestImage_sbomReferrer(t *testing.T) {
	r := releasetest.Snapshot(t)
	idx := r.Image(t)
	want, err := os.ReadFile(r.SBOM(r.Platform))
	if err != nil {
		t.Fatal(err)
	}
	subject := platformDigest(t, idx, r.Platform)

	ref := releasetest.Push(t, releasetest.Registry(t), r.Version, idx)
	r.PushSBOMs(t, ref, idx)
	found, err := remote.Referrers(ref.Context().Digest(subject.String()), remote.WithContext(t.Context()))
	if err != nil {
		t.Fatalf("referrers of %s: %v", subject, err)
	}
	fm, err := found.IndexManifest()
	if err != nil || len(fm.Manifests) != 1 {
		t.Fatalf("the registry lists %d referrers of %s (%v), want the SBOM", len(fm.Manifests), subject, err)
	}
	raw, err := remote.Get(ref.Context().Digest(fm.Manifests[0].Digest.String()), remote.WithContext(t.Context()))
	if err != nil {
		t.Fatal(err)
	}
	got := referrerDocument(t, raw.Manifest, subject, func(h v1.Hash) []byte {
		l, err := remote.Layer(ref.Context().Digest(h.String()), remote.WithContext(t.Context()))
		if err != nil {
			t.Fatal(err)
		}
		return layerBytes(t, l)
	})
	if !bytes.Equal(got, want) {
		t.Errorf("the registry's SBOM of %s is not the release's %s", subject, filepath.Base(r.SBOM(r.Platform)))
	}

	dir := filepath.Join(t.TempDir(), "layout")
	refs, err := image.SBOMReferrers(r.Dir, r.Version, idx, time.Unix(r.Created, 0))
	if err != nil {
		t.Fatal(err)
	}
	if err := image.WriteLayout(dir, idx, r.Version, refs...); err != nil {
		t.Fatal(err)
	}
	lp, err := layout.FromPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	li, err := lp.ImageIndex()
	if err != nil {
		t.Fatal(err)
	}
	lm, err := li.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	if lm.Manifests[0].Digest.String() != digest(t, idx) {
		t.Errorf("the layout's first entry is %s, want the image index %s", lm.Manifests[0].Digest, digest(t, idx))
	}
	n := 0
	for _, d := range lm.Manifests {
		if d.ArtifactType != image.SBOMMediaType {
			continue
		}
		m, err := lp.Bytes(d.Digest)
		if err != nil {
			t.Fatal(err)
		}
		var sm v1.Manifest
		if err := json.Unmarshal(m, &sm); err != nil || sm.Subject == nil || sm.Subject.Digest != subject {
			continue
		}
		n++
		if doc := referrerDocument(t, m, subject, func(h v1.Hash) []byte {
			b, err := lp.Bytes(h)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}); !bytes.Equal(doc, want) {
			t.Errorf("the layout's SBOM of %s is not the release's", subject)
		}
	}
	if n != 1 {
		t.Errorf("the layout holds %d SBOM referrers of %s, want 1", n, subject)
	}
}

// referrerDocument checks that raw is an SBOM artifact manifest of subject
// and returns its one blob.
func referrerDocument(t *testing.T, raw []byte, subject v1.Hash, blob func(v1.Hash) []byte) []byte {
	t.Helper()
	var m v1.Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if m.ArtifactType != image.SBOMMediaType || m.Subject == nil || m.Subject.Digest != subject || len(m.Layers) != 1 {
		t.Fatalf("not a CycloneDX referrer of %s: %s", subject, raw)
	}
	if m.Config.MediaType != "application/vnd.oci.empty.v1+json" {
		t.Errorf("config %s, want the OCI empty descriptor", m.Config.MediaType)
	}
	return blob(m.Layers[0].Digest)
}

// platformDigest is the digest of idx's manifest for platform (<os>_<arch>).
func platformDigest(t *testing.T, idx v1.ImageIndex, platform string) v1.Hash {
	t.Helper()
	im, err := idx.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range im.Manifests {
		if m.Platform != nil && m.Platform.OS+"_"+m.Platform.Architecture == platform {
			return m.Digest
		}
	}
	t.Fatalf("the image has no %s manifest", platform)
	return v1.Hash{}
}

// layerBytes is a blob as stored (a static layer's bytes are its blob).
func layerBytes(t *testing.T, l v1.Layer) []byte {
	t.Helper()
	rc, err := l.Compressed()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
