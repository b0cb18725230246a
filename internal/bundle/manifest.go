// Package bundle is the format of a static export bundle: a directory or a
// deterministic tar.gz whose manifest.json lists every other file with its
// size and SHA-256, and whose content version is a hash of that list.
//
// The renderer (internal/export) writes sites in this format; the reference
// server packs them; serve-bundle and the rollout CLI read and verify them.
// Keeping the format here lets the readers depend on it without pulling in
// the renderer, and keeps one definition of what a valid bundle is.
package bundle

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// ManifestName is the manifest's file name at the bundle root. It is the
// API's name for it, so server, renderer and readers cannot drift apart.
const ManifestName = api.ManifestFileName

// maxManifestSize bounds how much of an archive entry is read as the
// manifest: far above any real site, far below what would exhaust memory.
const maxManifestSize = 64 << 20

// ErrMismatch is wrapped by every verification failure, so callers can tell
// a damaged or hostile bundle from an unreadable one with errors.Is.
var ErrMismatch = errors.New("bundle does not match its manifest")

// Manifest is written as manifest.json at the root of every bundle. It holds
// no timestamps, so that the same source exports to the same bytes.
type Manifest struct {
	// Version is the content version: a hash over the file list (see
	// ContentVersion), so it changes exactly when the content does.
	Version string `json:"version"`
	Label   string `json:"label,omitempty"`
	Domain  string `json:"domain"`
	// Kind is the deployment kind the site was rendered for. The format
	// records it without judging it; the renderer owns the set of kinds.
	Kind      string          `json:"kind"`
	Features  map[string]bool `json:"features"`
	PageCount int             `json:"pageCount"`
	Files     []File          `json:"files"`
}

// File is one file of the bundle other than manifest.json itself.
type File struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// ContentVersion hashes a file list sorted by path. Only paths, sizes and
// hashes go in, so two exports of the same content share a version however
// and whenever they were made.
func ContentVersion(files []File) string {
	h := sha256.New()
	for _, f := range files {
		_, _ = fmt.Fprintf(h, "%s\x00%d\x00%s\n", f.Path, f.Size, f.SHA256) // hashes do not fail
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// WriteManifest sorts m.Files, stamps m.Version with their content version
// and writes m as dir/manifest.json. Stamping here, rather than trusting the
// caller, is what makes every written manifest pass decodeManifest.
func WriteManifest(dir string, m *Manifest) error {
	data, err := EncodeManifest(m)
	if err != nil {
		return err
	}
	// 0644: the site is served by a web server that may run as another user.
	if err := os.WriteFile(filepath.Join(dir, ManifestName), data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", ManifestName, err)
	}
	return nil
}

// EncodeManifest sorts m.Files, stamps m.Version with their content
// version and returns m as manifest.json's bytes.
func EncodeManifest(m *Manifest) ([]byte, error) {
	sort.Slice(m.Files, func(a, b int) bool { return m.Files[a].Path < m.Files[b].Path })
	m.Version = ContentVersion(m.Files)
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", ManifestName, err)
	}
	return append(data, '\n'), nil
}

// decodeManifest parses a manifest and checks what it can on its own: the
// version matches the file list, and every path is safe and listed once.
func decodeManifest(raw []byte) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("decode %s: %w", ManifestName, err)
	}
	if m.Version != ContentVersion(m.Files) {
		return nil, fmt.Errorf("%w: version %q is not the hash of its file list", ErrMismatch, m.Version)
	}
	seen := map[string]bool{}
	for _, f := range m.Files {
		if !safeName(f.Path) || f.Path == ManifestName {
			return nil, fmt.Errorf("%w: unsafe path %q in manifest", ErrMismatch, f.Path)
		}
		if seen[f.Path] {
			return nil, fmt.Errorf("%w: %s listed twice", ErrMismatch, f.Path)
		}
		seen[f.Path] = true
	}
	return &m, nil
}

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
