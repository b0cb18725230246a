package rolloutcmd

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
)

// TestRollout_newChartIsApplied pins that a chart named with --chart is
// rolled out even when the release's link and content are still fresh: a
// cron run that only skips on "same version, live link" would never pick
// up a chart upgrade.
func TestRollout_newChartIsApplied(t *testing.T) {
	w := newWorld(t)
	st := w.env.StartExportAndWait(t, api.StartExportRequest{Domain: w.env.Domain})
	job := st.JobID

	code, out := w.run(t, Options{Request: rollout.Request{Install: true, Chart: chartPath, OnFailure: rollout.KeepFailed}, JobID: job})
	if code != ExitOK {
		t.Fatalf("install: %d %s", code, out)
	}
	first := w.state(t)

	code, out = w.run(t, Options{Request: rollout.Request{Chart: chartPath, OnFailure: rollout.KeepFailed}, JobID: job})
	if code != ExitOK || !strings.Contains(out, "nothing to do") {
		t.Fatalf("same chart, fresh link: %d %s", code, out)
	}

	bumped := copyChart(t, chartPath)
	code, out = w.run(t, Options{Request: rollout.Request{Chart: bumped, OnFailure: rollout.KeepFailed}, JobID: job})
	if code != ExitOK || !strings.Contains(out, "upgrading to docsadmin-self-hosted-99.0.0") {
		t.Fatalf("new chart: %d %s", code, out)
	}
	now := w.state(t)
	if now.Revision != first.Revision+1 || now.Chart != "docsadmin-self-hosted-99.0.0" || now.Status != "deployed" {
		t.Fatalf("after the new chart: %+v (was %+v)", now, first)
	}

	// And the new chart, now deployed, is not upgraded again.
	code, out = w.run(t, Options{Request: rollout.Request{Chart: bumped, OnFailure: rollout.KeepFailed}, JobID: job})
	if code != ExitOK || !strings.Contains(out, "nothing to do") || w.state(t).Revision != now.Revision {
		t.Fatalf("new chart again: %d %s", code, out)
	}
}

// copyChart copies the chart directory and sets its version to 99.0.0.
func copyChart(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "chart")
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	meta := filepath.Join(dst, "Chart.yaml")
	b, err := os.ReadFile(meta)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^version:.*$`)
	if !re.Match(b) {
		t.Fatal("Chart.yaml has no version line")
	}
	if err := os.WriteFile(meta, re.ReplaceAll(b, []byte("version: 99.0.0")), 0o600); err != nil {
		t.Fatal(err)
	}
	return dst
}
