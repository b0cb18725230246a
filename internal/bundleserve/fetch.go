package bundleserve

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
)

// Limits on what one bundle may unpack to, so a hostile or broken archive
// cannot fill the disk or its inode table. Every archive entry counts
// against maxBundleEntries, directories included. Variables, so a test
// can lower them.
var (
	maxBundleEntries       = 200_000
	maxBundleBytes   int64 = 8 << 30
)

// Why a download was cut short by fetch itself rather than by the caller.
var (
	// errStalled ends a download that received nothing for the stall timeout.
	errStalled = errors.New("stalled")
	// errTooSlow ends a download that flows, but too slowly: an upstream
	// trickling a byte a second would otherwise hold the update (and the
	// next bundle) for as long as it likes while the probes say ok.
	errTooSlow = errors.New("too slow")
	// errDeadline ends a download that has run for its whole time limit.
	errDeadline = errors.New("deadline")
)

// limits bound one download.
type limits struct {
	// stall is how long nothing at all may arrive (headers included).
	stall time.Duration
	// minRate is the fewest bytes a second the body must average over
	// every window of stall once the headers have arrived; 0 is no floor.
	minRate int64
	// deadline bounds the whole download; 0 is no bound.
	deadline time.Duration
}

// fetch downloads the bundle at link and unpacks it into a new directory
// under tmpRoot, then checks every file against manifest.json. It returns
// the directory and the manifest; on any error nothing is left behind.
// The download is given up once no byte has arrived (headers included)
// for lim.stall, once the body brings fewer than lim.minRate bytes a
// second over a window of lim.stall, or past lim.deadline.
func fetch(ctx context.Context, hc *http.Client, link, tmpRoot string, lim limits) (string, *bundle.Manifest, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if lim.deadline > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeoutCause(ctx, lim.deadline, errDeadline)
		defer stop()
	}
	watchdog := time.AfterFunc(lim.stall, func() { cancel(errStalled) })
	defer watchdog.Stop()
	cut := func() error {
		switch cause := context.Cause(ctx); {
		case errors.Is(cause, errStalled):
			return fail(reasonDownloadStalled, fmt.Errorf("download bundle: stalled: no bytes for %s", lim.stall))
		case errors.Is(cause, errTooSlow):
			return fail(reasonDownloadTooSlow, fmt.Errorf("download bundle: too slow: under %d bytes/s over %s", lim.minRate, lim.stall))
		case errors.Is(cause, errDeadline):
			return fail(reasonDownloadTooSlow, fmt.Errorf("download bundle: not done within %s", lim.deadline))
		}
		return nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, link, nil)
	if err != nil {
		return "", nil, fail(reasonLinkInvalid, errors.New("bundle link is not a valid URL"))
	}
	resp, err := hc.Do(req)
	if err != nil {
		if cerr := cut(); cerr != nil {
			return "", nil, cerr
		}
		// The error text of net/http quotes the URL, signature included.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		var re *redirectError
		if errors.As(err, &re) {
			return "", nil, fail(reasonRedirectRefused, fmt.Errorf("download bundle: %w", err))
		}
		return "", nil, fail(reasonDownloadFailed, fmt.Errorf("download bundle: %w", err))
	}
	defer resp.Body.Close()
	body := &flowReader{r: resp.Body, watchdog: watchdog, stall: lim.stall}
	if lim.minRate > 0 {
		floor := max(1, lim.minRate*int64(lim.stall)/int64(time.Second))
		go watchRate(ctx, body, lim.stall, floor, cancel)
	}
	if resp.StatusCode != http.StatusOK {
		return "", nil, fail(reasonDownloadFailed, fmt.Errorf("download bundle: HTTP %d%s", resp.StatusCode, serverReason(body)))
	}
	dir, err := os.MkdirTemp(tmpRoot, ".unpack-")
	if err != nil {
		return "", nil, fail(reasonInstallFailed, fmt.Errorf("unpack bundle: %w", err))
	}
	man, err := unpack(body, dir)
	if err != nil {
		_ = os.RemoveAll(dir)
		switch cerr := cut(); {
		case cerr != nil:
			return "", nil, cerr
		case body.failed.Load():
			// The connection failed mid-way: the bundle may be fine.
			return "", nil, fail(reasonDownloadFailed, fmt.Errorf("download bundle: %w", err))
		case errors.Is(err, bundle.ErrMismatch):
			return "", nil, fail(reasonBundleRefused, fmt.Errorf("verify bundle: %w", err))
		}
		return "", nil, fail(reasonBundleRefused, fmt.Errorf("unpack bundle: %w", err))
	}
	if man == nil {
		man, err = bundle.VerifyDir(dir)
	}
	// A manifest that came first was checked while unpacking.
	if err == nil {
		err = checkNotEmpty(man)
	}
	if err != nil {
		_ = os.RemoveAll(dir)
		return "", nil, fail(reasonBundleRefused, fmt.Errorf("verify bundle: %w", err))
	}
	return dir, man, nil
}

// watchRate cuts the download (errTooSlow) at the end of the first window
// of stall in which fewer than floor bytes of the body arrived. It ends
// with ctx, which fetch cancels on return.
func watchRate(ctx context.Context, body *flowReader, window time.Duration, floor int64, cancel context.CancelCauseFunc) {
	t := time.NewTicker(window)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if body.n.Swap(0) < floor {
				cancel(errTooSlow)
				return
			}
		}
	}
}

