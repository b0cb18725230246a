package jobstore

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"time"

	bolt "go.etcd.io/bbolt"
)

// UpdateStore keeps documentation updates. An update's whole course is
// fixed when it is created (when it starts and ends, how it ends), so it
// is written once and its status derived from the clock on every read.
type UpdateStore interface {
	// CreateUpdate stores rec in one transaction with its checks: prepare
	// sees the project's latest update (nil for its first) and fills in
	// what follows from it (rec's start behind it, the files changed
	// since); then, when limit of the project's updates are still
	// running at now, nothing is stored and the end of the earliest of
	// them is returned, from which the caller computes Retry-After.
	CreateUpdate(ctx context.Context, rec *Update, limit int, now time.Time, prepare func(prev *Update)) (firstEnd time.Time, limited bool, err error)
	// RunningUpdates counts a project's updates that have not ended at
	// now, and the end of the earliest of them: CreateUpdate's check,
	// made before a trigger does work that CreateUpdate would refuse.
	RunningUpdates(ctx context.Context, projectID string, now time.Time) (running int, firstEnd time.Time, err error)
	// FinishUpdateCheck records the outcome of an update's build check:
	// it is no longer Pending, and fails with failure unless that is "".
	FinishUpdateCheck(ctx context.Context, id, failure string) error
	Update(ctx context.Context, id string) (*Update, error)
	// DeleteUpdatesBefore drops updates created before cutoff.
	DeleteUpdatesBefore(ctx context.Context, cutoff time.Time) (int, error)
	// DeleteOrgUpdates drops every update of an organization.
	DeleteOrgUpdates(ctx context.Context, orgID string) (int, error)
}

// Update is what is stored of a documentation update: the snapshot of the
// deployment's docs source it deploys and the course it runs.
type Update struct {
	ID         string    `json:"id"`
	OrgID      string    `json:"orgId"`
	ProjectID  string    `json:"projectId"`
	Subdomain  string    `json:"subdomain,omitempty"`
	Repository string    `json:"repository"`
	Branch     string    `json:"branch"`
	CreatedAt  time.Time `json:"createdAt"`
	// StartAt and EndAt bound the build: queued before, in progress
	// between, ended after.
	StartAt time.Time `json:"startAt"`
	EndAt   time.Time `json:"endAt"`
	// Failure, when set, is why the build fails; otherwise it succeeds.
	Failure string `json:"failure,omitempty"`
	// Pending is set until the build check (docs.json loads), which runs
	// after the trigger has answered, has recorded its Failure.
	Pending bool `json:"pending,omitempty"`
	Pages   int  `json:"pages"`
	// SHA identifies the source's content; Files maps each file of it to
	// the SHA-256 of its content, for the next update's files changed.
	SHA      string            `json:"sha"`
	Files    map[string]string `json:"files,omitempty"`
	Added    []string          `json:"added,omitempty"`
	Modified []string          `json:"modified,omitempty"`
	Removed  []string          `json:"removed,omitempty"`
}

// The updates bucket holds records by id; the index orders each
// project's updates by their end, so its latest and its running ones are
// a short walk back from the end.
var (
	bucketUpdates     = []byte("doc_updates")
	bucketUpdateIndex = []byte("doc_updates_by_project_end")
)

// CreateUpdate implements UpdateStore. The buckets are created on first
// use, so a data dir from before updates existed needs nothing done.
func (s *boltUpdates) CreateUpdate(ctx context.Context, rec *Update, limit int, now time.Time, prepare func(prev *Update)) (firstEnd time.Time, limited bool, err error) {
	err = s.update(ctx, func(tx *bolt.Tx) error {
		recs, err := tx.CreateBucketIfNotExists(bucketUpdates)
		if err != nil {
			return err
		}
		idx, err := tx.CreateBucketIfNotExists(bucketUpdateIndex)
		if err != nil {
			return err
		}
		running, end, prev, err := projectUpdates(recs, idx, rec.ProjectID, now)
		if err != nil {
			return err
		}
		firstEnd = end
		if limit > 0 && running >= limit {
			limited = true
			return nil
		}
		prepare(prev)
		data, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		if err := recs.Put([]byte(rec.ID), data); err != nil {
			return err
		}
		return idx.Put(indexKey(rec.ProjectID, rec.EndAt, rec.ID), nil)
	})
	return firstEnd, limited, err
}

