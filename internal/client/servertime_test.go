package client

import (
	"errors"
	"net"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/docsadmintest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

// A server whose clock runs ahead (moved by its control plane here) shows
// it in Date; ServerNow follows it, and a link it grants lives its full
// TTL by that clock, not TTL plus the skew.
func TestContract_serverNowFollowsTheServersClock(t *testing.T) {
	const token = "control-token-of-the-clock-test"
	env := apiservertest.Start(t, apiservertest.WithBundleTTL(time.Hour), apiservertest.WithControlToken(token))
	c := contractClient(t, env.URL, env.Key, func(cfg *Config) { cfg.Clock = env.Clock })
	job := env.StartExportAndWait(t, api.StartExportRequest{Domain: env.Domain})
	if _, err := docsadmintest.NewControl(env.URL, token).Advance(testCtx(t), 3*time.Hour); err != nil {
		t.Fatal(err)
	}
	if skew := c.Skew(); skew != 0 {
		t.Fatalf("skew %s before any answer", skew)
	}
	b, err := c.GenerateBundle(testCtx(t), job.JobID)
	if err != nil {
		t.Fatal(err)
	}
	if off := c.ServerNow().Sub(env.Clock.Now()) - 3*time.Hour; off.Abs() > 3*time.Second {
		t.Errorf("ServerNow is %s off the server's clock", off)
	}
	if lt := c.LinkLifetime(b); (lt - time.Hour).Abs() > 3*time.Second {
		t.Errorf("LinkLifetime = %s, want the server's 1h", lt)
	}
}

// CheckKey: a key the server accepts passes (the job it asks for does not
// exist), a refused one is ErrKeyRejected, and no server at all is an
// error that is not.
func TestContract_checkKey(t *testing.T) {
	env := apiservertest.Start(t)
	if err := contractClient(t, env.URL, env.Key).CheckKey(testCtx(t)); err != nil {
		t.Errorf("the server's own key: %v", err)
	}
	err := contractClient(t, env.URL, "dak_0123456789abcdefWRONG").CheckKey(testCtx(t))
	if !errors.Is(err, ErrKeyRejected) {
		t.Errorf("a wrong key: %v, want ErrKeyRejected", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	_ = l.Close()
	err = contractClient(t, closed, env.Key).CheckKey(testCtx(t))
	if err == nil || errors.Is(err, ErrKeyRejected) {
		t.Errorf("no server: %v, want a transport error", err)
	}
}
