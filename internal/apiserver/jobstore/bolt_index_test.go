package jobstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// After every kind of write to the export jobs, in a seeded random
// order (starts under limits and idempotency keys, overwrites, lease
// renewals, completions, claims, released leases, deletions, writes
// refused by a fault, transactions that return an error or panic), the
// index holds what a scan of the bucket finds, and every start and claim
// answers as the scan of every record did before there was an index.
// After a close and reopen it holds the same again.
func TestBolt_indexFollowsEveryWrite(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			dir := t.TempDir()
			st := openTestBolt(t, dir)
			w := &indexWorld{t: t, st: st, now: t0, checks: true,
				rng: rand.New(rand.NewPCG(seed, seed)), //nolint:gosec // G404: a reproducible sequence, not a secret
			}
			for step := range 400 {
				op := w.step()
				if t.Failed() {
					t.Fatalf("step %d (%s) failed", step, op)
				}
				if diff := compareIndex(st); diff != "" {
					t.Fatalf("after step %d (%s): %s", step, op, diff)
				}
			}
			// The sequence reached the cases it is for.
			for _, c := range []string{"claimed", "idle claim", "refused by a limit", "refused by a fault", "lease lost", "rolled back", "panicked", "released"} {
				if w.seen[c] == 0 {
					t.Errorf("no %s in the sequence: %v", c, w.seen)
				}
			}
			before, _ := indexOf(st)
			if err := st.Close(); err != nil {
				t.Fatal(err)
			}
			st = openTestBolt(t, dir)
			if after, _ := indexOf(st); !reflect.DeepEqual(before.jobs, after.jobs) || !reflect.DeepEqual(before.orgs, after.orgs) {
				t.Fatalf("reopened, the index changed:\n before %+v\n after  %+v", before, after)
			}
			if diff := compareIndex(st); diff != "" {
				t.Fatalf("reopened: %s", diff)
			}
		})
	}
}

// Writers on many goroutines at once leave the index as the bucket is:
// each transaction's changes are applied before the next writer begins.
func TestBolt_indexUnderConcurrentWrites(t *testing.T) {
	st := openTestBolt(t, t.TempDir())
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := &indexWorld{t: t, st: st, now: t0,
				rng: rand.New(rand.NewPCG(uint64(g), 7)), //nolint:gosec // G404: a reproducible sequence, not a secret
			}
			for range 100 {
				w.step()
			}
		}()
	}
	wg.Wait()
	if diff := compareIndex(st); diff != "" {
		t.Fatal(diff)
	}
}

// A record the index cannot read fails the open, naming the job, rather
// than every later start and claim.
func TestOpenBolt_undecodableExportJob(t *testing.T) {
	dir := t.TempDir()
	st := openTestBolt(t, dir)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(filepath.Join(dir, "state.db"), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketExportJobs).Put([]byte("se_bad"), []byte(`{"orgId": 7}`))
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	if st, err := OpenBolt(t.Context(), dir); err == nil || !strings.Contains(err.Error(), "se_bad") {
		if st != nil {
			_ = st.Close()
		}
		t.Fatalf("open with an undecodable record: %v", err)
	}
}

// openTestBolt opens the store in dir without syncing the file on each
// commit: what is tested is what the store writes, not the disk.
func openTestBolt(t *testing.T, dir string) *Bolt {
	t.Helper()
	st, err := OpenBolt(t.Context(), dir)
	if err != nil {
		t.Fatal(err)
	}
	st.db.NoSync = true
	t.Cleanup(func() { _ = st.Close() })
	return st
}

var (
	errFault      = errors.New("disk full")
	errRolledBack = errors.New("rolled back")
)

// indexWorld makes random writes to one store. With checks (one
// goroutine writing) it also works out from a scan of the bucket what
// each start and claim must answer, and fails the test when it does not.
type indexWorld struct {
	t      *testing.T
	st     *Bolt
	rng    *rand.Rand
	now    time.Time
	checks bool
	seen   map[string]int // outcomes met, by name
}

const testLease = 30 * time.Second

