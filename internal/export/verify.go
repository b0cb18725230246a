package export

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// errMismatch is wrapped by every verification failure, so callers can
// tell a damaged bundle from an unreadable one with errors.Is.
var errMismatch = errors.New("bundle does not match its manifest")

// maxEntrySize bounds a file read before the archive's manifest, whose
// size nothing else vouches for yet.
var maxEntrySize int64 = 1 << 30

// safeName reports whether an archive or manifest path stays inside the
// bundle: relative, slash-separated, clean, without "..".
func safeName(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") || strings.ContainsRune(p, 0) {
		return false
	}
	if path.Clean(p) != p {
		return false
	}
	return p != ".." && !strings.HasPrefix(p, "../")
}

func decodeManifest(raw []byte) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("decode manifest.json: %w", err)
	}
	if m.Version != contentVersion(m.Files) {
		return nil, fmt.Errorf("%w: version %q is not the hash of its file list", errMismatch, m.Version)
	}
	seen := map[string]bool{}
	for _, f := range m.Files {
		if !safeName(f.Path) || f.Path == "manifest.json" {
			return nil, fmt.Errorf("%w: unsafe path %q in manifest", errMismatch, f.Path)
		}
		if seen[f.Path] {
			return nil, fmt.Errorf("%w: %s listed twice", errMismatch, f.Path)
		}
		seen[f.Path] = true
	}
	return &m, nil
}

// VerifyDir checks every file of dir against its manifest.json (size and
// sha256) and that nothing else is present, and returns the manifest.
func VerifyDir(dir string) (*Manifest, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, fmt.Errorf("verify: %w", err)
	}
	m, err := decodeManifest(raw)
	if err != nil {
		return nil, err
	}
	want := make(map[string]ManifestFile, len(m.Files))
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
		if d.IsDir() || rel == "manifest.json" {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%w: %s is not a regular file", errMismatch, rel)
		}
		f, ok := want[rel]
		if !ok {
			return fmt.Errorf("%w: %s is not in the manifest", errMismatch, rel)
		}
		delete(want, rel)
		return checkFile(p, f)
	})
	if err != nil {
		return nil, err
	}
	for _, f := range m.Files {
		if _, missing := want[f.Path]; missing {
			return nil, fmt.Errorf("%w: %s is missing", errMismatch, f.Path)
		}
	}
	return m, nil
}

func checkFile(p string, f ManifestFile) error {
	in, err := os.Open(p)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	defer in.Close() //nolint:errcheck // opened read-only: Close cannot lose data
	return checkStream(in, f)
}

func checkStream(r io.Reader, f ManifestFile) error {
	h := sha256.New()
	// Reading one byte past the listed size is enough to see a mismatch,
	// and bounds the work a hostile archive can cause.
	n, err := io.CopyN(h, r, f.Size+1)
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("verify %s: %w", f.Path, err)
	}
	if n != f.Size {
		return fmt.Errorf("%w: %s has %d bytes, manifest says %d", errMismatch, f.Path, n, f.Size)
	}
	if sum := hex.EncodeToString(h.Sum(nil)); sum != f.SHA256 {
		return fmt.Errorf("%w: %s has sha256 %s, manifest says %s", errMismatch, f.Path, sum, f.SHA256)
	}
	return nil
}

// VerifyArchive reads a tar.gz bundle and checks each entry against its
// manifest.json, which may come first (as Archive writes it) or anywhere
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
	var want map[string]ManifestFile
	// Entries read before the manifest are hashed and checked afterwards.
	early := map[string]ManifestFile{}
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
				return nil, fmt.Errorf("%w: unsafe path %q", errMismatch, hdr.Name)
			}
			continue
		}
		if hdr.Typeflag != tar.TypeReg {
			return nil, fmt.Errorf("%w: %s is not a regular file (links and devices are not allowed)", errMismatch, hdr.Name)
		}
		if !safeName(name) {
			return nil, fmt.Errorf("%w: unsafe path %q", errMismatch, hdr.Name)
		}
		if seen[name] {
			return nil, fmt.Errorf("%w: %s appears twice", errMismatch, name)
		}
		seen[name] = true
		if name == "manifest.json" {
			raw, err := io.ReadAll(io.LimitReader(tr, 64<<20))
			if err != nil {
				return nil, fmt.Errorf("verify archive: %w", err)
			}
			if m, err = decodeManifest(raw); err != nil {
				return nil, err
			}
			want = make(map[string]ManifestFile, len(m.Files))
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
				return nil, fmt.Errorf("%w: %s is %d bytes, more than a bundle file may be", errMismatch, name, hdr.Size)
			}
			h := sha256.New()
			n, err := io.CopyN(h, tr, hdr.Size)
			if err != nil {
				return nil, fmt.Errorf("verify archive: %w", err)
			}
			early[name] = ManifestFile{Path: name, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}
			continue
		}
		f, ok := want[name]
		if !ok {
			return nil, fmt.Errorf("%w: %s is not in the manifest", errMismatch, name)
		}
		if err := checkStream(tr, f); err != nil {
			return nil, err
		}
		delete(want, name)
	}
	if m == nil {
		return nil, fmt.Errorf("%w: no manifest.json in the archive", errMismatch)
	}
	for _, f := range m.Files {
		if _, missing := want[f.Path]; missing {
			return nil, fmt.Errorf("%w: %s is missing", errMismatch, f.Path)
		}
	}
	return m, nil
}

func sameFile(want map[string]ManifestFile, p string, got ManifestFile) error {
	f, ok := want[p]
	switch {
	case !ok:
		return fmt.Errorf("%w: %s is not in the manifest", errMismatch, p)
	case f.Size != got.Size || f.SHA256 != got.SHA256:
		return fmt.Errorf("%w: %s has sha256 %s, manifest says %s", errMismatch, p, got.SHA256, f.SHA256)
	}
	return nil
}
