package rolloutcmd

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
)

// writeSlowSite writes a docs source large enough that its export is still
// running when a client on a fast-forwarded clock gives up.
func writeSlowSite(t *testing.T, dir string, n int) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "p"), 0o755); err != nil {
		t.Fatal(err)
	}
	pages := make([]string, n)
	for i := range n {
		pages[i] = fmt.Sprintf(`"p/page%04d"`, i)
		body := fmt.Sprintf("---\ntitle: Page %d\n---\n\n# Page %d\n\n%s\n", i, i, strings.Repeat("Words about settings. ", 60))
		if err := os.WriteFile(filepath.Join(dir, "p", fmt.Sprintf("page%04d.mdx", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	docs := `{"name": "Slow", "navigation": {"groups": [{"group": "All", "pages": [` + strings.Join(pages, ",") + `]}]}}`
	if err := os.WriteFile(filepath.Join(dir, "docs.json"), []byte(docs), 0o644); err != nil {
		t.Fatal(err)
	}
}

// --export-timeout bounds the whole wait for the export: past it the run
// ends with exit 1 and says so, while the job goes on.
func TestRollout_exportTimeout(t *testing.T) {
	dir := t.TempDir()
	writeSlowSite(t, dir, 3000)
	env := apiservertest.Start(t, apiservertest.WithDeployment("slow.acme.test", dir))
	var errs bytes.Buffer
	opts, _, code := parseFlags([]string{"--release", release, "--domain", "slow.acme.test", "--install", "--chart", "unused", "--dry-run",
		"--export-timeout", "2m"}, &errs)
	if code >= 0 {
		t.Fatalf("flags: exit %d: %s", code, errs.String())
	}
	cfg := clientConfig(opts, env.URL, env.Key, hclog.NewNullLogger())
	// The client's clock jumps instead of sleeping, so the two minutes
	// pass in a few polls while the export is still rendering.
	cfg.Clock = env.Clock
	cfg.Sleep = func(ctx context.Context, d time.Duration) error {
		env.Clock.Advance(d)
		return ctx.Err()
	}
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	begin := env.Clock.Now()
	var out bytes.Buffer
	r := &Runner{Opts: opts, API: c, Roller: noRelease{}, Clock: env.Clock, Out: &out, Log: hclog.NewNullLogger()}
	if code := r.Run(t.Context()); code != ExitFailed || !strings.Contains(out.String(), "gave up waiting") {
		t.Fatalf("exit %d, want %d after the export timeout:\n%s", code, ExitFailed, out.String())
	}
	if waited := env.Clock.Now().Sub(begin); waited < 2*time.Minute || waited > 3*time.Minute {
		t.Fatalf("gave up after %s of client time, want about 2m", waited)
	}
	id := strings.Fields(strings.SplitN(out.String(), "started export ", 2)[1])[0]
	if job, err := c.GetExport(t.Context(), id); err != nil || api.ExportTerminal(job.Status) {
		t.Fatalf("the job should still be going: %+v %v", job, err)
	}
}
