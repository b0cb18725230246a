package bundle

import (
	"archive/tar"
	"bytes"
	"context"
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
	var m Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Errorf("archive: decode manifest: %w", err)
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	gz, err := newParallelGzip(w, workers)
	if err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	err = writeTar(ctx, gz, dir, raw, m.Files)
	if cerr := gz.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("archive: %w", cerr)
	}
	return err
}

// writeTar writes the manifest and then every file it lists.
func writeTar(ctx context.Context, w io.Writer, dir string, manifest []byte, files []File) error {
	tw := tar.NewWriter(w)
	if err := writeEntry(tw, ManifestName, int64(len(manifest)), bytes.NewReader(manifest)); err != nil {
		return err
	}
	for i, f := range files {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("archive cancelled: %w", err)
			}
		}
		if err := archiveFile(tw, dir, f); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	return nil
}

func archiveFile(tw *tar.Writer, dir string, f File) error {
	if !safeName(f.Path) {
		return fmt.Errorf("archive: manifest lists unsafe path %q", f.Path)
	}
	in, err := os.Open(filepath.Join(dir, filepath.FromSlash(f.Path)))
	if err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	defer in.Close() //nolint:errcheck // opened read-only: Close cannot lose data
	st, err := in.Stat()
	if err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	if !st.Mode().IsRegular() || st.Size() != f.Size {
		return fmt.Errorf("archive: %s does not match the manifest (size %d, want %d)", f.Path, st.Size(), f.Size)
	}
	return writeEntry(tw, f.Path, f.Size, in)
}

func writeEntry(tw *tar.Writer, name string, size int64, r io.Reader) error {
	hdr := &tar.Header{
		Typeflag: tar.TypeReg,
		Name:     name,
		Size:     size,
		Mode:     0o644,
		ModTime:  archiveTime,
		Format:   tar.FormatPAX, // long paths without GNU extensions
	}
	if err := tw.WriteHeader(hdr); err != nil {
		return fmt.Errorf("archive %s: %w", name, err)
	}
	if _, err := io.CopyN(tw, r, size); err != nil {
		return fmt.Errorf("archive %s: %w", name, err)
	}
	return nil
}