// step makes one random write, under a fault one time in eight when
// checking, and returns its name.
func (w *indexWorld) step() string {
	w.now = w.now.Add(time.Duration(w.rng.IntN(40)) * time.Second)
	ops := []struct {
		name string
		do   func() error
	}{
		{"create", w.create}, {"create", w.create}, {"put", w.put}, {"bundle size", w.bundleSize},
		{"renew", w.renew}, {"complete", w.complete}, {"claim", w.claim}, {"claim", w.claim},
		{"release leases", w.release}, {"delete", w.delete}, {"failed transaction", w.failedTx},
		{"catch up", w.catchUp},
	}
	op := ops[w.rng.IntN(len(ops))]
	faulted := w.checks && w.rng.IntN(8) == 0
	if faulted {
		w.st.Faults().Fail(func() error { return errFault })
		defer w.st.Faults().Fail(nil)
	}
	err := op.do()
	switch {
	case faulted && errors.Is(err, errFault):
		w.saw("refused by a fault")
	case faulted && err == nil && (op.name == "claim" || op.name == "catch up"):
		// An idle claim, which is no write (claimOne checked it was idle).
	case faulted:
		w.t.Errorf("%s under a fault: %v, want %v", op.name, err, errFault)
	case errors.Is(err, ErrTooManyActive), errors.Is(err, ErrTooManyStored), errors.Is(err, ErrTooManyBytes):
		w.saw("refused by a limit")
	case errors.Is(err, ErrLeaseLost):
		w.saw("lease lost")
	case err == nil, errors.Is(err, ErrNoRecord), errors.Is(err, ErrIdempotencyConflict):
	default:
		w.t.Errorf("%s: %v", op.name, err)
	}
	return op.name
}

func (w *indexWorld) saw(outcome string) {
	if w.seen == nil {
		w.seen = map[string]int{}
	}
	w.seen[outcome]++
}

// Few ids, organizations and creation times, so that writes meet the
// same jobs again and claims choose between jobs created together.
func (w *indexWorld) id() string  { return fmt.Sprintf("se_%02d", w.rng.IntN(24)) }
func (w *indexWorld) org() string { return []string{"acme", "beta", "gamma"}[w.rng.IntN(3)] }
func (w *indexWorld) created() time.Time {
	return t0.Add(time.Duration(w.rng.IntN(5)) * time.Minute)
}

// record is a job record as the control plane or recovery may write it.
func (w *indexWorld) record(id string) *ExportJob {
	rec := newExport(id, w.org(), w.created())
	rec.Attempts = w.rng.IntN(3)
	switch w.rng.IntN(4) {
	case 0:
	case 1:
		rec.Status, rec.Owner = api.ExportRunning, "ctl"
		rec.LeaseUntil = []time.Time{{}, w.now.Add(-time.Second), w.now.Add(time.Minute), Pinned}[w.rng.IntN(4)]
	case 2:
		rec.Status, rec.SiteBytes, rec.BundleSize = api.ExportCompleted, w.rng.Int64N(1000), w.rng.Int64N(1000)
		rec.Domain = testDomains[w.rng.IntN(len(testDomains))]
	case 3:
		rec.Status, rec.Error = api.ExportFailed, "failed"
	}
	return rec
}

func (w *indexWorld) create() error {
	rec := newExport(w.id(), w.org(), w.created())
	if w.rng.IntN(5) == 0 { // held by the control plane
		rec.Status, rec.Owner, rec.LeaseUntil = api.ExportRunning, "hold", Pinned
	}
	lim := Limits{Active: w.rng.IntN(5), Stored: w.rng.IntN(12), Bytes: w.rng.Int64N(4000)}
	var key, hash string
	if w.rng.IntN(3) == 0 {
		key, hash = fmt.Sprint("k", w.rng.IntN(3)), fmt.Sprint("h", w.rng.IntN(2))
	}
	var want error
	if w.checks && key == "" {
		t := w.scan().orgs[rec.OrgID]
		want = lim.Check(t.active, t.stored, t.bytes)
	}
	_, err := w.st.CreateExportJob(w.t.Context(), rec, Creation{IdempotencyKey: key, RequestHash: hash, Limits: lim})
	if w.checks && key == "" && !errors.Is(err, errFault) && !errors.Is(err, want) {
		w.t.Errorf("create %s in %s under %+v: %v, want %v", rec.JobID, rec.OrgID, lim, err, want)
	}
	return err
}

func (w *indexWorld) put() error { return w.st.PutExportJob(w.t.Context(), w.record(w.id())) }

func (w *indexWorld) bundleSize() error {
	return w.st.SetBundleSize(w.t.Context(), w.id(), w.rng.Int64N(2000))
}

// attempt returns a job's record as its worker would hold it: mostly
// the current attempt, sometimes a stale one.
func (w *indexWorld) attempt() *ExportJob {
	id := w.id()
	cur, err := w.st.ExportJob(w.t.Context(), id)
	if err != nil {
		return newExport(id, w.org(), w.created())
	}
	if w.rng.IntN(4) == 0 {
		cur.Attempts--
	}
	return cur
}

func (w *indexWorld) renew() error {
	until := []time.Time{{}, w.now.Add(testLease)}[w.rng.IntN(2)] // handed back, or renewed
	mine := w.attempt()
	mine.PageCount++
	return w.st.RenewLease(w.t.Context(), mine, until)
}

