package bundle

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"io"
)

// ReadManifest reads the manifest of an archive made by Write, which puts
// it first: only the head of the stream is read, so a caller that wants the
// content version need not download the whole bundle. The manifest is
// checked on its own (version, paths) but the files are not; use
// VerifyArchive for that. An archive whose first entry is not the manifest
// is an error wrapping ErrMismatch rather than a reason to read on.
func ReadManifest(r io.Reader) (*Manifest, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	defer gz.Close()
	tr := tar.NewReader(gz)
	hdr, err := tr.Next()
	if err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	if hdr.Typeflag != tar.TypeReg || hdr.Name != ManifestName {
		return nil, fmt.Errorf("%w: the archive does not start with %s", ErrMismatch, ManifestName)
	}
	if hdr.Size > maxManifestSize {
		return nil, fmt.Errorf("%w: %s is %d bytes, more than a manifest may be", ErrMismatch, ManifestName, hdr.Size)
	}
	raw := make([]byte, hdr.Size)
	// Fewer bytes than the header promised is a truncated download.
	if _, err := io.ReadFull(tr, raw); err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	return decodeManifest(raw)
}
