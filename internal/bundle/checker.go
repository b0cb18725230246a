package bundle

import (
	"encoding/hex"
	"fmt"
)

// Checker verifies the files of an archive against its manifest while they
// stream past, for readers that meet the manifest first (as Write puts
// it): a file the manifest does not list, or of another size, is refused
// before a byte of it is written anywhere.
type Checker struct {
	m    *Manifest
	want map[string]File
}

// ParseManifest decodes and checks raw manifest.json bytes (version, paths,
// duplicates) without looking at any file.
func ParseManifest(raw []byte) (*Manifest, error) {
	if len(raw) > maxManifestSize {
		return nil, fmt.Errorf("%w: %s is %d bytes, more than a manifest may be", ErrMismatch, ManifestName, len(raw))
	}
	return decodeManifest(raw)
}

// NewChecker starts checking files against m.
func NewChecker(m *Manifest) *Checker {
	want := make(map[string]File, len(m.Files))
	for _, f := range m.Files {
		want[f.Path] = f
	}
	return &Checker{m: m, want: want}
}

// Expect admits the next file, announced with size, and returns its
// manifest entry; each listed file is admitted once.
func (c *Checker) Expect(name string, size int64) (File, error) {
	f, ok := c.want[name]
	switch {
	case !ok:
		return File{}, fmt.Errorf("%w: %s is not in the manifest (or appears twice)", ErrMismatch, name)
	case f.Size != size:
		return File{}, fmt.Errorf("%w: %s has %d bytes, manifest says %d", ErrMismatch, name, size, f.Size)
	}
	delete(c.want, name)
	return f, nil
}

// CheckSum compares the sha256 computed over a file with its entry.
func CheckSum(f File, sum []byte) error {
	if got := hex.EncodeToString(sum); got != f.SHA256 {
		return fmt.Errorf("%w: %s has sha256 %s, manifest says %s", ErrMismatch, f.Path, got, f.SHA256)
	}
	return nil
}

// Finish reports a listed file that never came.
func (c *Checker) Finish() error {
	for _, f := range c.m.Files {
		if _, missing := c.want[f.Path]; missing {
			return fmt.Errorf("%w: %s is missing", ErrMismatch, f.Path)
		}
	}
	return nil
}
