package apiserver_test

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiservercmd"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/objstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/s3test"
)

// noSigningKey fails t when dir holds a link-signing key in either form.
func noSigningKey(t *testing.T, dir string) {
	t.Helper()
	for _, f := range []string{"signing-keys.json", "signing.key"} {
		if _, err := os.Stat(filepath.Join(dir, f)); !os.IsNotExist(err) {
			t.Fatalf("%s in %s (%v): a server on an object store signs no links and must not create a key", f, dir, err)
		}
	}
}

// Replicas on an object store hand out the store's presigned links, so
// none of them creates a signing key it would never use, and rotating
// finds nothing to rotate instead of creating one.
func TestSigningKey_noneWithObjectStore(t *testing.T) {
	opts, _ := onObjects(t)
	env := apiservertest.Start(t, opts...)
	job := completedExport(t, env)
	b := env.Bundle(t, job)
	u, err := url.Parse(b.BundleURL)
	if err != nil {
		t.Fatal(err)
	}
	if u.Query().Get("X-Amz-Signature") == "" || u.Query().Get("kid") != "" {
		t.Fatalf("bundle link %s is not the object store's presigned link", u.Redacted())
	}
	download(t, b.BundleURL, b.SizeBytes)
	noSigningKey(t, env.DataDir)

	// A second replica, on a data dir of its own, starts without a key too.
	dir := t.TempDir()
	jobs, bundles := apiservertest.Storage(t, env.DatabaseURL, env.ObjectStore, objstore.Options{Credentials: s3test.Shared(t).Credentials()})
	srv, err := apiserver.New(t.Context(), apiserver.Options{
		Config: apiserver.DemoConfig("dak_0123456789abcdef0123"), DataDir: dir, PublicURL: "http://127.0.0.1:1",
		Jobs: jobs, Bundles: bundles,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	noSigningKey(t, dir)

	var out, errb bytes.Buffer
	code := apiservercmd.Command(t.Context(), []string{"rotate-signing-key", "--data-dir", dir}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "no signing key in "+dir) || !strings.Contains(errb.String(), "object store") {
		t.Fatalf("rotate on a data dir without a key: exit %d, stderr %q; want exit 1 saying there is no key and why", code, errb.String())
	}
	noSigningKey(t, dir)
	if _, err := os.Stat(filepath.Join(dir, "state.db")); !os.IsNotExist(err) {
		t.Fatalf("rotate created the data-dir lock file in a dir it had nothing to rotate in: %v", err)
	}
}

// The embedded store with an object store: the one process owns its data
// dir, and still has no link of its own to sign.
func TestSigningKey_noneWithObjectStoreEmbedded(t *testing.T) {
	b := s3test.Start(t)
	env := apiservertest.Start(t, apiservertest.WithObjectStore(b.URL(), objstore.Options{Credentials: b.Credentials()}))
	job := completedExport(t, env)
	bl := env.Bundle(t, job)
	download(t, bl.BundleURL, bl.SizeBytes)
	noSigningKey(t, env.DataDir)
	env.Restart(t, nil)
	noSigningKey(t, env.DataDir)
}
