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
	var m Manifest
	if err := json.Unmarshal(manifest, &m); err != nil {
		return fmt.Errorf("archive: decode manifest: %w", err)
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	gz, err := newParallelGzip(w, workers)
	if err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	err = writeTar(ctx, gz, manifest, m.Files, open)
	if cerr := gz.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("archive: %w", cerr)
	}
	return err
}

// writeTar writes the manifest and then every file it lists.
func writeTar(ctx context.Context, w io.Writer, manifest []byte, files []File, open Opener) error {
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
		if !safeName(f.Path) {
			return fmt.Errorf("archive: manifest lists unsafe path %q", f.Path)
		}
		in, err := open(f)
		if err != nil {
			return fmt.Errorf("archive: %w", err)
		}
		err = writeEntry(tw, f.Path, f.Size, in)
		_ = in.Close() // read-only: Close cannot lose data
		if err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return fmt.Errorf("archive: %w", err)
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
	if _, err := CopyN(tw, r, size); err != nil {
		return fmt.Errorf("archive %s: %w", name, err)
	}
	return nil
}
