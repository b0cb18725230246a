package apiserver_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// /metrics answers without a key in the Prometheus text format, and counts
// what a scrape should see after an export, a bundle link and a refused
// store write, with no job id, domain or link anywhere in it.
func TestMetrics_exportsLinksAndStoreErrors(t *testing.T) {
	env := apiservertest.Start(t, apiservertest.WithDatabase(""))
	m := testutil.Scrape(t, env.URL+apiserver.PathMetrics)
	if got := m.Must(t, "docsadmin_exports", "status", api.ExportCompleted); got != 0 {
		t.Fatalf("completed exports before any: %v", got)
	}

	id := completedExport(t, env)
	b := env.Bundle(t, id)
	env.Bundle(t, id) // the second call only signs: one archive, two links
	failWrites(env, 1, 1)
	if r := call(t, "POST", env.URL+api.PathExportJobs, env.Key, api.StartExportRequest{Domain: env.Domain}); r.status != http.StatusServiceUnavailable {
		t.Fatalf("start on a full disk: %d %s", r.status, r.body)
	}

	m = testutil.Scrape(t, env.URL+apiserver.PathMetrics)
	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"docsadmin_exports", []string{"status", api.ExportCompleted}, 1},
		{"docsadmin_exports", []string{"status", api.ExportQueued}, 0},
		{"docsadmin_export_queue_depth", nil, 0},
		{"docsadmin_export_duration_seconds", []string{"status", api.ExportCompleted}, 1},
		{"docsadmin_archive_duration_seconds", []string{"result", "ok"}, 1},
		{"docsadmin_bundle_links_issued_total", []string{"result", "ok"}, 2},
		{"docsadmin_store_errors_total", []string{"op", "request"}, 1},
	} {
		if got := m.Must(t, c.name, c.labels...); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	link, err := url.Parse(b.BundleURL)
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{id, env.Domain, link.RawQuery, env.Key} {
		if strings.Contains(m.Body, secret) {
			t.Fatalf("the scrape contains %q:\n%s", secret, m.Body)
		}
	}
}

// A wrong method on /metrics gets the server's JSON 405 like any route.
func TestMetrics_wrongMethod(t *testing.T) {
	env := apiservertest.Start(t, apiservertest.WithDatabase(""))
	r := call(t, "POST", env.URL+apiserver.PathMetrics, "", nil)
	if r.status != http.StatusMethodNotAllowed || !strings.Contains(r.header.Get("Allow"), "GET") {
		t.Fatalf("POST /metrics: %d Allow=%q %s", r.status, r.header.Get("Allow"), r.body)
	}
}
