package apiserver_test

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/pgtest"
)

// agentBackends runs f on the two stores that keep agent jobs; the object
// store plays no part in them.
func agentBackends(t *testing.T, f func(t *testing.T, db apiservertest.Option)) {
	t.Helper()
	t.Run("bbolt", func(t *testing.T) { f(t, apiservertest.WithDatabase("")) })
	t.Run("postgres", func(t *testing.T) { f(t, apiservertest.WithDatabase(pgtest.DB(t))) })
}

// sendMessage posts a follow-up and returns the reply as it came.
func sendMessage(t testing.TB, env *apiservertest.Env, project, id, prompt string) reply {
	t.Helper()
	return call(t, "POST", env.URL+"/v2/agent/"+project+"/job/"+id+"/message", env.Key, map[string]string{"prompt": prompt})
}

// mustSendMessage posts a follow-up that must be accepted.
func mustSendMessage(t testing.TB, env *apiservertest.Env, project, id, prompt string) api.AgentJob {
	t.Helper()
	r := sendMessage(t, env, project, id, prompt)
	if r.status != http.StatusOK {
		t.Fatalf("send message: %d %s", r.status, r.body)
	}
	var job api.AgentJob
	r.decode(t, &job)
	return job
}

// TestAgentMessage_followUpKeepsPullRequest: a finished job goes back to
// active on a follow-up and completes again with the same pull request.
func TestAgentMessage_followUpKeepsPullRequest(t *testing.T) {
	agentBackends(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db)
		job := createAgentJob(t, env, env.ProjectID)
		env.Clock.Advance(2 * time.Second)
		done := getAgentJob(t, env, env.ProjectID, job.ID)
		if done.Status != api.AgentCompleted || done.PRLink == nil {
			t.Fatalf("before the message: %+v", done)
		}
		got := mustSendMessage(t, env, env.ProjectID, job.ID, "also fix the changelog")
		if got.ID != job.ID || got.Status != api.AgentActive || got.PRLink != nil || !got.CreatedAt.Equal(job.CreatedAt) {
			t.Fatalf("answer to the message: %+v", got)
		}
		if got := getAgentJob(t, env, env.ProjectID, job.ID); got.Status != api.AgentActive {
			t.Fatalf("while the agent works on the message: %+v", got)
		}
		env.Clock.Advance(2 * time.Second)
		again := getAgentJob(t, env, env.ProjectID, job.ID)
		if again.Status != api.AgentCompleted || again.PRLink == nil || *again.PRLink != *done.PRLink {
			t.Fatalf("after the message: %+v, want completed with %s", again, *done.PRLink)
		}
	})
}

// TestAgentMessage_afterFailureOrNoChanges: a failed job is worked on
// again, and a job without changes stays without a pull request.
func TestAgentMessage_afterFailureOrNoChanges(t *testing.T) {
	agentBackends(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db)
		fail := createAgentJob(t, env, env.FailProjectID)
		nc := createAgentJob(t, env, env.NoChangesProjectID)
		env.Clock.Advance(time.Second)
		if got := mustSendMessage(t, env, env.FailProjectID, fail.ID, "try again"); got.Status != api.AgentActive {
			t.Fatalf("failed job after a message: %+v", got)
		}
		if got := mustSendMessage(t, env, env.NoChangesProjectID, nc.ID, "look again"); got.Status != api.AgentActive {
			t.Fatalf("no-changes job after a message: %+v", got)
		}
		env.Clock.Advance(time.Second)
		if got := getAgentJob(t, env, env.FailProjectID, fail.ID); got.Status != api.AgentFailed || got.PRLink != nil {
			t.Fatalf("failing project's job: %+v", got)
		}
		if got := getAgentJob(t, env, env.NoChangesProjectID, nc.ID); got.Status != api.AgentCompleted || got.PRLink != nil {
			t.Fatalf("no-changes project's job: %+v", got)
		}
	})
}

// slowAgent makes ProjectID's agent take ten minutes a run, so that a
// test's own running time (the injected clock follows the wall clock) is
// far inside every margin.
func slowAgent() apiservertest.Option {
	return apiservertest.WithConfig(func(c *apiconfig.Config) {
		c.Organizations[0].Projects[0].Agent.Duration = apiconfig.Duration(10 * time.Minute)
	})
}

