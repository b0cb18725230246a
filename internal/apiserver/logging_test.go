package apiserver_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// TestLogs_noSecrets runs a whole flow at trace level, including failed
// logins and a download, and checks that neither the admin keys nor any
// part of a link's signature reached the log.
func TestLogs_noSecrets(t *testing.T) {
	var buf testutil.SyncBuffer
	env := apiservertest.Start(t, apiservertest.WithLogger(hclog.New(&hclog.LoggerOptions{Output: &buf, Level: hclog.Trace})))
	id := completedExport(t, env)
	b := generateBundle(t, env, id)
	download(t, b.BundleURL, b.SizeBytes)
	call(t, "GET", b.BundleURL+"0", "", nil)
	call(t, "POST", env.URL+"/v2/agent/"+env.ProjectID+"/job", env.Key, map[string]string{"prompt": "x"})
	call(t, "GET", env.URL+"/v1/static-export/jobs/"+id, env.OtherKey+"x", nil)
	if r := call(t, "GET", env.URL+"/v1/static-export/jobs/"+id, env.Key, nil); r.status != http.StatusOK {
		t.Fatal(r.status)
	}
	u, err := url.Parse(b.BundleURL)
	if err != nil {
		t.Fatal(err)
	}
	logs := buf.String()
	if !strings.Contains(logs, id) {
		t.Fatalf("the log does not show the requests at all:\n%s", logs)
	}
	for name, secret := range map[string]string{
		"admin key": env.Key, "other key": env.OtherKey, "key secret": strings.TrimPrefix(env.Key, "dak_"),
		"signature": u.Query().Get("signature"), "query": u.RawQuery,
	} {
		if strings.Contains(logs, secret) {
			t.Errorf("the log contains the %s", name)
		}
	}
}
