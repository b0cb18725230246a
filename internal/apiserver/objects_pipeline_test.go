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

// With an object store a worker renders its next jobs while the bucket
// stores the last ones, and no further: with one worker and the bucket
// down, the first UploadsPerWorker jobs wait in their uploads, the next
// one is rendered and waits for a slot, the last stays queued. Once the
// bucket is back all complete, each rendered once.
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
			// Starts check the bucket: cut it only once all are in.
			<-started
			proxy.Cut()
		}
	})
	rendered := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(renders)
	}
	slots := apiserver.UploadsPerWorker
	var ids []string
	for range slots + 2 {
		ids = append(ids, env.StartExport(t, api.StartExportRequest{Domain: env.Domain}).JobID)
	}
	close(started)
	testutil.Eventually(t, 30*time.Second, "the first upload to be retried", func() bool {
		return strings.Contains(log.String(), "upload rendered site; retrying")
	})
	testutil.Eventually(t, 30*time.Second, "the job after the uploads to be rendered", func() bool {
		got := jobOn(t, env.URL, env.Key, ids[slots])
		return got.Status == api.ExportRunning && got.Progress == 99
	})
	// The worker now waits for an upload slot before it hands over the
	// rendered job: it cannot have claimed the last one.
	for _, id := range ids[:slots] {
		if got := jobOn(t, env.URL, env.Key, id); got.Status != api.ExportRunning {
			t.Fatalf("job %s while its upload waits for the bucket: %+v, want running", id, got)
		}
	}
	if got := jobOn(t, env.URL, env.Key, ids[slots+1]); got.Status != api.ExportQueued {
		t.Fatalf("last job while the worker holds %d: %+v, want queued", slots+1, got)
	}
	if got := rendered(); !slices.Equal(got, ids[:slots+1]) {
		t.Fatalf("renders %v, want %v", got, ids[:slots+1])
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
	b := env.Bundle(t, ids[slots+1])
	download(t, b.BundleURL, b.SizeBytes)
}