// maxRedirects is how many redirects a download follows: a presigned
// link may be answered by one or two (a CDN in front of the bucket), not
// by a loop.
const maxRedirects = 5

// redirectError is a redirect the download refused to follow. It names
// hosts only: the URL of a presigned link carries its signature.
type redirectError struct{ msg string }

func (e *redirectError) Error() string { return e.msg }

// checkRedirect follows a redirect only to the link's own host (scheme
// and port included, so never down from https to http) or to a host of
// allow, and at most maxRedirects times: a presigned link that sends its
// fetcher elsewhere is not what was signed.
func checkRedirect(allow []string) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if len(via) > maxRedirects {
			return &redirectError{fmt.Sprintf("more than %d redirects (a loop?)", maxRedirects)}
		}
		from := via[0].URL
		if req.URL.Scheme == from.Scheme && req.URL.Host == from.Host {
			return nil
		}
		if req.URL.Scheme == "https" || from.Scheme == "http" {
			for _, h := range allow {
				if strings.EqualFold(req.URL.Host, h) {
					return nil
				}
			}
		}
		return &redirectError{fmt.Sprintf("redirect from %s://%s to %s://%s refused: only the link's own host or an allowed one is followed",
			from.Scheme, from.Host, req.URL.Scheme, req.URL.Host)}
	}
}

// checkNotEmpty refuses a manifest that lists no files: it verifies
// trivially, and serving it would blank the site while looking healthy.
func checkNotEmpty(man *bundle.Manifest) error {
	if len(man.Files) == 0 {
		return fmt.Errorf("%w: the manifest lists no files; an empty site is refused", bundle.ErrMismatch)
	}
	return nil
}

// flowReader reads a download, putting the stall watchdog off at every
// byte, and notes whether the connection itself failed, as opposed to its
// bytes being refused.
type flowReader struct {
	r        io.Reader
	watchdog *time.Timer
	stall    time.Duration
	failed   atomic.Bool
	// n counts the bytes since the rate was last checked.
	n atomic.Int64
}

func (f *flowReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if n > 0 {
		f.watchdog.Reset(f.stall)
		f.n.Add(int64(n))
	}
	if err != nil && !errors.Is(err, io.EOF) {
		f.failed.Store(true)
	}
	return n, err
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
// absolute names. When manifest.json is the first entry (as bundle.Write
// puts it), every file is checked against it while it is written and the
// manifest is returned; otherwise the caller verifies the directory.
func unpack(r io.Reader, dir string) (*bundle.Manifest, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	defer gz.Close()
	tr := tar.NewReader(gz)
	var (
		entries int
		total   int64
		man     *bundle.Manifest
		check   *bundle.Checker
	)
	for first := true; ; first = false {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			if check != nil {
				return man, check.Finish()
			}
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		entries++
		if entries > maxBundleEntries {
			return nil, fmt.Errorf("bundle has more than %d entries", maxBundleEntries)
		}
		name := filepath.FromSlash(hdr.Name)
		if !filepath.IsLocal(name) {
			return nil, fmt.Errorf("entry %q is not a local path", hdr.Name)
		}
		target := filepath.Join(dir, name)
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o755); err != nil {
				return nil, err
			}
			continue
		case tar.TypeReg:
		default:
			return nil, fmt.Errorf("entry %q is not a regular file", hdr.Name)
		}
		total += hdr.Size
		if total > maxBundleBytes {
			return nil, fmt.Errorf("bundle exceeds %d bytes", maxBundleBytes)
		}
		var want *bundle.File
		switch {
		case first && hdr.Name == bundle.ManifestName:
			raw, err := io.ReadAll(io.LimitReader(tr, min(hdr.Size, 64<<20+1))) // ParseManifest refuses more
			if err != nil {
				return nil, err
			}
			if man, err = bundle.ParseManifest(raw); err != nil {
				return nil, err
			}
			if err := checkNotEmpty(man); err != nil {
				return nil, err
			}
			check = bundle.NewChecker(man)
			if err := writeEntry(target, bytes.NewReader(raw), int64(len(raw)), nil); err != nil {
				return nil, fmt.Errorf("entry %q: %w", hdr.Name, err)
			}
			continue
		case check != nil:
			f, err := check.Expect(filepath.ToSlash(name), hdr.Size)
			if err != nil {
				return nil, err
			}
			want = &f
		}
		if err := writeEntry(target, tr, hdr.Size, want); err != nil {
			return nil, fmt.Errorf("entry %q: %w", hdr.Name, err)
		}
	}
}

// writeEntry writes size bytes of r to target; with want set, it hashes
// them on the way and refuses a file whose sum does not match.
func writeEntry(target string, r io.Reader, size int64, want *bundle.File) error {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	// O_EXCL: an archive that names a file twice is rejected, not merged.
	f, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	h := sha256.New()
	var w io.Writer = f
	if want != nil {
		w = io.MultiWriter(f, h)
	}
	_, err = io.CopyN(w, r, size)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && want != nil {
		err = bundle.CheckSum(*want, h.Sum(nil))
	}
	return err
}
