package image

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// SBOMMediaType is CycloneDX JSON's registered media type: the artifact
// type of an image's SBOM referrer and the type of its one blob.
const SBOMMediaType = "application/vnd.cyclonedx+json"

// emptyConfig is the OCI 1.1 empty descriptor's content: an artifact
// manifest's config when the artifact has none.
var emptyConfig = []byte("{}")

// Referrer is an OCI 1.1 artifact manifest whose subject is one image
// manifest of the index: how registries (the referrers API) and OCI
// layouts attach an SBOM to an image without changing the image's digest.
type Referrer struct {
	manifest []byte
	blobs    [][]byte // the empty config and the document
}

// RawManifest is the manifest's bytes (remote.Taggable).
func (r Referrer) RawManifest() ([]byte, error) { return r.manifest, nil }

// MediaType is the manifest's media type (what remote.Put sends).
func (Referrer) MediaType() (types.MediaType, error) { return types.OCIManifestSchema1, nil }

// Blobs are the contents the manifest names, to upload before it.
func (r Referrer) Blobs() [][]byte { return r.blobs }

// Descriptor is the manifest's descriptor, with its artifact type.
func (r Referrer) Descriptor() v1.Descriptor {
	h, size, _ := v1.SHA256(bytes.NewReader(r.manifest))
	return v1.Descriptor{MediaType: types.OCIManifestSchema1, Size: size, Digest: h, ArtifactType: SBOMMediaType}
}

// SBOMReferrers attaches the release's SBOM of each platform's binary
// (<Project>_<version>_linux_<arch>.cdx.json in dir, which goreleaser's
// sboms section writes) to that platform's image in idx. A platform whose
// SBOM is missing is an error: an image never goes out without one.
func SBOMReferrers(dir, version string, idx v1.ImageIndex, created time.Time) ([]Referrer, error) {
	im, err := idx.IndexManifest()
	if err != nil {
		return nil, err
	}
	var refs []Referrer
	for _, m := range im.Manifests {
		if m.Platform == nil {
			return nil, fmt.Errorf("image: index entry %s has no platform", m.Digest)
		}
		name := fmt.Sprintf("%s_%s_%s_%s.cdx.json", Project, version, m.Platform.OS, m.Platform.Architecture)
		doc, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("image: the SBOM of linux/%s: %w", m.Platform.Architecture, err)
		}
		subject := v1.Descriptor{MediaType: m.MediaType, Size: m.Size, Digest: m.Digest}
		ref, err := referrer(subject, doc, name, created)
		if err != nil {
			return nil, err
		}
		refs = append(refs, ref)
	}
	return refs, nil
}

func referrer(subject v1.Descriptor, doc []byte, title string, created time.Time) (Referrer, error) {
	desc := func(mt types.MediaType, b []byte) (v1.Descriptor, error) {
		h, size, err := v1.SHA256(bytes.NewReader(b))
		return v1.Descriptor{MediaType: mt, Size: size, Digest: h}, err
	}
	config, err := desc("application/vnd.oci.empty.v1+json", emptyConfig)
	if err != nil {
		return Referrer{}, err
	}
	config.Data = emptyConfig
	layer, err := desc(SBOMMediaType, doc)
	if err != nil {
		return Referrer{}, err
	}
	layer.Annotations = map[string]string{"org.opencontainers.image.title": title}
	b, err := json.Marshal(v1.Manifest{
		SchemaVersion: 2,
		MediaType:     types.OCIManifestSchema1,
		ArtifactType:  SBOMMediaType,
		Config:        config,
		Layers:        []v1.Descriptor{layer},
		Subject:       &subject,
		Annotations:   map[string]string{"org.opencontainers.image.created": created.UTC().Format(time.RFC3339)},
	})
	if err != nil {
		return Referrer{}, err
	}
	return Referrer{manifest: b, blobs: [][]byte{emptyConfig, doc}}, nil
}

// appendReferrers adds each referrer's blobs and manifest to the layout at
// p, the manifest as an entry of its index.json (how an OCI layout holds
// referrers: a reader finds them by their subject).
func appendReferrers(p layout.Path, refs []Referrer) error {
	for _, r := range refs {
		for _, b := range append(r.Blobs(), r.manifest) {
			h, _, err := v1.SHA256(bytes.NewReader(b))
			if err != nil {
				return err
			}
			if err := p.WriteBlob(h, io.NopCloser(bytes.NewReader(b))); err != nil {
				return fmt.Errorf("image: write the SBOM referrer: %w", err)
			}
		}
		if err := p.AppendDescriptor(r.Descriptor()); err != nil {
			return fmt.Errorf("image: write the SBOM referrer: %w", err)
		}
	}
	return nil
}
