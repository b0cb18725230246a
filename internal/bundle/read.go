package bundle

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
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

// FetchManifest downloads the head of the archive at link with hc and
// returns its manifest (see ReadManifest). It is for clients of a server
// that does not report the content version. hc should have a Timeout: a
// stalled server must not hang the caller. Errors never quote link, which
// is a credential until it expires.
func FetchManifest(ctx context.Context, hc *http.Client, link string) (*Manifest, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, link, nil)
	if err != nil {
		return nil, errors.New("fetch manifest: bundle link is not a valid URL")
	}
	resp, err := hc.Do(req)
	if err != nil {
		// net/http's error text quotes the URL, signature included.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("fetch manifest: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("fetch manifest: download answered HTTP %d", resp.StatusCode)
	}
	return ReadManifest(resp.Body)
}
