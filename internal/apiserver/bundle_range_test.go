package apiserver_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/httprange"
)

// A bundle download asking for a thousand one-byte ranges used to come
// back as several times the archive (a part header per byte); now the
// answer is never much more than the archive, and a plain range still
// gets its 206.
func TestDownloadBundle_manyRangesDoNotAmplify(t *testing.T) {
	env := apiservertest.Start(t)
	job := env.StartExportAndWait(t, api.StartExportRequest{Domain: env.Domain})
	b := env.Bundle(t, job.JobID)
	get := func(rng string) (int, int64) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, b.BundleURL, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Range", rng)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		n, err := io.Copy(io.Discard, resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, n
	}
	parts := make([]string, 1000)
	for i := range parts {
		at := int64(i) * b.SizeBytes / 1000 // spread over the whole archive
		parts[i] = fmt.Sprintf("%d-%d", at, at)
	}
	bound := b.SizeBytes + httprange.MaxRanges*200
	if status, n := get("bytes=" + strings.Join(parts, ",")); (status != http.StatusOK && status != http.StatusPartialContent) || n > bound {
		t.Fatalf("1000 ranges: %d, %d bytes for a %d-byte archive (bound %d)", status, n, b.SizeBytes, bound)
	}
	if status, n := get("bytes=0-99"); status != http.StatusPartialContent || n != 100 {
		t.Fatalf("one range: %d, %d bytes", status, n)
	}
}
