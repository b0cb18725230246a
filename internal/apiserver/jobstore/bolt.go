package jobstore

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// The store keeps job records in bbolt: one file, ACID transactions that
// are fsynced on commit, readable while written, pure Go. Rendered sites and
// archives are plain files next to it (see exportDir), written to a
// temporary name, fsynced and renamed, so a record never points at a
// half-written file.
var (
	bucketAgentJobs  = []byte("agent_jobs")
	bucketAgentIndex = []byte("agent_jobs_by_project_time")
	bucketExportJobs = []byte("export_jobs")
	bucketCounters   = []byte("counters")
	// bucketIdempotency maps "<org>\x00<Idempotency-Key>" to the job a
	// start created, so a retried start returns it instead of a second job.
	bucketIdempotency = []byte("export_idempotency")
)

// Bolt is the embedded Store. bbolt's file lock makes it one
// process's, so a job left running by a crashed process can be reclaimed
// at once on the next start (see ReleaseLeases).
type Bolt struct {
	db    *bolt.DB
	fault WriteFaults
	// decoded saves status reads decoding an unchanged record (readmemo.go).
	decoded exportDecodes
}

var _ Store = (*Bolt)(nil)

// update runs one write transaction, or fails the way a full disk would
// when a test says so.
func (s *Bolt) update(fn func(*bolt.Tx) error) error {
	if err := s.fault.check(); err != nil {
		return err
	}
	return s.db.Update(fn)
}

// Faults implements Store.
func (s *Bolt) Faults() *WriteFaults { return &s.fault }

// OpenBolt opens (creating it if need be) the state file in dataDir and
// takes its lock; a second process opening it waits two seconds, then fails.
func OpenBolt(dataDir string) (*Bolt, error) {
	db, err := bolt.Open(filepath.Join(dataDir, "state.db"), 0o600, &bolt.Options{Timeout: 2 * time.Second})
	if err != nil {
		if errors.Is(err, bolterrors.ErrTimeout) {
			return nil, fmt.Errorf("data dir %s is in use by another server", dataDir)
		}
		return nil, fmt.Errorf("open store: %w", err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketAgentJobs, bucketAgentIndex, bucketExportJobs, bucketCounters, bucketIdempotency} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("init store: %w", err)
	}
	return &Bolt{db: db}, nil
}

// Close implements Store.
func (s *Bolt) Close() error { return s.db.Close() }

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
func (s *Bolt) CreateAgentJob(rec *AgentJob, limit int, since time.Time) (oldest time.Time, limited bool, err error) {
	err = s.update(func(tx *bolt.Tx) error {
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

// AddAgentMessage implements Store.
func (s *Bolt) AddAgentMessage(id string, msg AgentMessage, limit int, since time.Time,
	accept func(*AgentJob) error,
) (rec *AgentJob, oldest time.Time, limited bool, err error) {
	err = s.update(func(tx *bolt.Tx) error {
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

// ForceAgentState implements Store.
func (s *Bolt) ForceAgentState(id string, f *AgentForced) (rec *AgentJob, err error) {
	err = s.update(func(tx *bolt.Tx) (err error) {
		rec, _, err = modifyAgentJob(tx, id, func(rec *AgentJob) (bool, error) {
			rec.Forced = f
			return true, nil
		})
		return err
	})
	return rec, err
}

// AgentJob implements Store.
func (s *Bolt) AgentJob(id string) (*AgentJob, error) {
	var rec AgentJob
	return &rec, s.get(bucketAgentJobs, id, &rec)
}

// get decodes the record stored under id, or returns ErrNoRecord.
func (s *Bolt) get(bucket []byte, id string, v any) error {
	return s.db.View(func(tx *bolt.Tx) error {
		data := tx.Bucket(bucket).Get([]byte(id))
		if data == nil {
			return ErrNoRecord
		}
		return json.Unmarshal(data, v)
	})
}

// PutExportJob implements Store.
func (s *Bolt) PutExportJob(rec *ExportJob) error {
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return s.update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketExportJobs).Put([]byte(rec.JobID), data)
	})
}

// ExportJob implements Store.
func (s *Bolt) ExportJob(id string) (*ExportJob, error) {
	var rec *ExportJob
	err := s.db.View(func(tx *bolt.Tx) error {
		data := tx.Bucket(bucketExportJobs).Get([]byte(id))
		if data == nil {
			s.decoded.forget(id)
			return ErrNoRecord
		}
		var err error
		rec, err = s.decoded.decode(id, data)
		return err
	})
	if err != nil {
		return &ExportJob{}, err
	}
	return rec, nil
}

// ExportJobs implements Store.
func (s *Bolt) ExportJobs() ([]*ExportJob, error) {
	var out []*ExportJob
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketExportJobs).ForEach(func(_, v []byte) error {
			var rec ExportJob
			if err := json.Unmarshal(v, &rec); err != nil {
				return err
			}
			out = append(out, &rec)
			return nil
		})
	})
	return out, err
}

// DeleteExportJob implements Store.
func (s *Bolt) DeleteExportJob(id string) error {
	return s.update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketExportJobs).Delete([]byte(id))
	})
}

// DeleteAgentJobsBefore implements Store.
func (s *Bolt) DeleteAgentJobsBefore(cutoff time.Time) (int, error) {
	return s.deleteAgentJobsWhere(func(rec *AgentJob) bool { return rec.CreatedAt.Before(cutoff) })
}

// DeleteOrgAgentJobs implements Store.
func (s *Bolt) DeleteOrgAgentJobs(orgID string) (int, error) {
	return s.deleteAgentJobsWhere(func(rec *AgentJob) bool { return rec.OrgID == orgID })
}

// deleteAgentJobsWhere drops the agent jobs doomed picks, with their
// index entries.
func (s *Bolt) deleteAgentJobsWhere(doomed func(*AgentJob) bool) (int, error) {
	n := 0
	err := s.update(func(tx *bolt.Tx) error {
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

// CreateExportJob checks and inserts in one transaction, so concurrent
// starts cannot slip past a limit together.
func (s *Bolt) CreateExportJob(rec *ExportJob, idemKey, hash string, lim Limits) (existing *ExportJob, err error) {
	err = s.update(func(tx *bolt.Tx) error {
		if idemKey != "" {
			prev, err := idempotentLookup(tx, rec.OrgID, idemKey, hash, rec.CreatedAt)
			if err != nil || prev != nil {
				existing = prev
				return err
			}
		}
		active, stored, size := 0, 0, int64(0)
		err := tx.Bucket(bucketExportJobs).ForEach(func(_, v []byte) error {
			var other struct {
				OrgID      string `json:"orgId"`
				Status     string `json:"status"`
				SiteBytes  int64  `json:"siteBytes"`
				BundleSize int64  `json:"bundleSize"`
			}
			if err := json.Unmarshal(v, &other); err != nil {
				return err
			}
			if other.OrgID != rec.OrgID {
				return nil
			}
			stored++
			size += other.SiteBytes + other.BundleSize
			if other.Status == api.ExportQueued || other.Status == api.ExportRunning {
				active++
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := lim.check(active, stored, size); err != nil {
			return err
		}
		data, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		if err := tx.Bucket(bucketExportJobs).Put([]byte(rec.JobID), data); err != nil {
			return err
		}
		if idemKey != "" {
			return putIdempotency(tx, rec.OrgID, idemKey, idempotencyRecord{RequestHash: hash, JobID: rec.JobID, CreatedAt: rec.CreatedAt})
		}
		return nil
	})
	return existing, err
}