// TestAgentMessage_queuedWhileActive: messages sent while the agent works
// wait their turn, at most ten of them.
func TestAgentMessage_queuedWhileActive(t *testing.T) {
	agentBackends(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db, slowAgent())
		job := createAgentJob(t, env, env.ProjectID) // works 0-10 min
		for i := range 10 {                          // message i works 10(i+1) to 10(i+2) min
			if got := mustSendMessage(t, env, env.ProjectID, job.ID, "step "+strconv.Itoa(i)); got.Status != api.AgentActive {
				t.Fatalf("message %d: %+v", i, got)
			}
		}
		r := sendMessage(t, env, env.ProjectID, job.ID, "one too many")
		if r.status != http.StatusTooManyRequests || !strings.Contains(r.errorMessage(t), "10 follow-up messages waiting") {
			t.Fatalf("11th pending message: %d %s", r.status, r.body)
		}
		// The first message is done at 20 min; then there is room again.
		if ra, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || ra < 19*60 || ra > 20*60 {
			t.Fatalf("Retry-After %q, want about 1200", r.header.Get("Retry-After"))
		}
		env.Clock.Advance(15 * time.Minute)
		if r := sendMessage(t, env, env.ProjectID, job.ID, "still too many"); r.status != http.StatusTooManyRequests {
			t.Fatalf("while the first message is worked on: %d %s", r.status, r.body)
		}
		env.Clock.Advance(5 * time.Minute)
		mustSendMessage(t, env, env.ProjectID, job.ID, "the last step") // works 110-120 min
		env.Clock.Advance(90 * time.Minute)
		if got := getAgentJob(t, env, env.ProjectID, job.ID); got.Status != api.AgentActive || got.PRLink != nil {
			t.Fatalf("at 110 min, with the last message being worked on: %+v", got)
		}
		env.Clock.Advance(10 * time.Minute)
		if got := getAgentJob(t, env, env.ProjectID, job.ID); got.Status != api.AgentCompleted || got.PRLink == nil {
			t.Fatalf("after every message: %+v", got)
		}
	})
}

// TestAgentMessage_archived: a message postpones archiving, which counts
// from the end of the last work; an archived job refuses messages.
func TestAgentMessage_archived(t *testing.T) {
	agentBackends(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db, apiservertest.WithConfig(func(c *apiconfig.Config) {
			c.Organizations[0].Projects[0].Agent.ArchiveAfter = apiconfig.Duration(10 * time.Minute)
		}))
		job := createAgentJob(t, env, env.ProjectID) // works 0-2 s, archived at 602 s
		env.Clock.Advance(50 * time.Second)
		mustSendMessage(t, env, env.ProjectID, job.ID, "one more thing") // works 50-52 s, archived at 652 s
		env.Clock.Advance(590 * time.Second)
		if got := getAgentJob(t, env, env.ProjectID, job.ID); got.Status != api.AgentCompleted || got.ArchivedAt != nil {
			t.Fatalf("at 640 s: %+v", got)
		}
		env.Clock.Advance(20 * time.Second)
		got := getAgentJob(t, env, env.ProjectID, job.ID)
		want := job.CreatedAt.Add(652 * time.Second)
		if got.Status != api.AgentArchived || got.ArchivedAt == nil || got.ArchivedAt.Before(want) || got.ArchivedAt.After(want.Add(5*time.Second)) {
			t.Fatalf("at 660 s: %+v, want archived at about %v", got, want)
		}
		r := sendMessage(t, env, env.ProjectID, job.ID, "too late")
		if r.status != http.StatusBadRequest || !strings.Contains(r.errorMessage(t), "is archived") {
			t.Fatalf("message to an archived job: %d %s", r.status, r.body)
		}
		if again := getAgentJob(t, env, env.ProjectID, job.ID); again.Status != api.AgentArchived || !again.ArchivedAt.Equal(*got.ArchivedAt) {
			t.Fatalf("a refused message changed the job: %+v", again)
		}
	})
}

// TestAgentMessage_rateLimit: messages and new jobs share the project's
// hourly budget.
func TestAgentMessage_rateLimit(t *testing.T) {
	agentBackends(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db, apiservertest.WithAgentJobsPerHour(3))
		job := createAgentJob(t, env, env.ProjectID)
		env.Clock.Advance(10 * time.Minute)
		mustSendMessage(t, env, env.ProjectID, job.ID, "first")
		mustSendMessage(t, env, env.ProjectID, job.ID, "second")
		for name, r := range map[string]reply{
			"message": sendMessage(t, env, env.ProjectID, job.ID, "third"),
			"create":  call(t, "POST", env.URL+"/v2/agent/"+env.ProjectID+"/job", env.Key, map[string]string{"prompt": "new"}),
		} {
			if r.status != http.StatusTooManyRequests || !strings.Contains(r.errorMessage(t), "3 agent jobs per hour") {
				t.Fatalf("%s over the limit: %d %s", name, r.status, r.body)
			}
			// The job, the oldest of the three, leaves the window in 50 minutes.
			if ra, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || ra < 49*60 || ra > 50*60 {
				t.Fatalf("%s: Retry-After %q, want about 3000", name, r.header.Get("Retry-After"))
			}
		}
		// Another project has its own budget.
		createAgentJob(t, env, env.NoChangesProjectID)
		env.Clock.Advance(50*time.Minute + time.Second)
		if got := mustSendMessage(t, env, env.ProjectID, job.ID, "third"); got.Status != api.AgentActive {
			t.Fatalf("once the job left the window: %+v", got)
		}
		r := sendMessage(t, env, env.ProjectID, job.ID, "fourth")
		if r.status != http.StatusTooManyRequests {
			t.Fatalf("the two earlier messages still count: %d %s", r.status, r.body)
		}
	})
}

