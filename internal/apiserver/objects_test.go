package apiserver_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/bundles"
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

// A completed export's archive is in the bucket under the attempt's
// prefix, with only its render record beside it (which the next export
// of the deployment reuses pages by). The bundle link is a SigV4 presigned
// GET of it that MinIO serves; its size and version are those of the
// stored object; no bundle call, even after a link expired, builds
// another.
func TestObjectStore_bundleIsPresignedObject(t *testing.T) {
	opts, st := onObjects(t)
	env := apiservertest.Start(t, opts...)
	job := env.StartExportAndWait(t, api.StartExportRequest{Domain: env.Domain})
	archive := "exports/" + job.JobID + "/a1/" + api.BundleFileName
	if got := keys(t, st, "exports/"+job.JobID+"/"); len(got) != 2 || got[0] != archive ||
		!strings.HasPrefix(got[1], "exports/"+job.JobID+"/a1/"+bundles.RecordName("")) {
		t.Fatalf("objects of the completed job %q, want %s and its render record", got, archive)
	}
	if n := env.Server.ArchivesBuilt(); n != 1 {
		t.Fatalf("%d archives built by the export, want 1", n)
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
	info, err := st.Stat(context.Background(), archive)
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
		t.Fatalf("%d archives built after two bundle calls, want the export's 1", n)
	}
	// The job's stored bytes are the archive's: the bucket holds nothing else.
	if again.SizeBytes != info.Size {
		t.Fatalf("bundle size %d, archive object %d", again.SizeBytes, info.Size)
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

// A job an older server completed, whose site it stored as packs and
// whose archive it left to the first bundle call, is still served:
// replicas asked at once build the archive from the packs and store it
// once between them (the conditional upload lets exactly one win), byte
// for byte the archive this server uploads at completion.
func TestObjectStore_olderServersPacksStillArchived(t *testing.T) {
	b := s3test.Start(t)
	o := objstore.Options{Credentials: b.Credentials()}
	dbURL := pgtest.DB(t)
	env := apiservertest.Start(t, apiservertest.WithDatabase(dbURL), apiservertest.WithObjectStore(b.URL(), o))
	st := bucketOf(t, env)
	urlB, srvB := env.Replica(t)
	id := completedExport(t, env)
	ctx := context.Background()
	published := "exports/" + id + "/a1/" + api.BundleFileName
	body, _, err := st.Get(ctx, published)
	if err != nil {
		t.Fatal(err)
	}
	want, err := io.ReadAll(body)
	_ = body.Close()
	if err != nil {
		t.Fatal(err)
	}
	// What an older server left: the site as two packs in archive order
	// (manifest first), no archive, and a record naming the packs.
	prefix := "exports/" + id + "/a1/packs/"
	entries := untar(t, want)
	half := len(entries) / 2
	for n, part := range [][]tarEntry{entries[:half], entries[half:]} {
		if _, err := st.Put(ctx, fmt.Sprintf("%s%05d.tar", prefix, n+1), bytes.NewReader(tarOf(t, part)), objstore.PutOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Delete(ctx, published); err != nil {
		t.Fatal(err)
	}
	editPGJob(t, dbURL, id, func(rec map[string]any) {
		rec["sitePrefix"], rec["siteBytes"] = prefix, 1234
		delete(rec, "bundleSize")
	})
	built := env.Server.ArchivesBuilt() + srvB.ArchivesBuilt()
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
	if n := env.Server.ArchivesBuilt() + srvB.ArchivesBuilt() - built; n != 1 {
		t.Fatalf("%d archives stored, want 1", n)
	}
	for _, s := range sizes {
		if s != int64(len(want)) {
			t.Fatalf("bundle sizes %v, want all %d", sizes, len(want))
		}
	}
	link := bundleOn(t, urlB, env.Key, id)
	if !strings.Contains(link.BundleURL, "/exports/"+id+"/"+api.BundleFileName+"?") {
		t.Fatalf("link %s is not to the job's archive key", strings.Split(link.BundleURL, "?")[0])
	}
	resp, err := http.Get(link.BundleURL)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || !bytes.Equal(got, want) {
		t.Fatalf("archive built from packs: %d, %d bytes, %v; want the %d bytes published at completion", resp.StatusCode, len(got), err, len(want))
	}
}

// A completed job whose archive is gone from the bucket answers a bundle
// call with a 409 that says so, rather than a link to nothing or a
// retry that can never succeed.
func TestObjectStore_lostArchiveSaysSo(t *testing.T) {
	opts, st := onObjects(t)
	env := apiservertest.Start(t, opts...)
	id := completedExport(t, env)
	if err := st.Delete(context.Background(), "exports/"+id+"/a1/"+api.BundleFileName); err != nil {
		t.Fatal(err)
	}
	r := call(t, "POST", env.URL+api.PathExportJobs+"/"+id+"/bundle", env.Key, map[string]any{})
	if r.status != http.StatusConflict || !strings.Contains(r.errorMessage(t), "gone from the object store") {
		t.Fatalf("bundle of a lost archive: %d %s", r.status, r.body)
	}
}

// tarEntry is one file of an archive.
type tarEntry struct {
	name string
	data []byte
}

// untar lists the files of a tar.gz in order.
func untar(t *testing.T, gz []byte) []tarEntry {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var out []tarEntry
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tarEntry{hdr.Name, data})
	}
}

// tarOf is a plain tar of entries, as an older server's pack.
func tarOf(t *testing.T, entries []tarEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: e.name, Size: int64(len(e.data)), Mode: 0o600}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(e.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A job past its retention goes with all its objects.
func TestObjectStore_sweepDeletesObjects(t *testing.T) {
	opts, st := onObjects(t)
	env := apiservertest.Start(t, append(opts, apiservertest.WithJobRetention(time.Hour))...)
	id := completedExport(t, env)
	env.Bundle(t, id)
	if len(keys(t, st, "exports/"+id+"/")) == 0 {
		t.Fatalf("want the archive object, have %q", keys(t, st, ""))
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
