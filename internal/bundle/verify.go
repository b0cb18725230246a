package bundle

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxEntrySize bounds a file read before the archive's manifest, whose
// size nothing else vouches for yet.
var maxEntrySize int64 = 1 << 30

// VerifyDir checks every file of dir against its manifest.json (size and
// sha256) and that nothing else is present, and returns the manifest.
func VerifyDir(dir string) (*Manifest, error) {
	raw, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	m, err := decodeManifest(raw)
	if err != nil {
		return nil, err
	}
	want := make(map[string]File, len(m.Files))
	for _, f := range m.Files {
		want[f.Path] = f
	}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() || rel == ManifestName {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%w: %s is not a regular file", ErrMismatch, rel)
		}
		f, ok := want[rel]
		if !ok {
			return fmt.Errorf("%w: %s is not in the manifest", ErrMismatch, rel)
		}
		delete(want, rel)
		return checkFile(p, f)
	})
	if err != nil {
		return nil, err
	}
	for _, f := range m.Files {
		if _, missing := want[f.Path]; missing {
			return nil, fmt.Errorf("%w: %s is missing", ErrMismatch, f.Path)
		}
	}
	return m, nil
}

func checkFile(p string, f File) error {
	in, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	defer in.Close() //nolint:errcheck // opened read-only: Close cannot lose data
	return checkStream(in, f)
}

func checkStream(r io.Reader, f File) error {
	h := sha256.New()
	// Reading one byte past the listed size is enough to see a mismatch,
	// and bounds the work a hostile archive can cause.
	n, err := CopyN(h, r, f.Size+1)
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("verify %s: %w", f.Path, err)
	}
	if n != f.Size {
		return fmt.Errorf("%w: %s has %d bytes, manifest says %d", ErrMismatch, f.Path, n, f.Size)
	}
	if sum := hex.EncodeToString(h.Sum(nil)); sum != f.SHA256 {
		return fmt.Errorf("%w: %s has sha256 %s, manifest says %s", ErrMismatch, f.Path, sum, f.SHA256)
	}
	return nil
}

// VerifyArchive reads a tar.gz bundle and checks each entry against its
// manifest.json, which may come first (as Write writes it) or anywhere
// later. It rejects absolute and ".." paths, links and special files, and
// returns the manifest.
func VerifyArchive(r io.Reader) (*Manifest, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("verify archive: %w", err)
	}
	defer gz.Close()
	tr := tar.NewReader(gz)
	var m *Manifest
	var want map[string]File
	// Entries read before the manifest are hashed and checked afterwards.
	early := map[string]File{}
	seen := map[string]bool{}
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("verify archive: %w", err)
		}
		name := strings.TrimPrefix(hdr.Name, "./")
		if hdr.Typeflag == tar.TypeDir {
			if !safeName(strings.TrimSuffix(name, "/")) {
				return nil, fmt.Errorf("%w: unsafe path %q", ErrMismatch, hdr.Name)
			}
			continue
		}
		if hdr.Typeflag != tar.TypeReg {
			return nil, fmt.Errorf("%w: %s is not a regular file (links and devices are not allowed)", ErrMismatch, hdr.Name)
		}
		if !safeName(name) {
			return nil, fmt.Errorf("%w: unsafe path %q", ErrMismatch, hdr.Name)
		}
		if seen[name] {
			return nil, fmt.Errorf("%w: %s appears twice", ErrMismatch, name)
		}
		seen[name] = true
		if name == ManifestName {
			raw, err := io.ReadAll(io.LimitReader(tr, maxManifestSize))
			if err != nil {
				return nil, fmt.Errorf("verify archive: %w", err)
			}
			if m, err = decodeManifest(raw); err != nil {
				return nil, err
			}
			want = make(map[string]File, len(m.Files))
			for _, f := range m.Files {
				want[f.Path] = f
			}
			for p, got := range early {
				if err := sameFile(want, p, got); err != nil {
					return nil, err
				}
				delete(want, p)
			}
			continue
		}
		if m == nil {
			if hdr.Size > maxEntrySize {
				return nil, fmt.Errorf("%w: %s is %d bytes, more than a bundle file may be", ErrMismatch, name, hdr.Size)
			}
			h := sha256.New()
			n, err := CopyN(h, tr, hdr.Size)
			if err != nil {
				return nil, fmt.Errorf("verify archive: %w", err)
			}
			early[name] = File{Path: name, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}
			continue
		}
		f, ok := want[name]
		if !ok {
			return nil, fmt.Errorf("%w: %s is not in the manifest", ErrMismatch, name)
		}
		if err := checkStream(tr, f); err != nil {
			return nil, err
		}
		delete(want, name)
	}
	if m == nil {
		return nil, fmt.Errorf("%w: no %s in the archive", ErrMismatch, ManifestName)
	}
	for _, f := range m.Files {
		if _, missing := want[f.Path]; missing {
			return nil, fmt.Errorf("%w: %s is missing", ErrMismatch, f.Path)
		}
	}
	return m, nil
}

func sameFile(want map[string]File, p string, got File) error {
	f, ok := want[p]
	switch {
	case !ok:
		return fmt.Errorf("%w: %s is not in the manifest", ErrMismatch, p)
	case f.Size != got.Size || f.SHA256 != got.SHA256:
		return fmt.Errorf("%w: %s has sha256 %s, manifest says %s", ErrMismatch, p, got.SHA256, f.SHA256)
	}
	return nil
}
