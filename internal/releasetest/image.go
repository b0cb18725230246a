package releasetest

import (
	"io"
	"log"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/static"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/image"
)

var (
	imageOnce sync.Once
	imageIdx  v1.ImageIndex
	imageErr  error
)

// Image builds the release's container image from the snapshot's linux
// zips, in this process, with the options make release-snapshot gives
// buildimage (so the digest is the one it prints for the same commit).
func (r Release) Image(t testing.TB) v1.ImageIndex {
	t.Helper()
	imageOnce.Do(func() { imageIdx, imageErr = BuildImage(r.Dir, r.Commit, r.Created) })
	if imageErr != nil {
		t.Fatalf("build the image: %v", imageErr)
	}
	return imageIdx
}

// BuildImage builds the image of the release in dir as buildimage does.
func BuildImage(dir, commit string, created int64) (v1.ImageIndex, error) {
	idx, _, err := image.FromRelease(dir, image.Options{Revision: commit, Created: time.Unix(created, 0)})
	return idx, err
}

// Registry serves go-containerregistry's in-memory registry, with the OCI
// 1.1 referrers API, on loopback until the test ends and returns its
// host:port.
func Registry(t testing.TB) string {
	t.Helper()
	srv := httptest.NewServer(registry.New(registry.Logger(log.New(io.Discard, "", 0)), registry.WithReferrersSupport(true)))
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://")
}

// Push pushes idx to the registry at host as
// <host>/docsadmin/terraform-provider-docsadmin:<tag> and returns that
// reference.
func Push(t testing.TB, host, tag string, idx v1.ImageIndex) name.Tag {
	t.Helper()
	ref, err := name.NewTag(host+"/docsadmin/"+image.Project+":"+tag, name.Insecure)
	if err != nil {
		t.Fatal(err)
	}
	if err := remote.WriteIndex(ref, idx, remote.WithContext(t.Context())); err != nil {
		t.Fatalf("push %s: %v", ref, err)
	}
	return ref
}

// PushSBOMs pushes the release's SBOM referrers of idx (image.SBOMReferrers)
// into ref's repository, blobs first, each manifest by its digest.
func (r Release) PushSBOMs(t testing.TB, ref name.Tag, idx v1.ImageIndex) []image.Referrer {
	t.Helper()
	refs, err := image.SBOMReferrers(r.Dir, r.Version, idx, time.Unix(r.Created, 0))
	if err != nil {
		t.Fatal(err)
	}
	opt := remote.WithContext(t.Context())
	for _, rf := range refs {
		for _, b := range rf.Blobs() {
			if err := remote.WriteLayer(ref.Context(), static.NewLayer(b, image.SBOMMediaType), opt); err != nil {
				t.Fatalf("push an SBOM blob: %v", err)
			}
		}
		if err := remote.Put(ref.Context().Digest(rf.Descriptor().Digest.String()), rf, opt); err != nil {
			t.Fatalf("push the SBOM referrer: %v", err)
		}
	}
	return refs
}