// projectUpdates walks a project's updates back from its latest: it
// counts those running at now, and returns the end of the earliest of
// them and the latest update (nil for none). The index orders a project's
// updates by their end, which is also the order they were created in
// (each ends after the one before it): the last is the latest, and the
// running ones are a walk back to the first that has ended.
func projectUpdates(recs, idx *bolt.Bucket, projectID string, now time.Time) (running int, firstEnd time.Time, latest *Update, err error) {
	c := idx.Cursor()
	prefix := append([]byte(projectID), 0)
	for k, _ := seekLast(c, prefix); k != nil && hasPrefix(k, prefix); k, _ = c.Prev() {
		if latest == nil {
			latest = &Update{}
			if err := json.Unmarshal(recs.Get(k[len(prefix)+8:]), latest); err != nil {
				return 0, time.Time{}, nil, err
			}
		}
		end := time.Unix(0, int64(binary.BigEndian.Uint64(k[len(prefix):]))) //nolint:gosec // G115: written from UnixNano
		if !end.After(now) {
			break
		}
		running++
		firstEnd = end
	}
	return running, firstEnd, latest, nil
}

// RunningUpdates implements UpdateStore.
func (s *boltUpdates) RunningUpdates(ctx context.Context, projectID string, now time.Time) (running int, firstEnd time.Time, err error) {
	err = s.view(ctx, func(tx *bolt.Tx) error {
		recs, idx := tx.Bucket(bucketUpdates), tx.Bucket(bucketUpdateIndex)
		if recs == nil || idx == nil {
			return nil
		}
		running, firstEnd, _, err = projectUpdates(recs, idx, projectID, now)
		return err
	})
	return running, firstEnd, err
}

// FinishUpdateCheck implements UpdateStore.
func (s *boltUpdates) FinishUpdateCheck(ctx context.Context, id, failure string) error {
	return s.update(ctx, func(tx *bolt.Tx) error {
		var rec Update
		if err := readUpdate(tx, id, &rec); err != nil {
			return err
		}
		rec.Pending, rec.Failure = false, failure
		out, err := json.Marshal(&rec)
		if err != nil {
			return err
		}
		return tx.Bucket(bucketUpdates).Put([]byte(id), out)
	})
}

// readUpdate decodes update id into rec, or returns ErrNoRecord.
func readUpdate(tx *bolt.Tx, id string, rec *Update) error {
	b := tx.Bucket(bucketUpdates)
	if b == nil {
		return ErrNoRecord
	}
	data := b.Get([]byte(id))
	if data == nil {
		return ErrNoRecord
	}
	return json.Unmarshal(data, rec)
}

// seekLast positions c on the last key with prefix, or returns nil.
func seekLast(c *bolt.Cursor, prefix []byte) ([]byte, []byte) {
	end := append(append([]byte{}, prefix[:len(prefix)-1]...), 1)
	if k, _ := c.Seek(end); k != nil {
		return c.Prev()
	}
	return c.Last()
}

func hasPrefix(k, prefix []byte) bool {
	return len(k) >= len(prefix)+8 && string(k[:len(prefix)]) == string(prefix)
}

// Update implements UpdateStore.
func (s *boltUpdates) Update(ctx context.Context, id string) (*Update, error) {
	var rec Update
	err := s.view(ctx, func(tx *bolt.Tx) error { return readUpdate(tx, id, &rec) })
	return &rec, err
}

// DeleteUpdatesBefore implements UpdateStore.
func (s *boltUpdates) DeleteUpdatesBefore(ctx context.Context, cutoff time.Time) (int, error) {
	return s.deleteUpdatesWhere(ctx, func(u *Update) bool { return u.CreatedAt.Before(cutoff) })
}

// DeleteOrgUpdates implements UpdateStore.
func (s *boltUpdates) DeleteOrgUpdates(ctx context.Context, orgID string) (int, error) {
	return s.deleteUpdatesWhere(ctx, func(u *Update) bool { return u.OrgID == orgID })
}

func (s *boltUpdates) deleteUpdatesWhere(ctx context.Context, doomed func(*Update) bool) (int, error) {
	n := 0
	err := s.update(ctx, func(tx *bolt.Tx) error {
		recs, idx := tx.Bucket(bucketUpdates), tx.Bucket(bucketUpdateIndex)
		if recs == nil || idx == nil {
			return nil
		}
		var keys, index [][]byte
		err := recs.ForEach(func(k, v []byte) error {
			var u Update
			if err := json.Unmarshal(v, &u); err != nil {
				return err
			}
			if doomed(&u) {
				keys = append(keys, k)
				index = append(index, indexKey(u.ProjectID, u.EndAt, u.ID))
			}
			return nil
		})
		if err != nil {
			return err
		}
		for i := range keys {
			if err := recs.Delete(keys[i]); err != nil {
				return err
			}
			if err := idx.Delete(index[i]); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}