// TestAgentMessage_pastRetention: a job past its retention is gone for
// messages too.
func TestAgentMessage_pastRetention(t *testing.T) {
	agentBackends(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db, apiservertest.WithJobRetention(24*time.Hour))
		job := createAgentJob(t, env, env.ProjectID)
		mustSendMessage(t, env, env.ProjectID, job.ID, "keep going")
		env.Clock.Advance(25 * time.Hour)
		if r := sendMessage(t, env, env.ProjectID, job.ID, "still there?"); r.status != http.StatusNotFound {
			t.Fatalf("message past retention: %d %s", r.status, r.body)
		}
	})
}

// TestAgentMessage_concurrentPendingBound: messages racing for the last
// pending slots get exactly the ten there are; the check and the write are
// one transaction on either store.
func TestAgentMessage_concurrentPendingBound(t *testing.T) {
	agentBackends(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db, slowAgent())
		job := createAgentJob(t, env, env.ProjectID)
		const senders = 16
		statuses := make(chan int, senders)
		var wg sync.WaitGroup
		for i := range senders {
			wg.Add(1)
			go func() {
				defer wg.Done()
				statuses <- sendMessage(t, env, env.ProjectID, job.ID, "step "+strconv.Itoa(i)).status
			}()
		}
		wg.Wait()
		close(statuses)
		count := map[int]int{}
		for s := range statuses {
			count[s]++
		}
		if count[http.StatusOK] != 10 || count[http.StatusTooManyRequests] != senders-10 {
			t.Fatalf("statuses %v, want 10 accepted and %d refused", count, senders-10)
		}
		// Ten messages of ten minutes each after the job's own ten.
		env.Clock.Advance(105 * time.Minute)
		if got := getAgentJob(t, env, env.ProjectID, job.ID); got.Status != api.AgentActive {
			t.Fatalf("at 105 min: %+v", got)
		}
		env.Clock.Advance(10 * time.Minute)
		if got := getAgentJob(t, env, env.ProjectID, job.ID); got.Status != api.AgentCompleted {
			t.Fatalf("at 115 min: %+v", got)
		}
	})
}

// TestAgentMessage_followsTheScriptOfItsTime: a message is worked on by
// the project's agent script as it is when the message arrives; a job
// that opened a pull request keeps the link even when a later message
// fails.
func TestAgentMessage_followsTheScriptOfItsTime(t *testing.T) {
	agentBackends(t, func(t *testing.T, db apiservertest.Option) {
		var cfg *apiconfig.Config
		env := apiservertest.Start(t, db, apiservertest.WithConfig(func(c *apiconfig.Config) { cfg = c }))
		job := createAgentJob(t, env, env.ProjectID)
		env.Clock.Advance(2 * time.Second)
		done := getAgentJob(t, env, env.ProjectID, job.ID)
		if done.Status != api.AgentCompleted || done.PRLink == nil {
			t.Fatalf("first run: %+v", done)
		}
		// The operator changes the script; a restart applies it.
		env.Restart(t, func() {
			cfg.Organizations[0].Projects[0].Agent.Outcome = apiconfig.OutcomeFail
			cfg.Organizations[0].Projects[0].Agent.Duration = apiconfig.Duration(time.Minute)
		})
		if got := getAgentJob(t, env, env.ProjectID, job.ID); got.Status != api.AgentCompleted || got.PRLink == nil {
			t.Fatalf("the change rewrote the finished run: %+v", got)
		}
		mustSendMessage(t, env, env.ProjectID, job.ID, "now break it")
		env.Clock.Advance(50 * time.Second)
		if got := getAgentJob(t, env, env.ProjectID, job.ID); got.Status != api.AgentActive {
			t.Fatalf("50 s into a one-minute run: %+v", got)
		}
		env.Clock.Advance(10 * time.Second)
		got := getAgentJob(t, env, env.ProjectID, job.ID)
		if got.Status != api.AgentFailed || got.PRLink == nil || *got.PRLink != *done.PRLink {
			t.Fatalf("after the failing message: %+v, want failed with %s", got, *done.PRLink)
		}
	})
}
