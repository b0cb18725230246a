package bundle

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ErrCarried is the error of reading a carried file (Spool.Carry): its
// content is in the earlier archive only, and that archive did not hold
// the file's group unchanged.
var ErrCarried = errors.New("the file was carried from the earlier archive, which no longer holds it unchanged")

// Carry records that the bundle's file f is byte for byte the file of
// the same path in the earlier archive (ReuseArchive), without its
// content: WriteArchive copies it from there with its group. The caller
// must make sure that group is copied (CopiedGroups); otherwise, or if
// the earlier archive turns out not to hold it, WriteArchive fails with
// ErrCarried. Writing the file afterwards replaces what was carried.
func (s *Spool) Carry(f File) error {
	if !safeName(f.Path) {
		return fmt.Errorf("spool: unsafe path %q", f.Path)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.creating[f.Path] {
		return fmt.Errorf("carry %s: the file is open for writing", f.Path)
	}
	delete(s.files, f.Path)
	if s.carried == nil {
		s.carried = map[string]int64{}
	}
	s.carried[f.Path] = f.Size
	return nil
}

// Carried reports how many files are carried (Carry) and not written
// since.
func (s *Spool) Carried() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.carried)
}

// SetSidecar keeps data beside the bundle, outside its archive: what the
// export that made the bundle wants a later export of the same site to
// know (the renderer's record of each page). The store keeps it with
// the archive.
func (s *Spool) SetSidecar(data []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sidecar = slices.Clone(data)
}

// Sidecar is what SetSidecar kept, nil if nothing.
func (s *Spool) Sidecar() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sidecar
}

// CopiedGroups returns the paths of next (a manifest's files) whose
// archive entries an archive of prev (an earlier manifest's files) holds
// compressed verbatim, which WriteArchive copies rather than compresses:
// those whose whole group (groups) is in prev's archive with the same
// first path, paths, sizes and hashes. Neither list need be sorted.
func CopiedGroups(prev, next []File) map[string]bool {
	sorted := func(fs []File) []File {
		fs = slices.Clone(fs)
		slices.SortFunc(fs, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
		return fs
	}
	old := map[string][32]byte{}
	for _, g := range groups(sorted(prev)) {
		old[g[0].Path] = groupKey(g)
	}
	out := map[string]bool{}
	for _, g := range groups(sorted(next)) {
		if k, ok := old[g[0].Path]; ok && k == groupKey(g) {
			for _, f := range g {
				out[f.Path] = true
			}
		}
	}
	return out
}