func (w *indexWorld) complete() error {
	mine := w.attempt()
	mine.Status = []string{api.ExportCompleted, api.ExportFailed}[w.rng.IntN(2)]
	mine.SiteBytes = w.rng.Int64N(1000)
	return w.st.CompleteAttempt(w.t.Context(), mine)
}

func (w *indexWorld) claim() error {
	_, err := w.claimOne()
	return err
}

func (w *indexWorld) claimOne() (*ExportJob, error) {
	var (
		want     string
		wantMore bool
	)
	if w.checks {
		want, wantMore = w.scan().claim(w.now)
	}
	got, more, err := w.st.ClaimExport(w.t.Context(), "w", w.now, testLease)
	if !w.checks {
		return got, err
	}
	gotID := ""
	if got != nil {
		gotID = got.JobID
	}
	switch {
	case errors.Is(err, errFault):
		if want == "" {
			w.t.Errorf("an idle claim failed as a write: %v", err)
		}
	case err != nil:
	case gotID != want:
		w.t.Errorf("claim at %v took %q, the scan takes %q", w.now, gotID, want)
	case more != wantMore:
		w.t.Errorf("claim at %v of %q says more %v, the scan %v", w.now, gotID, more, wantMore)
	case gotID == "":
		w.saw("idle claim")
	default:
		w.saw("claimed")
	}
	return got, err
}

// catchUp claims and completes jobs until a claim finds none, as
// workers do when they have caught up with the starts.
func (w *indexWorld) catchUp() error {
	for range 50 { // bounded: there are 24 ids, though other goroutines may start more
		rec, err := w.claimOne()
		if err != nil || rec == nil {
			return err
		}
		rec.Status = api.ExportCompleted
		if err := w.st.CompleteAttempt(w.t.Context(), rec); err != nil {
			return err
		}
	}
	return nil
}

func (w *indexWorld) release() error {
	err := w.st.ReleaseLeases(w.t.Context())
	if err == nil {
		w.saw("released")
	}
	return err
}

func (w *indexWorld) delete() error { return w.st.DeleteExportJob(w.t.Context(), w.id()) }

// failedTx writes two jobs in a transaction that then returns an error
// or panics: neither write may reach the index.
func (w *indexWorld) failedTx() (err error) {
	data, merr := json.Marshal(w.record(w.id()))
	if merr != nil {
		return merr
	}
	put, del, panics := w.id(), w.id(), w.rng.IntN(2) == 0
	defer func() {
		if r := recover(); r != nil {
			w.saw("panicked")
			err = nil
		}
	}()
	err = w.st.updateExports(w.t.Context(), func(tx *exportTx) error {
		if err := tx.putJob(put, data); err != nil {
			return err
		}
		if err := tx.deleteJob(del); err != nil {
			return err
		}
		if panics {
			panic("a bug in a transaction")
		}
		return errRolledBack
	})
	if errors.Is(err, errRolledBack) {
		w.saw("rolled back")
		return nil
	}
	return err
}

// indexView is an index as plain values, for comparison.
type indexView struct {
	jobs map[string]jobView
	orgs map[string]orgTotals
	all  []*ExportJob // a scan's records, in key order
}

type jobView struct {
	org             string
	state           jobState
	created, leased string
	bytes           int64
	// Of a completed job with an archive only (LatestCompletedExport).
	domain, updated string
}

// testDomains are the domains the world's completed jobs have.
var testDomains = []string{"docs.acme.test", "api.acme.test"}

func viewTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// indexOf returns the store's index, and how its parts disagree with
// each other: every entry's totals in the map, the open set the open
// entries.
func indexOf(st *Bolt) (v indexView, problems []string) {
	x := &st.index
	x.mu.Lock()
	defer x.mu.Unlock()
	v = indexView{jobs: map[string]jobView{}, orgs: map[string]orgTotals{}}
	for id, e := range x.jobs {
		v.jobs[id] = jobView{org: e.org.id, state: e.state, created: viewTime(e.createdAt), leased: viewTime(e.leaseUntil), bytes: e.bytes,
			domain: e.domain, updated: viewTime(e.updatedAt)}
		if x.orgs[e.org.id] != e.org {
			problems = append(problems, fmt.Sprintf("job %s counts in totals of %s that are not the map's", id, e.org.id))
		}
		if o, ok := x.open[id]; ok != (e.state != jobDone) || (ok && o != e) {
			problems = append(problems, fmt.Sprintf("job %s: open set %v %+v, entry %+v", id, ok, o, e))
		}
	}
	for id := range x.open {
		if _, ok := x.jobs[id]; !ok {
			problems = append(problems, fmt.Sprintf("job %s open but not indexed", id))
		}
	}
	for id, t := range x.orgs {
		o := *t
		if len(o.archived) == 0 {
			o.archived = nil // emptied: as a scan that met none
		}
		v.orgs[id] = o
	}
	return v, problems
}

