package pgstore

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
)

// fill sets every field reachable from v to a non-zero value: slices get
// one element, pointers a new value.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(t0))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k)
		fill(e)
		v.SetMapIndex(k, e)
	case reflect.String:
		v.SetString("set")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int32, reflect.Int64:
		v.SetInt(3)
	case reflect.Uint, reflect.Uint32, reflect.Uint64:
		v.SetUint(3)
	case reflect.Float64:
		v.SetFloat(0.5)
	}
}

// change alters every value reachable from v in place, through its
// pointers and slices, as a careless caller could.
func change(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(t0.Add(time.Hour)))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				change(v.Field(i))
			}
		}
	case reflect.Pointer:
		change(v.Elem())
	case reflect.Slice:
		for i := range v.Len() {
			change(v.Index(i))
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			change(e)
			v.SetMapIndex(k, e)
		}
	case reflect.String:
		v.SetString("changed")
	case reflect.Bool:
		v.SetBool(false)
	case reflect.Int, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() + 1)
	case reflect.Float64:
		v.SetFloat(v.Float() + 1)
	}
}

// A clone handed to a reader shares nothing with the memo's record: a
// field added to ExportJob later that clone forgets fails here.
func TestExportJob_cloneSharesNothing(t *testing.T) {
	var orig jobstore.ExportJob
	fill(reflect.ValueOf(&orig).Elem())
	want := *orig.Clone()
	if !reflect.DeepEqual(want, orig) {
		t.Fatalf("clone differs from the original:\n%+v\n%+v", want, orig)
	}
	c := orig.Clone()
	change(reflect.ValueOf(c).Elem())
	if !reflect.DeepEqual(orig, want) {
		t.Fatalf("changing a clone changed the original: %+v", orig)
	}
}

// Reads on one replica, however many run at once, see every write that
// was committed on another before they began: neither the shared queries
// nor the decoding memo may hand out an older record.
func TestStore_exportReadSeesEarlierWrites(t *testing.T) {
	for _, b := range backends(t) {
		t.Run(b.name, func(t *testing.T) {
			stores := b.pair(t)
			w, r := stores[0], stores[1]
			rec := newExport("se_00000000000000aa", "acme", t0)
			if err := w.PutExportJob(t.Context(), rec); err != nil {
				t.Fatal(err)
			}
			const writes, readers = 25, 16
			var reads atomic.Int64
			readWhileWriting(t, w, rec, writes, readers, func(floor int) error {
				got, err := r.ExportJob(t.Context(), rec.JobID)
				if err != nil {
					return err
				}
				if got.PageCount < floor {
					return fmt.Errorf("read began after write %d and saw write %d", floor, got.PageCount)
				}
				got.Paths = append(got.Paths, "mine") // the reader's own copy
				reads.Add(1)
				return nil
			}, nil, nil)
			got, err := r.ExportJob(t.Context(), rec.JobID)
			if err != nil || got.PageCount != writes || len(got.Paths) != 0 {
				t.Fatalf("last read: %+v, %v; want page count %d and no paths", got, err, writes)
			}
			if err := w.DeleteExportJob(t.Context(), rec.JobID); err != nil {
				t.Fatal(err)
			}
			if _, err := r.ExportJob(t.Context(), rec.JobID); !errors.Is(err, jobstore.ErrNoRecord) {
				t.Fatalf("read after delete: %v, want ErrNoRecord", err)
			}
			t.Logf("%d reads", reads.Load())
		})
	}
}

