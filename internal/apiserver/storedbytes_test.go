package apiserver_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

// maxStoredBytes counts an organization's rendered sites and archives:
// once they reach it, a start is answered 507 with a JSON message, and
// other organizations are not affected.
func TestLimits_maxStoredBytes(t *testing.T) {
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db, apiservertest.WithConfig(func(c *apiconfig.Config) { c.MaxStoredBytes = 1 }))
		first := completedExport(t, env) // nothing stored yet: accepted
		r := call(t, "POST", env.URL+api.PathExportJobs, env.Key, api.StartExportRequest{Domain: env.Domain})
		if r.status != http.StatusInsufficientStorage {
			t.Fatalf("start over the byte cap: %d %s", r.status, r.body)
		}
		if msg := r.errorMessage(t); !strings.Contains(msg, "bytes") || !strings.Contains(msg, `"acme"`) {
			t.Fatalf("message %q does not say which bound was hit", msg)
		}
		// The bundle of the stored job still downloads, and another
		// organization still exports.
		b := env.Bundle(t, first)
		download(t, b.BundleURL, b.SizeBytes)
		var job api.ExportJob
		r = call(t, "POST", env.URL+api.PathExportJobs, env.OtherKey, api.StartExportRequest{Domain: apiservertest.OtherDomain})
		if r.status != http.StatusAccepted {
			t.Fatalf("other organization: %d %s", r.status, r.body)
		}
		r.decode(t, &job)
	})
}

// A negative maxStoredBytes is refused when the configuration loads.
func TestConfig_negativeMaxStoredBytes(t *testing.T) {
	_, err := apiconfig.ParseConfig([]byte("maxStoredBytes: -1\norganizations: []\n"), t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "maxStoredBytes") {
		t.Fatalf("negative maxStoredBytes: %v", err)
	}
}
