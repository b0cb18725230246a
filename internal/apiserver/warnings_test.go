package apiserver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

// TestExport_warnings exports a source with more warnings than a job
// keeps, one of them a symlink out of the source: the job reports the
// count and the first messages, and counts every warning by its kind;
// the linked secret stays out.
func TestExport_warnings(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "docs")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "key"), []byte("SECRET-KEY-BYTES"), 0o600); err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, 25)
	for i := range 25 {
		keys = append(keys, fmt.Sprintf(`"unsupported%02d": true`, i))
	}
	files := map[string]string{
		"docs.json": `{"name": "Warn", ` + strings.Join(keys, ", ") + `}`,
		"index.mdx": "# Home\n\n![key](key.png)\n\n<Mystery />\n\nBad $\\frac{1}{$ math.\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(src, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../key", filepath.Join(src, "key.png")); err != nil {
		t.Fatal(err)
	}
	env := apiservertest.Start(t, apiservertest.WithDeployment("warn.acme.test", src))
	job := env.WaitExport(t, env.StartExport(t, api.StartExportRequest{Domain: "warn.acme.test"}).JobID)
	if job.Status != api.ExportCompleted {
		t.Fatalf("export: %+v", job)
	}
	w := job.Warnings
	if w == nil || w.Count != 28 || len(w.Messages) != api.MaxExportWarnings {
		t.Fatalf("warnings = %+v, want 28 counted and %d messages kept", w, api.MaxExportWarnings)
	}
	sum := 0
	for _, n := range w.ByKind {
		sum += n
	}
	if sum != w.Count || w.ByKind["config"] != 25 || w.ByKind["content"] != 1 || w.ByKind["math"] != 1 {
		t.Errorf("by kind: %v, want 25 config, 1 content, 1 math and %d in all", w.ByKind, w.Count)
	}
	if !strings.Contains(w.Messages[0], `docs.json: the setting "unsupported00" is not supported`) {
		t.Errorf("first warning = %q, want the first unsupported setting", w.Messages[0])
	}
	clean := env.WaitExport(t, env.StartExport(t, api.StartExportRequest{Domain: env.Domain}).JobID)
	if clean.Warnings != nil {
		t.Errorf("an export without warnings reports %+v", clean.Warnings)
	}
}

// TestExport_configuredLimits: the `limits:` section of the configuration
// reaches the export engine, so a page over maxPageBytes fails the export
// with a message naming the page and the limit.
func TestExport_configuredLimits(t *testing.T) {
	src := t.TempDir()
	files := map[string]string{
		"docs.json": `{"name": "Limits"}`,
		"index.mdx": "# Home\n\n" + strings.Repeat("A long page. ", 200),
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(src, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := apiservertest.Start(t, apiservertest.WithConfigYAML("limits:\n  maxPageBytes: 1KiB"),
		apiservertest.WithDeployment("limits.acme.test", src))
	job := env.WaitExport(t, env.StartExport(t, api.StartExportRequest{Domain: "limits.acme.test"}).JobID)
	if job.Status != api.ExportFailed || !strings.Contains(job.Error, "index.mdx") || !strings.Contains(job.Error, "limit of 1.0 KiB") {
		t.Fatalf("export of a 2.6 kB page under a 1 KiB limit: %+v", job)
	}
}
