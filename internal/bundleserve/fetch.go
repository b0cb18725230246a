package bundleserve

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
)

// Limits on what one bundle may unpack to, so a hostile or broken archive
// cannot fill the disk.
const (
	maxBundleFiles = 200_000
	maxBundleBytes = 8 << 30
)

// fetch downloads the bundle at link and unpacks it into a new directory
// under tmpRoot, then checks every file against manifest.json. It returns
// the directory and the manifest; on any error nothing is left behind.
func fetch(ctx context.Context, hc *http.Client, link, tmpRoot string) (string, *bundle.Manifest, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, link, nil)
	if err != nil {
		return "", nil, fmt.Errorf("bundle link is not a valid URL")
	}
	resp, err := hc.Do(req)
	if err != nil {
		// The error text of net/http quotes the URL, signature included.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return "", nil, fmt.Errorf("download bundle: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", nil, fmt.Errorf("download bundle: HTTP %d%s", resp.StatusCode, serverReason(resp.Body))
	}
	dir, err := os.MkdirTemp(tmpRoot, ".unpack-")
	if err != nil {
		return "", nil, fmt.Errorf("unpack bundle: %w", err)
	}
	if err := unpack(resp.Body, dir); err != nil {
		_ = os.RemoveAll(dir)
		return "", nil, fmt.Errorf("unpack bundle: %w", err)
	}
	man, err := bundle.VerifyDir(dir)
	if err != nil {
		_ = os.RemoveAll(dir)
		return "", nil, fmt.Errorf("verify bundle: %w", err)
	}
	return dir, man, nil
}

// serverReason extracts the JSON error of a failed download, if any, so the
// log says "link has expired" rather than only "403".
func serverReason(body io.Reader) string {
	var e api.Error
	if json.NewDecoder(io.LimitReader(body, 4096)).Decode(&e) == nil && e.Error != "" {
		return ": " + e.Error
	}
	return ""
}

// unpack extracts a tar.gz into dir. Only regular files and directories
// with local paths are accepted: no links, no devices, no "..", no
// absolute names.
func unpack(r io.Reader, dir string) error {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return err
	}
	defer gz.Close()
	tr := tar.NewReader(gz)
	var files int
	var total int64
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.FromSlash(hdr.Name)
		if !filepath.IsLocal(name) {
			return fmt.Errorf("entry %q is not a local path", hdr.Name)
		}
		target := filepath.Join(dir, name)
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
			continue
		case tar.TypeReg:
		default:
			return fmt.Errorf("entry %q is not a regular file", hdr.Name)
		}
		files++
		total += hdr.Size
		if files > maxBundleFiles || total > maxBundleBytes {
			return fmt.Errorf("bundle exceeds %d files or %d bytes", maxBundleFiles, int64(maxBundleBytes))
		}
		if err := writeEntry(target, tr, hdr.Size); err != nil {
			return fmt.Errorf("entry %q: %w", hdr.Name, err)
		}
	}
}

func writeEntry(target string, r io.Reader, size int64) error {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	// O_EXCL: an archive that names a file twice is rejected, not merged.
	f, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = io.CopyN(f, r, size)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
