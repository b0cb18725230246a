package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
)

// ErrNoContentVersion says a completed job's content version could be
// learned neither from the server's answer nor from its bundle's
// manifest. It is never papered over with the job id: a job id changes on
// every re-export, and a release pinned to it would roll pods for content
// that did not change.
var ErrNoContentVersion = errors.New("no content version")

// manifestTimeout bounds the download of a manifest when the caller gives
// no client of its own.
const manifestTimeout = 30 * time.Second

// ContentVersion returns the content version of a completed export job:
// the `version` of its status when the server sends it, else the one its
// bundle carries (see BundleVersion). Any other status is an error: only
// finished content has a version.
func (c *Client) ContentVersion(ctx context.Context, job api.ExportJob, download *http.Client) (string, error) {
	if job.Status != api.ExportCompleted {
		return "", fmt.Errorf("content version of static export job %s: the job is %s, not completed: %w", job.JobID, job.Status, ErrNoContentVersion)
	}
	if job.Version != "" {
		return job.Version, nil
	}
	b, err := c.GenerateBundle(ctx, job.JobID)
	if err != nil {
		return "", fmt.Errorf("content version of static export job %s: %w", job.JobID, err)
	}
	return BundleVersion(ctx, b, download)
}

// BundleVersion returns the content version of the archive behind b: the
// `version` of the bundle answer, which the reference server always
// sends, else the `version` of the manifest at the head of the archive,
// which is what the content version is. Only the archive's first
// kilobytes are downloaded, with download (nil: a client with a 30 s
// timeout), and without the API key: the link carries its own signature.
// The real service's schema does not list the field, hence the manifest.
func BundleVersion(ctx context.Context, b api.Bundle, download *http.Client) (string, error) {
	if b.Version != "" {
		return b.Version, nil
	}
	if download == nil {
		download = &http.Client{Timeout: manifestTimeout}
	}
	m, err := bundle.FetchManifest(ctx, download, b.BundleURL)
	if err != nil {
		return "", fmt.Errorf("content version of static export job %s: the server sent none and the bundle's manifest could not be read: %w (%w)",
			b.JobID, err, ErrNoContentVersion)
	}
	if m.Version == "" {
		return "", fmt.Errorf("content version of static export job %s: the server sent none and the bundle's manifest has none: %w", b.JobID, ErrNoContentVersion)
	}
	return m.Version, nil
}

// BundleManifest returns the manifest of a completed job's bundle, which
// says what the job exported (domain, version label, files) where the
// job's status does not. It asks for a fresh link and downloads only the
// head of the archive, with download (nil: a client with a 30 s timeout).
func (c *Client) BundleManifest(ctx context.Context, jobID string, download *http.Client) (*bundle.Manifest, error) {
	b, err := c.GenerateBundle(ctx, jobID)
	if err != nil {
		return nil, err
	}
	if download == nil {
		download = &http.Client{Timeout: manifestTimeout}
	}
	m, err := bundle.FetchManifest(ctx, download, b.BundleURL)
	if err != nil {
		return nil, fmt.Errorf("manifest of static export job %s: %w", jobID, err)
	}
	return m, nil
}
