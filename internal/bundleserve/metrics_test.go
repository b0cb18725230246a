package bundleserve

import (
	"context"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// The metrics say which version is served, when a bundle last verified,
// how many bytes of site went out and how many updates failed, and hold
// no part of the link.
func TestMetrics_servedVerifiedBytesFailures(t *testing.T) {
	f := newFixture(t)
	ms := httptest.NewServer(f.srv.MetricsHandler())
	t.Cleanup(ms.Close)
	m := testutil.Scrape(t, ms.URL)
	if got := m.Must(t, "docsadmin_bundle_served_info", "version", f.srv.Version()); got != 1 {
		t.Fatalf("served_info = %v", got)
	}
	if got := m.Must(t, "docsadmin_bundle_last_verification_timestamp_seconds"); got <= 0 {
		t.Fatalf("last verification %v after a verified bundle", got)
	}
	if got := m.Must(t, "docsadmin_bundle_update_failures_total"); got != 0 {
		t.Fatalf("failures %v before any", got)
	}

	var n int
	for _, p := range []string{"/", "/quickstart", "/no/such/page"} {
		_, _, body := f.fetch(t, p)
		n += len(body)
	}
	// A link that does not verify (the right server, a forged signature)
	// is refused and counted; the old site keeps serving.
	link := bundleOf(t, f.env).BundleURL
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	for k := range q {
		q.Set(k, "forged")
	}
	u.RawQuery = q.Encode()
	f.setLink(t, u.String())
	if err := f.srv.Update(context.Background()); err == nil {
		t.Fatal("a forged link was accepted")
	}

	m = testutil.Scrape(t, ms.URL)
	if got := m.Must(t, "docsadmin_bundle_served_bytes_total"); got != float64(n) {
		t.Errorf("served bytes %v, clients read %d", got, n)
	}
	if got := m.Must(t, "docsadmin_bundle_update_failures_total"); got != 1 {
		t.Errorf("failures %v after a refused link", got)
	}
	if strings.Contains(m.Body, u.RawQuery) || strings.Contains(m.Body, u.Host) {
		t.Fatalf("the scrape holds part of the link:\n%s", m.Body)
	}
}
