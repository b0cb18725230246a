package apiserver_test

import (
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// With an object store a worker renders its next job while the bucket
// stores the last one, and no further: with one worker and the bucket
// down, the first job waits in its upload, the second is rendered and
// waits its turn, the third stays queued. Once the bucket is back all
// three complete, each rendered once.
func TestObjectStore_workerRendersWhileUploading(t *testing.T) {
	bucket, proxy := interruptibleBucket(t)
	var log testutil.SyncBuffer
	env := apiservertest.Start(t, bucket, apiservertest.WithDatabase(pgtest.DB(t)),
		apiservertest.WithConfig(func(c *apiconfig.Config) { c.ExportWorkers = 1 }),
		apiservertest.WithLogger(hclog.New(&hclog.LoggerOptions{Output: &log, Level: hclog.Info})))
	var mu sync.Mutex
	var renders []string
	started := make(chan struct{})
	apiserver.OnRender(env.Server, func(id string) {
		mu.Lock()
		renders = append(renders, id)
		first := len(renders) == 1
		mu.Unlock()
		if first {
			// Starts check the bucket: cut it only once all three are in.
			<-started
			proxy.Cut()
		}
	})
	rendered := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(renders)
	}
	var ids []string
	for range 3 {
		ids = append(ids, env.StartExport(t, api.StartExportRequest{Domain: env.Domain}).JobID)
	}
	close(started)
	testutil.Eventually(t, 30*time.Second, "the first upload to be retried", func() bool {
		return strings.Contains(log.String(), "upload rendered site; retrying")
	})
	testutil.Eventually(t, 30*time.Second, "the second job to be rendered", func() bool {
		got := jobOn(t, env.URL, env.Key, ids[1])
		return got.Status == api.ExportRunning && got.Progress == 99
	})
	// The worker now waits for the first upload before it hands over the
	// second: it cannot have claimed the third.
	if got := jobOn(t, env.URL, env.Key, ids[0]); got.Status != api.ExportRunning {
		t.Fatalf("first job while its upload waits for the bucket: %+v, want running", got)
	}
	if got := jobOn(t, env.URL, env.Key, ids[2]); got.Status != api.ExportQueued {
		t.Fatalf("third job while the worker holds two: %+v, want queued", got)
	}
	if got := rendered(); !slices.Equal(got, ids[:2]) {
		t.Fatalf("renders %v, want %v", got, ids[:2])
	}
	proxy.Restore()
	for _, id := range ids {
		if got := env.WaitExport(t, id); got.Status != api.ExportCompleted {
			t.Fatalf("export %s after the bucket came back: %+v", id, got)
		}
	}
	if got := rendered(); !slices.Equal(got, ids) {
		t.Fatalf("renders %v, want each of %v once, in order", got, ids)
	}
	b := env.Bundle(t, ids[2])
	download(t, b.BundleURL, b.SizeBytes)
}
