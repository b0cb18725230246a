package objstore_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/objstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/s3test"
)

// download fetches a presigned link with plain net/http, as a user's
// browser or curl would.
func download(t *testing.T, link string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, link, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

func putArchive(t *testing.T, s *objstore.Store, key, content string) {
	t.Helper()
	if _, err := s.Put(context.Background(), key, strings.NewReader(content), objstore.PutOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestPresignGet_downloads(t *testing.T) {
	b := s3test.Start(t)
	s := newStore(t, b, objstore.Options{})
	putArchive(t, s, "archives/job 1/site.tar.gz", "archive bytes")
	link, err := s.PresignGet(context.Background(), "archives/job 1/site.tar.gz", 15*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	for _, p := range []string{"X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date", "X-Amz-Expires", "X-Amz-SignedHeaders", "X-Amz-Signature"} {
		if q.Get(p) == "" {
			t.Errorf("presigned link has no %s", p)
		}
	}
	if q.Get("X-Amz-Algorithm") != "AWS4-HMAC-SHA256" || q.Get("X-Amz-Expires") != "900" {
		t.Errorf("presigned link has algorithm %q and expiry %q; want AWS4-HMAC-SHA256 and 900",
			q.Get("X-Amz-Algorithm"), q.Get("X-Amz-Expires"))
	}
	if !strings.HasPrefix(link, b.Endpoint+"/"+b.Name+"/") {
		t.Errorf("presigned link does not point at the bucket on %s", b.Endpoint)
	}
	if code, body := download(t, link); code != http.StatusOK || body != "archive bytes" {
		t.Errorf("download = %d %q; want 200 with the archive", code, body)
	}
}

// The signing time comes from the injected clock: a link signed two hours
// ago for one hour is already expired, and the store says so itself.
func TestPresignGet_expired(t *testing.T) {
	b := s3test.Start(t)
	signed := time.Now().Add(-2 * time.Hour).UTC().Truncate(time.Second)
	s := newStore(t, b, objstore.Options{Clock: clock.NewFake(signed)})
	putArchive(t, s, "a.tar.gz", "archive bytes")
	link, err := s.PresignGet(context.Background(), "a.tar.gz", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(link)
	if got, want := u.Query().Get("X-Amz-Date"), signed.Format("20060102T150405Z"); got != want {
		t.Errorf("X-Amz-Date = %s; want the fake clock's %s", got, want)
	}
	code, body := download(t, link)
	if code != http.StatusForbidden || !strings.Contains(body, "expired") {
		t.Errorf("expired link: %d %q; want 403 saying the request has expired", code, body)
	}
	if strings.Contains(body, "archive bytes") {
		t.Error("expired link returned the archive")
	}
}

// A link whose signature, key or expiry was changed is refused by the
// store; the untouched link still works.
func TestPresignGet_tampered(t *testing.T) {
	b := s3test.Start(t)
	s := newStore(t, b, objstore.Options{})
	putArchive(t, s, "orgs/a/site.tar.gz", "org a")
	putArchive(t, s, "orgs/b/site.tar.gz", "org b")
	link, err := s.PresignGet(context.Background(), "orgs/a/site.tar.gz", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(link)
	sig := u.Query().Get("X-Amz-Signature")
	flipped := "0"
	if sig[len(sig)-1] == '0' {
		flipped = "1"
	}
	for name, tampered := range map[string]string{
		"signature": strings.Replace(link, sig, sig[:len(sig)-1]+flipped, 1),
		"key":       strings.Replace(link, "/orgs/a/", "/orgs/b/", 1),
		"expiry":    strings.Replace(link, "X-Amz-Expires=3600", "X-Amz-Expires=604800", 1),
	} {
		if tampered == link {
			t.Fatalf("%s: tampering changed nothing", name)
		}
		code, body := download(t, tampered)
		if code != http.StatusForbidden || strings.Contains(body, "org ") {
			t.Errorf("link with a changed %s: %d %q; want 403 without content", name, code, body)
		}
	}
	if code, body := download(t, link); code != http.StatusOK || body != "org a" {
		t.Errorf("untouched link: %d %q; want 200 org a", code, body)
	}
}
