package bundle

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"time"
)

// archiveTime is the modification time of every archive entry. A fixed
// time (rather than the files' own) is what makes archives reproducible;
// 2000-01-01 avoids tools that treat the Unix epoch as "no time".
var archiveTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// Write streams a deterministic tar.gz of the bundle directory dir to w:
// manifest.json first (so ReadManifest needs only the head of the stream),
// then the files of the manifest in its (sorted) order, with fixed times,
// owners and modes. Only files listed in the manifest are packed, one at a
// time, so memory stays flat whatever the size of the site. workers is how
// many blocks are compressed at once; 0 means GOMAXPROCS. It changes the
// speed, never the bytes.
func Write(ctx context.Context, dir string, w io.Writer, workers int) error {
	raw, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		return fmt.Errorf("archive: read manifest: %w", err)
	}
	return WriteFrom(ctx, w, workers, raw, func(f File) (io.ReadCloser, error) { return openListed(dir, f) })
}

// Opener returns the content of a file of the manifest, exactly f.Size
// bytes. WriteFrom asks for the files in manifest order, one at a time,
// and closes each before it asks for the next, so an opener may read
// them from one sequential stream (a site kept as tar packs in an object
// store, say).
type Opener func(f File) (io.ReadCloser, error)

// WriteFrom is Write for a bundle that is not a local directory: the
// manifest's raw bytes, and open for each file it lists. The archive is
// byte for byte what Write makes of the same bundle.
func WriteFrom(ctx context.Context, w io.Writer, workers int, manifest []byte, open Opener) error {
	return WriteReusing(ctx, w, workers, manifest, open, nil)
}

// WriteReusing is WriteFrom copying from prev, an earlier archive, the
// compressed members of every file that did not change instead of
// compressing it again (and then not opening it). The archive is byte
// for byte the one WriteFrom makes; prev may be nil.
func WriteReusing(ctx context.Context, w io.Writer, workers int, manifest []byte, open Opener, prev *Reuse) error {
	var m Manifest
	if err := json.Unmarshal(manifest, &m); err != nil {
		return fmt.Errorf("archive: decode manifest: %w", err)
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	gz := newMemberGzip(w, workers)
	err := writeTar(ctx, gz, manifest, m.Files, open, prev)
	if cerr := gz.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("archive: %w", cerr)
	}
	return err
}

// writeTar writes the manifest, then every file it lists, then the
// end-of-archive blocks. Each is a tar entry (header, content, padding);
// the files are compressed in groups of consecutive entries (groups),
// the manifest and the end in members of their own.
func writeTar(ctx context.Context, z *memberGzip, manifest []byte, files []File, open Opener, prev *Reuse) error {
	sum := sha256.Sum256(manifest)
	if err := writeGroup(z, []File{{Path: ManifestName, Size: int64(len(manifest)), SHA256: hex.EncodeToString(sum[:])}},
		func(File) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(manifest)), nil }, prev); err != nil {
		return err
	}
	for i, g := range groups(files) {
		if i%8 == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("archive cancelled: %w", err)
			}
		}
		if err := writeGroup(z, g, open, prev); err != nil {
			return err
		}
	}
	// What tar.Writer.Close writes: two zero blocks.
	z.beginEntry(memberTag{})
	if _, err := z.Write(make([]byte, 2*blockSize)); err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	if err := z.endEntry(); err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	return nil
}

// blockSize is tar's unit: headers are one or more blocks, and content
// is padded with zeros to a whole number of them.
const blockSize = 512

// Files are compressed in groups: pages of one site share much (the
// sidebar, the head), and compressed one by one they made an archive
// twice the size of one stream. A group begins at a file whose path
// hashes below 1/groupFiles of the range, so a file added or removed
// changes only its own group, not the ones after it; a group also ends
// past maxGroupFiles files or gzipBlock bytes.
const (
	groupFiles    = 16
	maxGroupFiles = 4 * groupFiles
)

