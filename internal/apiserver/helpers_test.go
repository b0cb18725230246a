package apiserver_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
)

// reply is what a test sees of one HTTP exchange.
type reply struct {
	status int
	header http.Header
	body   []byte
}

func (r reply) errorMessage(t testing.TB) string {
	t.Helper()
	var e api.Error
	if err := json.Unmarshal(r.body, &e); err != nil || e.Error == "" {
		t.Fatalf("status %d: body is not a JSON error: %q", r.status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("error content type %q", ct)
	}
	return e.Error
}

func (r reply) decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("status %d: decode %q: %v", r.status, r.body, err)
	}
}

// call sends one request. body may be nil, a string (sent as is) or any
// value (sent as JSON); a non-nil body gets Content-Type application/json.
func call(t testing.TB, method, url, key string, body any) reply {
	t.Helper()
	return callWith(t, method, url, key, body, nil)
}

func callWith(t testing.TB, method, url, key string, body any, header map[string]string) reply {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	case io.Reader:
		rd = b
	default:
		data, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	return send(t, req)
}

// send sends req and reads the whole reply.
func send(t testing.TB, req *http.Request) reply {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{status: resp.StatusCode, header: resp.Header, body: data}
}

// completedExport starts an export of the environment's demo domain and
// waits for it to complete.
func completedExport(t testing.TB, env *apiservertest.Env) string {
	t.Helper()
	return env.StartExportAndWait(t, api.StartExportRequest{Domain: env.Domain}).JobID
}

// download fetches a presigned link and checks the archive against its
// manifest, returning the manifest.
func download(t testing.TB, link string, size int64) *bundle.Manifest {
	t.Helper()
	resp, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("download: %d %s", resp.StatusCode, b)
	}
	if resp.ContentLength != size {
		t.Fatalf("download is %d bytes, bundle said %d", resp.ContentLength, size)
	}
	man, err := bundle.VerifyArchive(resp.Body)
	if err != nil {
		t.Fatalf("downloaded archive does not match its manifest: %v", err)
	}
	return man
}

// eachBackend runs f on each of backends; f passes db to
// apiservertest.Start.
func eachBackend(t *testing.T, f func(t *testing.T, db apiservertest.Option)) {
	t.Helper()
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { f(t, b.open(t)) })
	}
}

// backends are the stores a server runs on: the embedded store, PostgreSQL
// (a fresh database from internal/pgtest) with local files, and PostgreSQL
// with a fresh MinIO bucket (internal/s3test). open makes a new one each
// time it is called.
var backends = []struct {
	name string
	open func(t *testing.T) apiservertest.Option
}{
	{"bbolt", func(*testing.T) apiservertest.Option { return apiservertest.WithDatabase("") }},
	{"postgres", func(t *testing.T) apiservertest.Option { return apiservertest.WithDatabase(pgtest.DB(t)) }},
	{"postgres+s3", func(t *testing.T) apiservertest.Option {
		opts, _ := onObjects(t)
		return apiservertest.Combine(opts...)
	}},
}