// Concurrent reads of several jobs, some missing, share queries on
// PostgreSQL (fewer pool acquisitions than reads) and each still gets its
// own job, or ErrNoRecord.
func TestPGStore_concurrentReadsShareQueries(t *testing.T) {
	var pg *Postgres
	for _, b := range backends(t) {
		if b.name == "postgres" {
			pg = b.replica(t).(*Postgres)
		}
	}
	ids := []string{"se_0000000000000001", "se_0000000000000002", "se_0000000000000003"}
	for i, id := range ids {
		rec := newExport(id, "acme", t0)
		rec.PageCount = i + 1
		rec.Status = api.ExportCompleted
		if err := pg.PutExportJob(t.Context(), rec); err != nil {
			t.Fatal(err)
		}
	}
	const readers, each = 64, 20
	before := pg.pool.Stat().AcquireCount()
	start := make(chan struct{})
	errs := make(chan error, readers)
	var wg sync.WaitGroup
	for g := range readers {
		wg.Go(func() {
			<-start
			for i := range each {
				n := (g + i) % (len(ids) + 1)
				if n == len(ids) {
					if _, err := pg.ExportJob(t.Context(), "se_00000000000000ff"); !errors.Is(err, jobstore.ErrNoRecord) {
						errs <- fmt.Errorf("missing job: %w, want ErrNoRecord", err)
						return
					}
					continue
				}
				rec, err := pg.ExportJob(t.Context(), ids[n])
				if err != nil || rec.JobID != ids[n] || rec.PageCount != n+1 {
					errs <- fmt.Errorf("read %s: %+v, %w", ids[n], rec, err)
					return
				}
				rec.Warnings = &api.ExportWarnings{} // the reader's own copy
			}
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	queries := pg.pool.Stat().AcquireCount() - before
	if queries >= readers*each {
		t.Fatalf("%d reads took %d queries: concurrent reads were not shared", readers*each, queries)
	}
	t.Logf("%d reads in %d queries", readers*each, queries)
}

// pollWhileWriting writes rec through w writes times (page count i,
// progress i/writes) while pollers goroutines poll r, and fails the test
// when a poll errs or answers a record that was never written.
// afterWrite, if set, runs after write i; settle, if set, before the
// pollers stop.
func pollWhileWriting(t *testing.T, w, r jobstore.ExportStore, rec *jobstore.ExportJob, writes, pollers int, afterWrite func(i int), settle func()) {
	t.Helper()
	readWhileWriting(t, w, rec, writes, pollers, func(int) error {
		got, err := r.PollExportJob(t.Context(), rec.JobID)
		if err != nil {
			return fmt.Errorf("poll: %w", err)
		}
		if got.PageCount < 0 || got.PageCount > writes || got.Progress != float64(got.PageCount)/float64(writes) {
			return fmt.Errorf("poll: %+v is no record that was written", got)
		}
		return nil
	}, afterWrite, settle)
}

// readWhileWriting writes rec through w writes times (page count i,
// progress i/writes) while readers goroutines call read over and over,
// each call given how many writes had returned before it began, and
// fails the test with the first error a read returns. afterWrite, if
// set, runs after write i; settle, if set, before the readers stop.
func readWhileWriting(t *testing.T, w jobstore.ExportStore, rec *jobstore.ExportJob, writes, readers int, read func(floor int) error, afterWrite func(i int), settle func()) {
	t.Helper()
	var written atomic.Int64
	stop := make(chan struct{})
	errs := make(chan error, readers)
	var wg sync.WaitGroup
	for range readers {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if err := read(int(written.Load())); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	for i := 1; i <= writes; i++ {
		rec.PageCount, rec.Progress = i, float64(i)/float64(writes)
		if err := w.PutExportJob(t.Context(), rec); err != nil {
			t.Fatal(err)
		}
		written.Store(int64(i))
		if afterWrite != nil {
			afterWrite(i)
		}
	}
	if settle != nil {
		settle()
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// Polls beside a writer never see a record that was not written, and the
// first poll after the last write returns sees it.
func TestBolt_pollsUnderWrites(t *testing.T) {
	st, err := jobstore.OpenBolt(t.Context(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	rec := newExport("se_00000000000000b1", "acme", t0)
	if err := st.PutExportJob(t.Context(), rec); err != nil {
		t.Fatal(err)
	}
	pollWhileWriting(t, st, st, rec, 200, 8, func(i int) {
		if got, err := st.PollExportJob(t.Context(), rec.JobID); err != nil || got.PageCount != i {
			t.Fatalf("poll right after write %d: %+v, %v", i, got, err)
		}
	}, nil)
	if err := st.DeleteExportJob(t.Context(), rec.JobID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.PollExportJob(t.Context(), rec.JobID); !errors.Is(err, jobstore.ErrNoRecord) {
		t.Fatalf("poll after delete: %v, want ErrNoRecord", err)
	}
}