// groups cuts files (in manifest order) into the runs compressed
// together.
func groups(files []File) [][]File {
	var out [][]File
	start, size := 0, int64(0)
	for i, f := range files {
		if i > start && (groupStart(f.Path) || i-start >= maxGroupFiles || size >= gzipBlock) {
			out = append(out, files[start:i])
			start, size = i, 0
		}
		size += blockSize + padded(f.Size)
	}
	if start < len(files) {
		out = append(out, files[start:])
	}
	return out
}

func groupStart(path string) bool {
	h := sha256.Sum256([]byte(path))
	return h[0] < 256/groupFiles
}

// writeGroup writes the tar entries of the files g: copied from prev if
// it holds that very group, otherwise read with open and compressed.
// The members of a group are tagged with its first path and a hash of
// every file's path, size and content (groupKey).
func writeGroup(z *memberGzip, g []File, open Opener, prev *Reuse) error {
	hdrs := make([][]byte, len(g))
	var total int64
	for i, f := range g {
		if !safeName(f.Path) {
			return fmt.Errorf("archive: manifest lists unsafe path %q", f.Path)
		}
		if len(f.SHA256) != 2*sha256.Size {
			return fmt.Errorf("archive: manifest gives %s no valid SHA-256", f.Path)
		}
		hdr, err := tarHeader(f.Path, f.Size)
		if err != nil {
			return err
		}
		hdrs[i] = hdr
		total += int64(len(hdr)) + padded(f.Size)
	}
	tag := memberTag{path: g[0].Path, sum: groupKey(g)}
	if data, ok := prev.take(tag, total, len(g)); ok {
		if err := z.copied(data); err != nil {
			return fmt.Errorf("archive: %w", err)
		}
		return nil
	}
	z.beginEntry(tag)
	for i, f := range g {
		if err := writeEntry(z, f, hdrs[i], open); err != nil {
			return err
		}
	}
	if err := z.endEntry(); err != nil {
		return fmt.Errorf("archive %s: %w", g[0].Path, err)
	}
	return nil
}

// groupKey is the hash of the paths, sizes and content hashes of g.
func groupKey(g []File) [sha256.Size]byte {
	h := sha256.New()
	for _, f := range g {
		_, _ = fmt.Fprintf(h, "%s\x00%d\x00%s\n", f.Path, f.Size, f.SHA256) // a hash never fails to write
	}
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// writeEntry writes the tar entry of f, whose header is hdr, reading its
// content with open.
func writeEntry(z *memberGzip, f File, hdr []byte, open Opener) error {
	in, err := open(f)
	if err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	defer in.Close() // read-only: Close cannot lose data
	if _, err := z.Write(hdr); err != nil {
		return fmt.Errorf("archive %s: %w", f.Path, err)
	}
	if _, err := CopyN(z, in, f.Size); err != nil {
		return fmt.Errorf("archive %s: %w", f.Path, err)
	}
	if pad := padded(f.Size) - f.Size; pad > 0 {
		if _, err := z.Write(make([]byte, pad)); err != nil {
			return fmt.Errorf("archive %s: %w", f.Path, err)
		}
	}
	return nil
}

// openListed opens a file of the bundle directory dir, checking that it
// is the regular file of the size the manifest gives.
func openListed(dir string, f File) (io.ReadCloser, error) {
	in, err := os.Open(filepath.Join(dir, filepath.FromSlash(f.Path)))
	if err != nil {
		return nil, err
	}
	st, err := in.Stat()
	if err != nil {
		_ = in.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() != f.Size {
		_ = in.Close()
		return nil, fmt.Errorf("%s does not match the manifest (size %d, want %d)", f.Path, st.Size(), f.Size)
	}
	return in, nil
}

// entryHeader is the tar header of every entry: a regular file with
// fixed times, owners and mode.
func entryHeader(name string, size int64) *tar.Header {
	return &tar.Header{
		Typeflag: tar.TypeReg,
		Name:     name,
		Size:     size,
		Mode:     0o644,
		ModTime:  archiveTime,
		Format:   tar.FormatPAX, // long paths without GNU extensions
	}
}
