package apiserver_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/objstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/s3test"
)

// onObjects is the Postgres + S3 backend: a fresh database and a fresh
// bucket. It returns the options for apiservertest.Start and a client of
// the bucket for looking behind the server's back.
func onObjects(t testing.TB) ([]apiservertest.Option, *objstore.Store) {
	t.Helper()
	b := s3test.Start(t)
	o := objstore.Options{Credentials: b.Credentials()}
	cfg, err := objstore.ParseURL(b.URL())
	if err != nil {
		t.Fatal(err)
	}
	st, err := objstore.New(context.Background(), cfg, o)
	if err != nil {
		t.Fatal(err)
	}
	return []apiservertest.Option{apiservertest.WithDatabase(pgtest.DB(t)), apiservertest.WithObjectStore(b.URL(), o)}, st
}

// bucketOf is a client of the bucket env's server uses.
func bucketOf(t *testing.T, env *apiservertest.Env) *objstore.Store {
	t.Helper()
	cfg, err := objstore.ParseURL(env.ObjectStore)
	if err != nil {
		t.Fatal(err)
	}
	st, err := objstore.New(context.Background(), cfg, objstore.Options{Credentials: s3test.Shared(t).Credentials()})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// keys lists the object keys under prefix.
func keys(t *testing.T, st *objstore.Store, prefix string) []string {
	t.Helper()
	var out []string
	for o, err := range st.List(context.Background(), prefix) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, o.Key)
	}
	return out
}

func bundleOn(t *testing.T, base, key, id string) api.Bundle {
	t.Helper()
	r := call(t, "POST", base+api.PathExportJobs+"/"+id+"/bundle", key, map[string]any{})
	if r.status != http.StatusOK {
		t.Fatalf("bundle on %s: %d %s", base, r.status, r.body)
	}
	var b api.Bundle
	r.decode(t, &b)
	return b
}

// The bundle link is a SigV4 presigned GET that MinIO serves; its size and
// version are those of the stored object; a second link, even after the
// first expired, builds nothing.
func TestObjectStore_bundleIsPresignedObject(t *testing.T) {
	opts, st := onObjects(t)
	env := apiservertest.Start(t, opts...)
	job := env.StartExportAndWait(t, api.StartExportRequest{Domain: env.Domain})
	// A demo site is a few kilobytes: one pack holds it.
	if site := keys(t, st, "exports/"+job.JobID+"/a1/packs/"); len(site) != 1 {
		t.Fatalf("site objects %q under the first attempt's prefix, want one pack; bucket has %q", site, keys(t, st, ""))
	}
	b := env.Bundle(t, job.JobID)
	u, err := url.Parse(b.BundleURL)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date", "X-Amz-Expires", "X-Amz-Signature"} {
		if u.Query().Get(p) == "" {
			t.Fatalf("bundle link %s has no %s", u.Redacted(), p)
		}
	}
	info, err := st.Stat(context.Background(), "exports/"+job.JobID+"/"+api.BundleFileName)
	if err != nil {
		t.Fatal(err)
	}
	if b.SizeBytes != info.Size || b.Version == "" || b.Version != job.Version || info.Metadata["content-version"] != b.Version {
		t.Fatalf("bundle says %d bytes, version %q; object has %d bytes, metadata %v; job version %q",
			b.SizeBytes, b.Version, info.Size, info.Metadata, job.Version)
	}
	if man := download(t, b.BundleURL, b.SizeBytes); man.Version != b.Version {
		t.Fatalf("downloaded version %q, bundle said %q", man.Version, b.Version)
	}
	env.Clock.Advance(2 * time.Hour)
	again := env.Bundle(t, job.JobID)
	if again.SizeBytes != b.SizeBytes || again.BundleURL == b.BundleURL {
		t.Fatalf("second bundle %+v after %+v", again, b)
	}
	if n := env.Server.ArchivesBuilt(); n != 1 {
		t.Fatalf("%d archives built for two bundle calls, want 1", n)
	}
}

// Expiry and tampering are enforced by the store itself: a link signed
// in the past (through the injected clock) and a link with its key
// changed both get 403 from MinIO.
func TestObjectStore_expiredOrTamperedLinkForbiddenByStore(t *testing.T) {
	opts, _ := onObjects(t)
	env := apiservertest.Start(t, append(opts, apiservertest.WithBundleTTL(time.Minute))...)
	id := completedExport(t, env)
	env.Clock.Advance(-time.Hour) // sign an hour ago: expired for MinIO's clock
	old := env.Bundle(t, id)
	env.Clock.Advance(time.Hour)
	if !old.ExpiresAt.Before(time.Now()) {
		t.Fatalf("link expires at %s, want a time in the past", old.ExpiresAt)
	}
	fresh := env.Bundle(t, id)
	tampered := strings.Replace(fresh.BundleURL, id, "se_0000000000000000", 1)
	for name, link := range map[string]string{"expired": old.BundleURL, "tampered": tampered} {
		resp, err := http.Get(link)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(body), "<Error>") {
			t.Errorf("%s link: %d %s; want 403 from the store", name, resp.StatusCode, body)
		}
	}
	download(t, fresh.BundleURL, fresh.SizeBytes)
}

// Replicas asked for the same bundle at once store one archive between
// them: the conditional upload lets exactly one win.
func TestObjectStore_concurrentBundleBuildsOneArchive(t *testing.T) {
	opts, _ := onObjects(t)
	env := apiservertest.Start(t, opts...)
	urlB, srvB := env.Replica(t)
	id := completedExport(t, env)
	var wg sync.WaitGroup
	sizes := make([]int64, 8)
	for i := range sizes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			base := []string{env.URL, urlB}[i%2]
			r := call(t, "POST", base+api.PathExportJobs+"/"+id+"/bundle", env.Key, map[string]any{})
			if r.status != http.StatusOK {
				t.Errorf("bundle: %d %s", r.status, r.body)
				return
			}
			var b api.Bundle
			r.decode(t, &b)
			sizes[i] = b.SizeBytes
		}()
	}
	wg.Wait()
	if n := env.Server.ArchivesBuilt() + srvB.ArchivesBuilt(); n != 1 {
		t.Fatalf("%d archives stored, want 1", n)
	}
	for _, s := range sizes {
		if s != sizes[0] || s == 0 {
			t.Fatalf("bundle sizes %v differ", sizes)
		}
	}
	b := bundleOn(t, urlB, env.Key, id)
	download(t, b.BundleURL, b.SizeBytes)
}

// A job past its retention goes with all its objects.
func TestObjectStore_sweepDeletesObjects(t *testing.T) {
	opts, st := onObjects(t)
	env := apiservertest.Start(t, append(opts, apiservertest.WithJobRetention(time.Hour))...)
	id := completedExport(t, env)
	env.Bundle(t, id)
	if len(keys(t, st, "exports/"+id+"/")) < 2 {
		t.Fatalf("want site and archive objects, have %q", keys(t, st, ""))
	}
	env.Clock.Advance(2 * time.Hour)
	if err := env.Server.Sweep(); err != nil {
		t.Fatal(err)
	}
	if left := keys(t, st, "exports/"); len(left) != 0 {
		t.Fatalf("objects left after the sweep: %q", left)
	}
	if r := call(t, "GET", env.URL+api.PathExportJobs+"/"+id, env.Key, nil); r.status != http.StatusNotFound {
		t.Fatalf("swept job: %d %s", r.status, r.body)
	}
}
