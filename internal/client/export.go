package client

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// StartExport queues a static export job. The server answers 202 with the
// job; it is usually queued or running.
//
// Every start carries a fresh Idempotency-Key, so a start lost to a 5xx or
// a broken connection is retried safely: the server answers the repeat
// with the job the first attempt created, never a second job.
func (c *Client) StartExport(ctx context.Context, req api.StartExportRequest) (api.ExportJob, error) {
	var job api.ExportJob
	key, err := newIdempotencyKey()
	if err != nil {
		return job, fmt.Errorf("start static export of %s: %w", req.Domain, err)
	}
	err = c.do(ctx, call{method: http.MethodPost, pattern: api.PathExportJobs, body: req, out: &job, idempotencyKey: key})
	if err != nil {
		return job, fmt.Errorf("start static export of %s: %w", req.Domain, err)
	}
	return job, nil
}

// GetExport returns the current state of a job. A job the server does not
// know (never existed, or past retention) is an error matching ErrNotFound.
// A completed job carries its content version in Version, if the server
// sends it (the field is optional).
func (c *Client) GetExport(ctx context.Context, jobID string) (api.ExportJob, error) {
	var job api.ExportJob
	err := c.do(ctx, call{method: http.MethodGet, pattern: api.PathExportJob,
		params: map[string]string{"jobId": jobID}, out: &job})
	if err != nil {
		return job, fmt.Errorf("get static export job %s: %w", jobID, err)
	}
	return job, nil
}

// GenerateBundle packages a completed job and returns a fresh presigned
// link. It may be called again on the same job whenever a link nears
// expiry; the export is not redone.
// The bundle's Version is its content version when the server sends it; a
// server that predates the field leaves it empty, and the caller must then
// read it from the archive's manifest (bundle.ReadManifest).
func (c *Client) GenerateBundle(ctx context.Context, jobID string) (api.Bundle, error) {
	var b api.Bundle
	err := c.do(ctx, call{method: http.MethodPost, pattern: api.PathExportBundle,
		params: map[string]string{"jobId": jobID}, out: &b})
	if err != nil {
		return b, fmt.Errorf("generate bundle for static export job %s: %w", jobID, err)
	}
	return b, nil
}

// WaitExport polls a job until it completes or fails, calling onProgress
// (if not nil) with every status seen. A failed job returns the job and a
// *JobFailedError carrying the server's message.
func (c *Client) WaitExport(ctx context.Context, jobID string, onProgress func(api.ExportJob)) (api.ExportJob, error) {
	job, err := poll(ctx, c,
		func(ctx context.Context) (api.ExportJob, error) { return c.GetExport(ctx, jobID) },
		func(j api.ExportJob) float64 { return j.Progress },
		func(j api.ExportJob) bool { return api.ExportTerminal(j.Status) },
		onProgress)
	if err != nil {
		return job, fmt.Errorf("wait for static export job %s: %w", jobID, err)
	}
	if job.Status == api.ExportFailed {
		return job, &JobFailedError{JobID: jobID, Message: job.Error}
	}
	return job, nil
}

// newIdempotencyKey returns 128 random bits in hex: unique per start.
func newIdempotencyKey() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("idempotency key: %w", err)
	}
	return hex.EncodeToString(b), nil
}
