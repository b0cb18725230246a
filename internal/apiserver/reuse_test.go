package apiserver_test

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/demosite"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// A re-export of a deployment copies the compressed entries of every
// unchanged file from its previous export's archive and takes every
// unchanged page from it rather than render it, on the local disk and in
// the bucket alike, and the archive is byte for byte the one a server
// without a previous export makes of the same source.
func TestExport_reusesPreviousArchive(t *testing.T) {
	const domain = "reuse.example.com"
	for _, backend := range backends {
		t.Run(backend.name, func(t *testing.T) { reusesPreviousArchive(t, domain, backend.open) })
	}
}

// reusesPreviousArchive is the test on the backend open makes.
func reusesPreviousArchive(t *testing.T, domain string, open func(t *testing.T) apiservertest.Option) {
	src := t.TempDir()
	if err := os.CopyFS(src, demosite.FS()); err != nil {
		t.Fatal(err)
	}
	var log testutil.SyncBuffer
	env := apiservertest.Start(t, open(t), apiservertest.WithDeployment(domain, src),
		apiservertest.WithLogger(hclog.New(&hclog.LoggerOptions{Output: &log, Level: hclog.Info})))
	first := archiveOf(t, env, domain)
	if n := env.Server.EntriesReused(); n != 0 {
		t.Fatalf("the first export copied %d entries, with nothing to copy from", n)
	}
	again := archiveOf(t, env, domain)
	if !bytes.Equal(again, first) {
		t.Fatal("a re-export of an unchanged source made another archive")
	}
	// The count grows as the render's spool closes, just after the job
	// is seen completed.
	testutil.Eventually(t, 10*time.Second, "the re-export of an unchanged source to copy from the previous archive", func() bool {
		return env.Server.EntriesReused() > 0
	})
	// The completion's log line counts the entries copied, which are
	// known only once the archive is written.
	if m := completedReused.FindAllStringSubmatch(log.String(), -1); len(m) != 2 || m[0][1] != "0" || m[1][1] == "0" {
		t.Fatalf("completion lines of the two exports count these entries reused: %v, want 0 then more\n%s", m, log.String())
	}
	unchanged := env.Server.PagesReused() // the first export had none to reuse
	if unchanged == 0 {
		t.Fatal("the re-export of an unchanged source rendered every page again")
	}
	page := filepath.Join(src, "quickstart.mdx")
	body, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, append(body, []byte("\n\nOne more paragraph.\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	before := env.Server.EntriesReused()
	changed := archiveOf(t, env, domain)
	if bytes.Equal(changed, again) {
		t.Fatal("the archive did not change with the page")
	}
	testutil.Eventually(t, 10*time.Second, "the re-export after a one-page change to copy from the previous archive", func() bool {
		return env.Server.EntriesReused() > before
	})
	// The pages the unchanged re-export took from the earlier export
	// are taken again, but for the changed one.
	if n := env.Server.PagesReused() - unchanged; n != unchanged-1 {
		t.Fatalf("the re-export after a one-page change reused %d pages, want %d", n, unchanged-1)
	}
	// A fresh server on a fresh store of the same kind has nothing to
	// copy from: its archive is the full export's.
	fresh := apiservertest.Start(t, open(t), apiservertest.WithDeployment(domain, src))
	if full := archiveOf(t, fresh, domain); !bytes.Equal(changed, full) {
		t.Fatal("the archive made by copying from the previous one differs from a full export's")
	}
	if n := fresh.Server.EntriesReused(); n != 0 {
		t.Fatalf("a server without earlier exports copied %d entries", n)
	}
}

// completedReused finds the count of reused entries in the log line of
// an export's completion, on either backend.
var completedReused = regexp.MustCompile(`export completed(?: and uploaded)?: .*\breused=(\d+)`)

// archiveOf exports domain on env and downloads its archive.
func archiveOf(t *testing.T, env *apiservertest.Env, domain string) []byte {
	t.Helper()
	job := env.StartExportAndWait(t, api.StartExportRequest{Domain: domain})
	if job.Status != api.ExportCompleted {
		t.Fatalf("export %s: %s %s", job.JobID, job.Status, job.Error)
	}
	b := env.Bundle(t, job.JobID)
	resp, err := http.Get(b.BundleURL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("download: %d %v", resp.StatusCode, err)
	}
	return data
}
