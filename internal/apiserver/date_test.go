package apiserver_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/docsadmintest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// Date tells the time of the server's clock, the one links expire by,
// also once the control plane has moved it: clients compare it with their
// own clock to renew a link before the server refuses it.
func TestDate_isTheServersClock(t *testing.T) {
	env := controlEnv(t)
	if _, err := docsadmintest.NewControl(env.URL, testControlToken).Advance(t.Context(), 2*time.Hour); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(env.URL + api.PathHealthz)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	date, err := http.ParseTime(resp.Header.Get("Date"))
	if err != nil {
		t.Fatalf("Date %q: %v", resp.Header.Get("Date"), err)
	}
	if off := date.Sub(env.Clock.Now().Add(2 * time.Hour)); off.Abs() > 3*time.Second {
		t.Errorf("Date is %s off the server's clock", off)
	}
}