// scanOf works out the index from every record in the bucket, as the
// store did before it had one.
func scanOf(st *Bolt) (indexView, error) {
	all, err := st.ExportJobs(context.Background())
	if err != nil {
		return indexView{}, err
	}
	v := indexView{jobs: map[string]jobView{}, orgs: map[string]orgTotals{}, all: all}
	for _, rec := range all {
		j := jobView{org: rec.OrgID, created: viewTime(rec.CreatedAt), leased: viewTime(rec.LeaseUntil), bytes: rec.SiteBytes + rec.BundleSize,
			updated: viewTime(time.Time{})}
		o := v.orgs[rec.OrgID]
		if rec.Status == api.ExportCompleted && rec.BundleSize > 0 {
			j.domain, j.updated = rec.Domain, viewTime(rec.UpdatedAt)
			if o.archived == nil {
				o.archived = map[string]struct{}{}
			}
			o.archived[rec.JobID] = struct{}{}
		}
		o.id = rec.OrgID
		o.stored++
		o.bytes += j.bytes
		switch rec.Status {
		case api.ExportQueued:
			j.state = jobQueued
		case api.ExportRunning:
			j.state = jobRunning
		}
		if j.state != jobDone {
			o.active++
		}
		v.jobs[rec.JobID], v.orgs[rec.OrgID] = j, o
	}
	return v, nil
}

// scan is scanOf for a check, on the test's goroutine.
func (w *indexWorld) scan() indexView {
	w.t.Helper()
	v, err := scanOf(w.st)
	if err != nil {
		w.t.Fatal(err)
	}
	return v
}

// fairer is the order the walk of every record claimed by: a before b
// when a's organization has fewer jobs running, then when a is older.
func fairer(a, b *ExportJob, running map[string]int) bool {
	if ra, rb := running[a.OrgID], running[b.OrgID]; ra != rb {
		return ra < rb
	}
	return a.CreatedAt.Before(b.CreatedAt)
}

// claim is the job a claim at now took when it walked every record.
func (v indexView) claim(now time.Time) (id string, more bool) {
	var candidates []*ExportJob
	running := map[string]int{}
	for _, rec := range v.all {
		switch {
		case rec.Claimable(now):
			candidates = append(candidates, rec)
		case rec.Status == api.ExportRunning:
			running[rec.OrgID]++
		}
	}
	if len(candidates) == 0 {
		return "", false
	}
	best := candidates[0]
	for _, c := range candidates[1:] {
		if fairer(c, best, running) {
			best = c
		}
	}
	return best.JobID, len(candidates) > 1
}

// compareIndex describes how the store's index differs from a scan of
// its bucket; "" when it does not.
func compareIndex(st *Bolt) string {
	got, diffs := indexOf(st)
	want, err := scanOf(st)
	if err != nil {
		return err.Error()
	}
	for id, j := range want.jobs {
		if g, ok := got.jobs[id]; !ok || g != j {
			diffs = append(diffs, fmt.Sprintf("job %s: index %+v, bucket %+v", id, g, j))
		}
	}
	for id, g := range got.jobs {
		if _, ok := want.jobs[id]; !ok {
			diffs = append(diffs, fmt.Sprintf("job %s: index %+v, not in the bucket", id, g))
		}
	}
	if !reflect.DeepEqual(got.orgs, want.orgs) {
		diffs = append(diffs, fmt.Sprintf("organizations: index %+v, bucket %+v", got.orgs, want.orgs))
	}
	for org := range want.orgs {
		for _, domain := range testDomains {
			diffs = append(diffs, compareLatest(st, want.all, org, domain)...)
		}
	}
	return strings.Join(diffs, "; ")
}

// compareLatest checks LatestCompletedExport against a walk of every
// record, as previousArchive made before the store answered it.
func compareLatest(st *Bolt, all []*ExportJob, org, domain string) []string {
	var want *ExportJob
	for _, j := range all { // key order: the first of equals has the lowest id
		if j.OrgID != org || j.Domain != domain || j.Status != api.ExportCompleted || j.BundleSize == 0 {
			continue
		}
		if want == nil || j.UpdatedAt.After(want.UpdatedAt) {
			want = j
		}
	}
	got, err := st.LatestCompletedExport(context.Background(), org, domain, "")
	switch {
	case err != nil:
		return []string{fmt.Sprintf("latest of %s %s: %v", org, domain, err)}
	case (got == nil) != (want == nil) || (got != nil && got.JobID != want.JobID):
		return []string{fmt.Sprintf("latest of %s %s: %+v, want %+v", org, domain, got, want)}
	}
	return nil
}
