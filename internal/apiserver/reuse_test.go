package apiserver_test

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/demosite"
)

// A re-export of a deployment copies the compressed entries of every
// unchanged file from its previous export's archive, on the local disk
// and in the bucket alike, and the archive is byte for byte the one a
// server without a previous export makes of the same source.
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
	env := apiservertest.Start(t, open(t), apiservertest.WithDeployment(domain, src))
	first := archiveOf(t, env, domain)
	if n := env.Server.EntriesReused(); n != 0 {
		t.Fatalf("the first export copied %d entries, with nothing to copy from", n)
	}
	again := archiveOf(t, env, domain)
	if !bytes.Equal(again, first) {
		t.Fatal("a re-export of an unchanged source made another archive")
	}
	if env.Server.EntriesReused() == 0 {
		t.Fatal("the re-export of an unchanged source copied nothing from the previous archive")
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
	if env.Server.EntriesReused() == before {
		t.Fatal("the re-export after a one-page change copied nothing")
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
