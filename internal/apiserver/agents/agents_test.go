package agents

import (
	"reflect"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
)

var t0 = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

// TestJobView: an agent job moves with the clock: active while any of its
// runs (the prompt, then each follow-up, one after another) works, then
// as the last run ended; archived once ArchiveAfter has passed; a forced
// state holds until the next follow-up.
func TestJobView(t *testing.T) {
	job := func(outcome string, msgs ...jobstore.AgentMessage) *jobstore.AgentJob {
		return &jobstore.AgentJob{ID: "a1", Repository: "https://git.test/r", Outcome: outcome, PRNumber: 7,
			Duration: 5 * time.Second, ArchiveAfter: time.Hour, CreatedAt: t0, Messages: msgs}
	}
	pr := "https://git.test/r/pull/7"
	// A follow-up sent at 2 s waits for the prompt's run (until 5 s) and
	// then works 10 s: the job is active until 15 s.
	followUp := jobstore.AgentMessage{At: t0.Add(2 * time.Second), Outcome: apiconfig.OutcomeFail, Duration: 10 * time.Second}
	forced := job(apiconfig.OutcomeNoChanges)
	forced.Forced = &jobstore.AgentForced{Status: api.AgentCompleted, PRLink: &pr}
	stale := job(apiconfig.OutcomeNoChanges, followUp)
	stale.Forced = &jobstore.AgentForced{Status: api.AgentCompleted, PRLink: &pr} // forced before the follow-up
	for _, tc := range []struct {
		name     string
		rec      *jobstore.AgentJob
		at       time.Duration
		status   string
		prLink   string
		archived bool
	}{
		{"working", job(apiconfig.OutcomePullRequest), 4 * time.Second, api.AgentActive, "", false},
		{"done with a pull request", job(apiconfig.OutcomePullRequest), 5 * time.Second, api.AgentCompleted, pr, false},
		{"done without changes", job(apiconfig.OutcomeNoChanges), 5 * time.Second, api.AgentCompleted, "", false},
		{"failed", job(apiconfig.OutcomeFail), 5 * time.Second, api.AgentFailed, "", false},
		{"archived", job(apiconfig.OutcomePullRequest), time.Hour + 5*time.Second, api.AgentArchived, pr, true},
		{"a follow-up queued behind the prompt", job(apiconfig.OutcomePullRequest, followUp), 14 * time.Second, api.AgentActive, "", false},
		{"the follow-up failed; the pull request stays", job(apiconfig.OutcomePullRequest, followUp), 15 * time.Second, api.AgentFailed, pr, false},
		{"forced", forced, time.Second, api.AgentCompleted, pr, false},
		{"forced before a follow-up", stale, 15 * time.Second, api.AgentFailed, "", false},
	} {
		got := JobView(tc.rec, t0.Add(tc.at))
		link := ""
		if got.PRLink != nil {
			link = *got.PRLink
		}
		if got.Status != tc.status || link != tc.prLink || (got.ArchivedAt != nil) != tc.archived {
			t.Errorf("%s: status %s, link %q, archived at %v; want %s, %q, archived %v", tc.name, got.Status, link, got.ArchivedAt, tc.status, tc.prLink, tc.archived)
		}
	}
}

// TestUpdateView: a documentation update is queued, in progress and then
// ended by its build's times, failing with the reason it was given.
func TestUpdateView(t *testing.T) {
	rec := &jobstore.Update{ID: "u1", ProjectID: "p", Subdomain: "docs.test", Repository: "https://git.test/r", Branch: "main",
		CreatedAt: t0, StartAt: t0.Add(time.Second), EndAt: t0.Add(3 * time.Second), Pages: 12, SHA: "0123456789abcdef"}
	failed := *rec
	failed.Failure = "docs.json: not found"
	for _, tc := range []struct {
		name    string
		rec     *jobstore.Update
		at      time.Duration
		status  string
		summary string
		logs    int
	}{
		{"queued", rec, 0, api.UpdateQueued, "waiting for the build to start", 1},
		{"building", rec, 2 * time.Second, api.UpdateInProgress, "building 12 pages", 2},
		{"deployed", rec, 3 * time.Second, api.UpdateSuccess, "deployed 12 pages to docs.test", 3},
		{"failed", &failed, 3 * time.Second, api.UpdateFailure, "build failed: docs.json: not found", 3},
	} {
		v := updateView(tc.rec, t0.Add(tc.at))
		if v.Status != tc.status || v.Summary != tc.summary || len(v.Logs) != tc.logs || (v.EndedAt != nil) != (tc.logs == 3) {
			t.Errorf("%s: %s %q, %d log lines, ended %v; want %s %q, %d", tc.name, v.Status, v.Summary, len(v.Logs), v.EndedAt, tc.status, tc.summary, tc.logs)
		}
	}
	if v := updateView(rec, t0); v.Commit.Ref != "refs/heads/main" || v.Logs[0] != "update queued: https://git.test/r branch main (0123456) to docs.test" {
		t.Errorf("queued update: ref %q, log %q", v.Commit.Ref, v.Logs[0])
	}
}

// TestFilesChanged: two snapshots' files compared, each list sorted.
func TestFilesChanged(t *testing.T) {
	before := map[string]string{"a.mdx": "1", "b.mdx": "2", "gone.mdx": "3", "z.mdx": "4"}
	after := map[string]string{"a.mdx": "1", "b.mdx": "changed", "new2.mdx": "5", "new1.mdx": "6", "z.mdx": "4"}
	added, modified, removed := filesChanged(before, after)
	if !reflect.DeepEqual(added, []string{"new1.mdx", "new2.mdx"}) || !reflect.DeepEqual(modified, []string{"b.mdx"}) || !reflect.DeepEqual(removed, []string{"gone.mdx"}) {
		t.Errorf("added %q modified %q removed %q", added, modified, removed)
	}
	if a, m, r := filesChanged(before, before); a != nil || m != nil || r != nil {
		t.Errorf("unchanged snapshots: %q %q %q", a, m, r)
	}
}

// TestRetryAfterSeconds: a wait rounds up to whole seconds, at least one.
func TestRetryAfterSeconds(t *testing.T) {
	for d, want := range map[time.Duration]int{0: 1, -time.Second: 1, time.Millisecond: 1, time.Second: 1, 1001 * time.Millisecond: 2, time.Hour: 3600} {
		if got := retryAfterSeconds(d); got != want {
			t.Errorf("retryAfterSeconds(%s) = %d, want %d", d, got, want)
		}
	}
}
