package jobstore

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// indexKey orders a project's agent jobs by creation time, so the number
// created in the last hour is a short cursor walk.
func indexKey(projectID string, t time.Time, id string) []byte {
	k := make([]byte, 0, len(projectID)+1+8+len(id))
	k = append(k, projectID...)
	k = append(k, 0)
	k = binary.BigEndian.AppendUint64(k, uint64(t.UnixNano()))
	return append(k, id...)
}

// CreateAgentJob checks and inserts in one transaction, so concurrent
// requests cannot both slip under the limit.
func (s *boltAgents) CreateAgentJob(ctx context.Context, rec *AgentJob, limit int, since time.Time) (oldest time.Time, limited bool, err error) {
	err = s.update(ctx, func(tx *bolt.Tx) error {
		idx := tx.Bucket(bucketAgentIndex)
		if oldest, limited = agentLimited(idx, rec.ProjectID, limit, since); limited {
			return nil
		}
		counters := tx.Bucket(bucketCounters)
		ck := []byte("pr/" + rec.ProjectID)
		var next uint64 = 1
		if v := counters.Get(ck); len(v) == 8 {
			next = binary.BigEndian.Uint64(v) + 1
		}
		if err := counters.Put(ck, binary.BigEndian.AppendUint64(nil, next)); err != nil {
			return err
		}
		rec.PRNumber = next
		data, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		if err := tx.Bucket(bucketAgentJobs).Put([]byte(rec.ID), data); err != nil {
			return err
		}
		return idx.Put(indexKey(rec.ProjectID, rec.CreatedAt, rec.ID), nil)
	})
	return oldest, limited, err
}

// AddAgentMessage implements AgentStore.
func (s *boltAgents) AddAgentMessage(ctx context.Context, id string, msg AgentMessage, limit int, since time.Time,
	accept func(*AgentJob) error,
) (rec *AgentJob, oldest time.Time, limited bool, err error) {
	err = s.update(ctx, func(tx *bolt.Tx) error {
		idx := tx.Bucket(bucketAgentIndex)
		var changed bool
		rec, changed, err = modifyAgentJob(tx, id, func(rec *AgentJob) (bool, error) {
			if err := accept(rec); err != nil {
				return false, err
			}
			if oldest, limited = agentLimited(idx, rec.ProjectID, limit, since); limited {
				return false, nil
			}
			rec.Messages = append(rec.Messages, msg)
			return true, nil
		})
		if err != nil || !changed {
			return err
		}
		return idx.Put(indexKey(rec.ProjectID, msg.At, messageIndexID(id, len(rec.Messages))), nil)
	})
	return rec, oldest, limited, err
}

// ForceAgentState implements AgentStore.
func (s *boltAgents) ForceAgentState(ctx context.Context, id string, f *AgentForced) (rec *AgentJob, err error) {
	err = s.update(ctx, func(tx *bolt.Tx) (err error) {
		rec, _, err = modifyAgentJob(tx, id, func(rec *AgentJob) (bool, error) {
			rec.Forced = f
			return true, nil
		})
		return err
	})
	return rec, err
}

// AgentJob implements AgentStore.
func (s *boltAgents) AgentJob(ctx context.Context, id string) (*AgentJob, error) {
	var rec AgentJob
	return &rec, s.get(ctx, bucketAgentJobs, id, &rec)
}

// DeleteAgentJobsBefore implements AgentStore.
func (s *boltAgents) DeleteAgentJobsBefore(ctx context.Context, cutoff time.Time) (int, error) {
	return s.deleteAgentJobsWhere(ctx, func(rec *AgentJob) bool { return rec.CreatedAt.Before(cutoff) })
}

// DeleteOrgAgentJobs implements AgentStore.
func (s *boltAgents) DeleteOrgAgentJobs(ctx context.Context, orgID string) (int, error) {
	return s.deleteAgentJobsWhere(ctx, func(rec *AgentJob) bool { return rec.OrgID == orgID })
}

// deleteAgentJobsWhere drops the agent jobs doomed picks, with their
// index entries.
func (s *boltAgents) deleteAgentJobsWhere(ctx context.Context, doomed func(*AgentJob) bool) (int, error) {
	n := 0
	err := s.update(ctx, func(tx *bolt.Tx) error {
		jobs, idx := tx.Bucket(bucketAgentJobs), tx.Bucket(bucketAgentIndex)
		var doomedJobs, doomedIndex [][]byte
		err := jobs.ForEach(func(k, v []byte) error {
			var rec AgentJob
			if err := json.Unmarshal(v, &rec); err != nil {
				return err
			}
			if doomed(&rec) {
				doomedJobs = append(doomedJobs, k)
				doomedIndex = append(doomedIndex, indexKey(rec.ProjectID, rec.CreatedAt, rec.ID))
				for i, m := range rec.Messages {
					doomedIndex = append(doomedIndex, indexKey(rec.ProjectID, m.At, messageIndexID(rec.ID, i+1)))
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range doomedJobs {
			if err := jobs.Delete(k); err != nil {
				return err
			}
			n++
		}
		for _, k := range doomedIndex {
			if err := idx.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
	return n, err
}

// agentLimited counts the project's jobs and follow-up messages created
// after since in the index; with limit of them or more it reports the
// oldest one's time.
func agentLimited(idx *bolt.Bucket, projectID string, limit int, since time.Time) (oldest time.Time, limited bool) {
	c := idx.Cursor()
	start := indexKey(projectID, since, "")
	prefix := append([]byte(projectID), 0)
	n := 0
	for k, _ := c.Seek(start); k != nil && len(k) >= len(prefix)+8 && string(k[:len(prefix)]) == string(prefix); k, _ = c.Next() {
		if n == 0 {
			oldest = time.Unix(0, int64(binary.BigEndian.Uint64(k[len(prefix):])))
		}
		n++
	}
	return oldest, n >= limit
}

// messageIndexID names a follow-up in the index, which counts it against
// the hourly limit beside the jobs: the job id and the message's number.
func messageIndexID(jobID string, n int) string { return fmt.Sprintf("%s#%d", jobID, n) }

// modifyAgentJob reads agent job id in tx, lets change edit it, and
// writes it back when change reports a change.
func modifyAgentJob(tx *bolt.Tx, id string, change func(*AgentJob) (bool, error)) (rec *AgentJob, changed bool, err error) {
	jobs := tx.Bucket(bucketAgentJobs)
	data := jobs.Get([]byte(id))
	if data == nil {
		return nil, false, ErrNoRecord
	}
	rec = &AgentJob{}
	if err := json.Unmarshal(data, rec); err != nil {
		return nil, false, err
	}
	if changed, err = change(rec); err != nil || !changed {
		return rec, false, err
	}
	if data, err = json.Marshal(rec); err != nil {
		return nil, false, err
	}
	return rec, true, jobs.Put([]byte(id), data)
}
