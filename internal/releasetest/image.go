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

// Registry serves go-containerregistry's in-memory registry on loopback
// until the test ends and returns its host:port.
func Registry(t testing.TB) string {
	t.Helper()
	srv := httptest.NewServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
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
