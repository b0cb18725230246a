package releasetest

import (
	"maps"
	"os"
	"path/filepath"
	"testing"
)

// TestSnapshot builds the snapshot of HEAD into the cache, or finds it
// there. make test runs it alone, with a long timeout, before the suites,
// so that a cold build (many minutes on two cores) is not charged to the
// first release test that happens to need it.
func TestSnapshot(t *testing.T) {
	r := Snapshot(t)
	for _, f := range []string{r.Zip(r.Platform), r.SBOM(r.Platform), r.SumsFile(), r.SumsFile() + ".sig"} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("the snapshot lacks %s: %v", f, err)
		}
	}
}

// TestSnapshot_reproducible builds HEAD's snapshot a second time, apart
// from the cached one, and compares: the same zips and SBOMs (SHA256SUMS
// lists both), the same SHA256SUMS and the same image digest (only the signature differs: each build signs with
// a key of its own). It costs a second build, so it runs where asked:
// make release-reproducible (DOCSADMIN_RELEASE_REPRODUCIBLE=1).
func TestSnapshot_reproducible(t *testing.T) {
	if os.Getenv("DOCSADMIN_RELEASE_REPRODUCIBLE") == "" {
		t.Skip("builds the release a second time: make release-reproducible runs it (DOCSADMIN_RELEASE_REPRODUCIBLE=1)")
	}
	first := Snapshot(t)
	dir := t.TempDir()
	if err := snapshot(t, first.Root, dir, filepath.Join(dir, "second")); err != nil {
		t.Fatal(err)
	}
	second := first
	second.Dir = filepath.Join(dir, "second")
	a, b := first.Sums(t), second.Sums(t)
	if len(a) == 0 || !maps.Equal(a, b) {
		t.Errorf("two builds of %s: SHA256SUMS differ:\n%v\n%v", first.Commit, a, b)
	}
	for name, sum := range a {
		t.Logf("%s  %s", sum, name)
	}
	var digests [2]string
	for i, r := range []Release{first, second} {
		idx, err := BuildImage(r.Dir, r.Commit, r.Created)
		if err != nil {
			t.Fatal(err)
		}
		d, err := idx.Digest()
		if err != nil {
			t.Fatal(err)
		}
		digests[i] = d.String()
	}
	t.Logf("image digest, first build: %s; second build: %s", digests[0], digests[1])
	if digests[0] != digests[1] {
		t.Errorf("two builds of %s: image digests %s and %s", first.Commit, digests[0], digests[1])
	}
}
