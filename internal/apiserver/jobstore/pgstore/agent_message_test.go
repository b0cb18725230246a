package pgstore

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
)

// Follow-up messages sent through both replicas at once share the
// project's hourly budget with the jobs; a refusal by accept stores
// nothing; and dropping a job past its retention frees what its messages
// used of the budget.
func TestStore_agentMessagesShareHourlyLimit(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			stores := b.pair(t)
			const tries, limit = 8, 4
			since := t0.Add(-time.Hour)
			job := &jobstore.AgentJob{ID: "aj_msg", OrgID: "acme", ProjectID: "proj_docs", CreatedAt: t0}
			if _, lim, err := stores[0].CreateAgentJob(t.Context(), job, limit, since); err != nil || lim {
				t.Fatalf("create: limited %v err %v", lim, err)
			}
			accept := func(*jobstore.AgentJob) error { return nil }
			var wg sync.WaitGroup
			limited := make([]bool, tries)
			for i := range tries {
				wg.Add(1)
				go func() {
					defer wg.Done()
					msg := jobstore.AgentMessage{At: t0.Add(time.Duration(i+1) * time.Second), Outcome: "pullRequest", Duration: time.Second}
					var err error
					_, _, limited[i], err = stores[i%2].AddAgentMessage(t.Context(), job.ID, msg, limit, since, accept)
					if err != nil {
						t.Error(err)
					}
				}()
			}
			wg.Wait()
			accepted := 0
			for _, l := range limited {
				if !l {
					accepted++
				}
			}
			rec, err := stores[1].AgentJob(t.Context(), job.ID)
			if err != nil || accepted != limit-1 || len(rec.Messages) != limit-1 {
				t.Fatalf("%d messages accepted, %d stored (%v); want %d", accepted, len(rec.Messages), err, limit-1)
			}
			if _, lim, err := stores[1].CreateAgentJob(t.Context(), &jobstore.AgentJob{ID: "aj_over", ProjectID: "proj_docs", CreatedAt: t0.Add(time.Minute)}, limit, since); err != nil || !lim {
				t.Fatalf("a job after the messages used the budget: limited %v err %v", lim, err)
			}

			refused := errors.New("refused by accept")
			if _, _, _, err := stores[0].AddAgentMessage(t.Context(), job.ID, jobstore.AgentMessage{At: t0.Add(time.Hour)}, 100, since,
				func(*jobstore.AgentJob) error { return refused }); !errors.Is(err, refused) {
				t.Fatalf("accept's refusal = %v", err)
			}
			if _, _, _, err := stores[0].AddAgentMessage(t.Context(), "aj_none", jobstore.AgentMessage{At: t0}, limit, since, accept); !errors.Is(err, jobstore.ErrNoRecord) {
				t.Fatalf("unknown job = %v, want ErrNoRecord", err)
			}
			if rec, _ := stores[0].AgentJob(t.Context(), job.ID); len(rec.Messages) != limit-1 {
				t.Fatalf("a refused message was stored: %d messages", len(rec.Messages))
			}

			if n, err := stores[1].DeleteAgentJobsBefore(t.Context(), t0.Add(time.Second/2)); err != nil || n != 1 {
				t.Fatalf("deleted %d (%v), want the one job", n, err)
			}
			if _, lim, err := stores[0].CreateAgentJob(t.Context(), &jobstore.AgentJob{ID: "aj_after", ProjectID: "proj_docs", CreatedAt: t0.Add(time.Minute)}, 1, since); err != nil || lim {
				t.Fatalf("the deleted job's messages still count: limited %v err %v", lim, err)
			}
		})
	}
}

// A forced state is part of the job's record: one replica writes it, the
// other reads it, a message keeps it, and nil clears it.
func TestStore_forceAgentState(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			stores := b.pair(t)
			if _, err := stores[0].ForceAgentState(t.Context(), "aj_none", &jobstore.AgentForced{Status: "failed"}); !errors.Is(err, jobstore.ErrNoRecord) {
				t.Fatalf("force an unknown job: %v", err)
			}
			job := &jobstore.AgentJob{ID: "aj_forced", OrgID: "acme", ProjectID: "proj_docs", CreatedAt: t0}
			if _, _, err := stores[0].CreateAgentJob(t.Context(), job, 10, t0.Add(-time.Hour)); err != nil {
				t.Fatal(err)
			}
			link := "https://git.example.test/pull/7"
			f := &jobstore.AgentForced{Status: "completed", PRLink: &link, At: t0.Add(time.Minute)}
			if rec, err := stores[0].ForceAgentState(t.Context(), job.ID, f); err != nil || rec.Forced == nil || rec.Forced.Status != "completed" {
				t.Fatalf("force: %+v %v", rec, err)
			}
			msg := jobstore.AgentMessage{At: t0.Add(2 * time.Minute), Outcome: "pullRequest", Duration: time.Second}
			if _, _, _, err := stores[1].AddAgentMessage(t.Context(), job.ID, msg, 10, t0.Add(-time.Hour), func(*jobstore.AgentJob) error { return nil }); err != nil {
				t.Fatal(err)
			}
			rec, err := stores[1].AgentJob(t.Context(), job.ID)
			if err != nil || rec.Forced == nil || *rec.Forced.PRLink != link || !rec.Forced.At.Equal(f.At) || len(rec.Messages) != 1 {
				t.Fatalf("read through the other store after a message: %+v %v", rec, err)
			}
			if _, err := stores[1].ForceAgentState(t.Context(), job.ID, nil); err != nil {
				t.Fatal(err)
			}
			if rec, err := stores[0].AgentJob(t.Context(), job.ID); err != nil || rec.Forced != nil {
				t.Fatalf("after clearing: %+v %v", rec, err)
			}
		})
	}
}
