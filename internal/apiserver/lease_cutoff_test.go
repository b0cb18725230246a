package apiserver_test

import (
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// A render stuck past the export time limit, out of its context's reach
// (the hook stands for it), stops renewing its lease once the limit and
// one more lease have passed on the server's clock, so the job can be
// taken over instead of holding its worker for good.
func TestLease_notRenewedPastTheTimeLimit(t *testing.T) {
	const lease, limit = time.Second, time.Minute
	var log testutil.SyncBuffer
	env := apiservertest.Start(t, apiservertest.WithExportLease(lease),
		apiservertest.WithConfig(func(c *apiconfig.Config) { c.ExportWorkers = 1; c.ExportTimeout = apiconfig.Duration(limit) }),
		apiservertest.WithLogger(hclog.New(&hclog.LoggerOptions{Output: &log, Level: hclog.Info})))
	hung, release := make(chan string, 1), make(chan struct{})
	apiserver.OnRender(env.Server, func(id string) {
		hung <- id
		<-release
	})
	defer close(release)
	id := env.StartExport(t, api.StartExportRequest{Domain: env.Domain}).JobID
	select {
	case <-hung:
	case <-time.After(apiservertest.ExportTimeout):
		t.Fatal("the server did not start rendering")
	}
	// Within the limit the lease is renewed (three ticks, each a third of
	// a lease, move its end by a whole lease) and nothing is said.
	claimed, err := apiserver.LeaseUntil(env.Server, id)
	if err != nil {
		t.Fatal(err)
	}
	testutil.Eventually(t, 10*time.Second, "three lease renewals", func() bool {
		until, err := apiserver.LeaseUntil(env.Server, id)
		if err != nil {
			t.Fatal(err)
		}
		return !until.Before(claimed.Add(lease))
	})
	if strings.Contains(log.String(), "no longer renewed") {
		t.Fatal("the lease stopped being renewed within the time limit")
	}
	env.Clock.Advance(limit + lease + time.Second)
	testutil.Eventually(t, 10*time.Second, "the renewal to stop past the time limit", func() bool {
		return strings.Contains(log.String(), "export ran past its time limit; its lease is no longer renewed") &&
			strings.Contains(log.String(), id)
	})
}
