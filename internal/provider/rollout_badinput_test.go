package provider

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

// holdRunning makes the server report job id as still running, as it does
// for a long export: GET shows status running, and a bundle request is
// refused with 409. Holding a real export half-way is not possible from
// outside the server, and a real short export would race the plan.
func holdRunning(id *string) apiservertest.Option {
	return apiservertest.WithMiddleware(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if *id == "" || !strings.Contains(r.URL.Path, "/jobs/"+*id) {
				next.ServeHTTP(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			if r.Method == http.MethodPost {
				w.WriteHeader(http.StatusConflict)
				_ = json.NewEncoder(w).Encode(api.Error{Error: "static export job " + *id + " is running"})
				return
			}
			_ = json.NewEncoder(w).Encode(api.ExportJob{JobID: *id, Status: "running", Progress: 40})
		})
	})
}

// rolloutWith is a rollout that names no cluster: plan-time errors come
// before any cluster is needed.
func rolloutWith(body string) string {
	return `
resource "docsadmin_static_export_rollout" "docs" {
  release   = "docs"
  namespace = "docs"
  ` + body + `
}
`
}

// Each bad input is an attribute error at plan time, before any apply.
func TestAccStaticExportRollout_badLinkSourcesFailAtPlan(t *testing.T) {
	t.Parallel()
	var running string
	env := newAccEnv(t, holdRunning(&running))
	failed := env.WaitExport(t, env.StartExport(t, api.StartExportRequest{Domain: env.FailDomain}).JobID)
	if failed.Status != api.ExportFailed {
		t.Fatalf("export of %s ended %s", env.FailDomain, failed.Status)
	}
	running = env.StartExportAndWait(t, api.StartExportRequest{Domain: env.Domain}).JobID
	link := `"https://bundles.example.com/b.tar.gz?signature=x"`
	for name, c := range map[string]struct{ body, want string }{
		"unknown job":     {`job_id = "se_missing"`, `(?s)Static Export Not Found.*job_id.*"se_missing"`},
		"failed job":      {fmt.Sprintf("job_id = %q", failed.JobID), `(?s)Static Export Failed.*job_id.*no bundle`},
		"running job":     {fmt.Sprintf("job_id = %q", running), `(?s)Static Export Not Completed.*job_id.*is running.*wait = true`},
		"job and url":     {`job_id = "se_1"` + "\n  bundle_url = " + link, `(?s)Conflicting Bundle Link Sources.*job_id and bundle_url`},
		"job and wo":      {`job_id = "se_1"` + "\n  bundle_url_wo = " + link + "\n  bundle_url_wo_version = \"1\"", `(?s)Conflicting Bundle Link Sources.*job_id and bundle_url_wo`},
		"wo, no version":  {`version = "v1"` + "\n  bundle_url_wo = " + link, `(?s)Missing Write-Only Version.*bundle_url_wo_version`},
		"version, no wo":  {`version = "v1"` + "\n  bundle_url = " + link + "\n  bundle_url_wo_version = \"1\"", `(?s)Write-Only Version Without Link`},
		"no source":       {`version = "v1"`, `(?s)Missing Bundle Link Source.*job_id`},
		"url, no version": {"bundle_url = " + link, `(?s)Missing Content Version.*version`},
		"job and expiry":  {`job_id = "se_1"` + "\n  expires_at = \"2026-01-02T15:04:05Z\"", `(?s)Expiry Comes From the Link.*expires_at`},
		"renew, no job":   {`version = "v1"` + "\n  bundle_url = " + link + "\n  renew_before = \"1h\"", `(?s)Renewal Needs job_id.*renew_before`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			env.expectError(t, env.config(rolloutWith(c.body)), c.want, true)
		})
	}
}

// An ephemeral bundle of a job without a bundle is an error on job_id when
// Terraform opens it, at plan time.
func TestAccStaticExportBundleEphemeral_jobWithoutBundle(t *testing.T) {
	t.Parallel()
	var running string
	env := newAccEnv(t, holdRunning(&running))
	failed := env.WaitExport(t, env.StartExport(t, api.StartExportRequest{Domain: env.FailDomain}).JobID)
	running = env.StartExportAndWait(t, api.StartExportRequest{Domain: env.Domain}).JobID
	for name, c := range map[string]struct{ id, want string }{
		"unknown": {"se_missing", `(?s)Static Export Not Found.*job_id`},
		"failed":  {failed.JobID, `(?s)Static Export Failed.*job_id`},
		"running": {running, `(?s)Static Export Not Completed.*job_id.*is running`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			env.expectError(t, env.config(fmt.Sprintf(`
ephemeral "docsadmin_static_export_bundle" "site" {
  job_id = %q
}
`, c.id)), c.want, true)
		})
	}
}
