package apiserver_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/s3test"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// TestRestart_killWithQueuedMessage kills the server with SIGKILL right
// after it accepted a follow-up message queued behind the job's first
// run, restarts it on the same store, and checks that the message was not
// lost: the job stays active past the end of the first run, until the
// message's run is done too, and the message still counts against the
// project's hourly limit.
func TestRestart_killWithQueuedMessage(t *testing.T) {
	t.Run("bbolt", func(t *testing.T) { killWithQueuedMessage(t, "") })
	t.Run("postgres", func(t *testing.T) {
		// The command runs a shared database only with an object store.
		b := s3test.Start(t)
		b.SetEnv(t)
		killWithQueuedMessage(t, fmt.Sprintf(" --database-url %s --object-store %s", pgtest.DB(t), b.URL()))
	})
}

func killWithQueuedMessage(t *testing.T, storageArgs string) {
	// Each run takes five seconds of real time: the child runs on the
	// wall clock. That leaves the restart five seconds to finish before
	// the first run ends, which is what tells a kept message from a lost one.
	const run = 5 * time.Second
	dir := t.TempDir()
	key := "dak_" + strings.Repeat("cd", 16)
	cfg := fmt.Sprintf(`
organizations:
  - id: acme
    plan: enterprise
    apiKeys: [%q]
    projects:
      - id: docs
        repository: https://git.example.com/acme/docs
        agentJobsPerHour: 2
        agent: {outcome: pullRequest, duration: %s}
`, key, run)
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	args := fmt.Sprintf("--config %s --data-dir %s --addr %s", filepath.Join(dir, "config.yaml"), filepath.Join(dir, "data"), testutil.FreeAddr(t)) + storageArgs
	env := &apiservertest.Env{Key: key}

	first := startChild(t, args)
	env.URL = first.url
	job := createAgentJob(t, env, "docs")
	if got := mustSendMessage(t, env, "docs", job.ID, "and the changelog"); got.Status != api.AgentActive {
		t.Fatalf("message: %+v", got)
	}
	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = first.cmd.Wait()

	second := startChild(t, args)
	env.URL = second.url
	if r := sendMessage(t, env, "docs", job.ID, "one more"); r.status != http.StatusTooManyRequests {
		t.Fatalf("the job and the message before the crash use the hourly budget of 2, yet a third request got %d %s", r.status, r.body)
	}
	firstRunEnd := job.CreatedAt.Add(run)
	sawQueuedRun := false
	var final api.AgentJob
	testutil.Eventually(t, 4*run, "the job to complete after its message", func() bool {
		final = getAgentJob(t, env, "docs", job.ID)
		// The test and the child read the same wall clock; a second of
		// margin covers the time a request takes.
		if final.Status == api.AgentActive && time.Now().After(firstRunEnd.Add(time.Second)) {
			sawQueuedRun = true
		}
		return final.Status != api.AgentActive
	})
	if final.Status != api.AgentCompleted || final.PRLink == nil || !strings.HasSuffix(*final.PRLink, "/pull/1") {
		t.Fatalf("after the message: %+v", final)
	}
	if now := time.Now(); now.Before(firstRunEnd.Add(run)) {
		t.Fatalf("the job completed at %v, before its message could have been worked on (%v)", now, firstRunEnd.Add(run))
	}
	if !sawQueuedRun {
		t.Fatal("never saw the job active after its first run: the restart took too long to tell whether the message was kept")
	}
}
