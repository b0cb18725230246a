package apiserver_test

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/bundles"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// A worker whose lease is fresh uploads its site without reading the
// record first: nobody can have taken the job over yet.
func TestObjectStore_freshLeaseUploadsWithoutFenceRead(t *testing.T) {
	opts, st := onObjects(t)
	env := apiservertest.Start(t, opts...)
	id := env.StartExport(t, api.StartExportRequest{Domain: env.Domain}).JobID
	if got := env.WaitExport(t, id); got.Status != api.ExportCompleted {
		t.Fatalf("export: %+v", got)
	}
	if n := apiserver.FenceReads(env.Server); n != 0 {
		t.Fatalf("%d reads of the record before the upload under a fresh lease, want 0", n)
	}
	if k := keys(t, st, "exports/"+id+"/a1/"); len(k) != 2 || !strings.HasSuffix(k[0], "/"+api.BundleFileName) ||
		!strings.Contains(k[1], "/"+bundles.RecordName("")) {
		t.Fatalf("objects %q uploaded, want the archive and its render record", k)
	}
}

// A worker that has not renewed its lease for more than half of it (a
// hung render) asks the store before it uploads; while it still holds
// the job, the upload goes on and the job completes.
func TestObjectStore_staleLeaseReadsFenceBeforeUpload(t *testing.T) {
	const lease = 10 * time.Second
	opts, _ := onObjects(t)
	env := apiservertest.Start(t, append(opts, apiservertest.WithExportLease(lease),
		apiservertest.WithConfig(func(c *apiconfig.Config) { c.ExportWorkers = 1 }))...)
	apiserver.StopLeaseRenewal(env.Server)
	apiserver.OnRender(env.Server, func(string) {
		// Past half the lease, short of its end: stale, still held.
		env.Clock.Advance(lease * 6 / 10)
	})
	id := env.StartExport(t, api.StartExportRequest{Domain: env.Domain}).JobID
	if got := env.WaitExport(t, id); got.Status != api.ExportCompleted {
		t.Fatalf("export: %+v", got)
	}
	if n := apiserver.FenceReads(env.Server); n != 1 {
		t.Fatalf("%d reads of the record before the upload under a stale lease, want 1", n)
	}
	b := env.Bundle(t, id)
	download(t, b.BundleURL, b.SizeBytes)
}

// A worker that lost its lease while it rendered (another replica took
// the job over) finds out before it uploads: it puts nothing in the
// bucket, and the other replica's site stays the job's.
func TestReplicas_lostLeaseUploadsNothing(t *testing.T) {
	const lease = 2 * time.Second
	var log testutil.SyncBuffer
	opts, _ := onObjects(t)
	env := apiservertest.Start(t, append(opts, apiservertest.WithExportLease(lease),
		apiservertest.WithConfig(func(c *apiconfig.Config) { c.ExportWorkers = 1 }),
		apiservertest.WithLogger(hclog.New(&hclog.LoggerOptions{Output: &log, Level: hclog.Info})))...)
	hung, release := make(chan string, 1), make(chan struct{})
	apiserver.StopLeaseRenewal(env.Server)
	apiserver.OnRender(env.Server, func(id string) {
		hung <- id
		<-release
	})
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	id := env.StartExport(t, api.StartExportRequest{Domain: env.Domain}).JobID
	select {
	case <-hung:
	case <-time.After(apiservertest.ExportTimeout):
		t.Fatal("the first server did not start rendering")
	}
	urlB, srvB := env.Replica(t)
	var rendersB atomic.Int64
	apiserver.OnRender(srvB, func(string) { rendersB.Add(1) })
	env.Clock.Advance(lease + time.Second)
	var got api.ExportJob
	testutil.Eventually(t, apiservertest.ExportTimeout, "the second server to finish the job", func() bool {
		got = jobOn(t, urlB, env.Key, id)
		return got.Status == api.ExportCompleted
	})
	close(release)
	testutil.Eventually(t, apiservertest.ExportTimeout, "the first server to give its stale attempt up", func() bool {
		l := log.String()
		return strings.Contains(l, "export lease lost") || strings.Contains(l, "export outcome discarded")
	})
	if l := log.String(); !strings.Contains(l, "export lease lost") {
		t.Fatalf("the stale attempt got as far as its completion, want it stopped before its upload:\n%s", l)
	}
	if n := apiserver.FenceReads(env.Server); n != 1 {
		t.Fatalf("the stale attempt read the record %d times before its upload, want 1", n)
	}
	if n := apiserver.FenceReads(srvB); n != 0 {
		t.Fatalf("the attempt that took over read the record %d times under a fresh lease, want 0", n)
	}
	if n := strings.Count(log.String(), "export completed and uploaded"); n != 1 {
		t.Fatalf("%d uploads logged, want only the second server's:\n%s", n, log.String())
	}
	if n := rendersB.Load(); n != 1 {
		t.Fatalf("the second server rendered %d times, want 1", n)
	}
	after := jobOn(t, env.URL, env.Key, id)
	if after.Status != api.ExportCompleted || after.Version != got.Version {
		t.Fatalf("after the stale attempt: %+v, want %+v", after, got)
	}
	b := bundleOn(t, env.URL, env.Key, id)
	download(t, b.BundleURL, b.SizeBytes)
}
