package apiserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	bolt "go.etcd.io/bbolt"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// editJob rewrites a stored export job record while no server runs, in
// the environment's database or bbolt file.
func editJob(t *testing.T, env *apiservertest.Env, id string, edit func(map[string]any)) {
	t.Helper()
	if env.DatabaseURL != "" {
		editPGJob(t, env.DatabaseURL, id, edit)
		return
	}
	db, err := bolt.Open(filepath.Join(env.DataDir, "state.db"), 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("export_jobs"))
		var rec map[string]any
		if err := json.Unmarshal(b.Get([]byte(id)), &rec); err != nil {
			return err
		}
		edit(rec)
		raw, err := json.Marshal(rec)
		if err != nil {
			return err
		}
		return b.Put([]byte(id), raw)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The state a crash (or SIGTERM during the final sync) leaves when the
// rendered site has been renamed into place but the job is still recorded
// running: the restarted server completes the job from its files.
func TestRestart_crashAfterSiteRenamed(t *testing.T) {
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db)
		done := env.StartExportAndWait(t, api.StartExportRequest{Domain: env.Domain})
		env.Restart(t, func() {
			editJob(t, env, done.JobID, func(rec map[string]any) {
				rec["status"], rec["progress"], rec["version"] = api.ExportRunning, 40, ""
			})
		})
		got := env.WaitExport(t, done.JobID)
		if got.Status != api.ExportCompleted || got.Version != done.Version || got.PageCount != done.PageCount {
			t.Fatalf("after restart: %+v, want completed like %+v", got, done)
		}
		b := env.Bundle(t, done.JobID)
		if man := download(t, b.BundleURL, b.SizeBytes); man.Version != done.Version {
			t.Fatalf("bundle version %s, want %s", man.Version, done.Version)
		}
	})
}

// A renamed archive that a crash left damaged is rendered again, not
// served; so is the damaged site an older server left.
func TestRestart_crashLeftDamagedArchive(t *testing.T) {
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		for _, damage := range []struct {
			name  string
			older bool // the site an older server left, not an archive
			file  string
		}{{"archive", false, api.BundleFileName}, {"older server's site", true, "site/index.html"}} {
			t.Run(damage.name, func(t *testing.T) {
				env := apiservertest.Start(t, db)
				if env.ObjectStore != "" {
					t.Skip("with an object store no archive is renamed into place locally: a crash leaves an upload under its attempt's own prefix, which the next attempt does not use")
				}
				done := env.StartExportAndWait(t, api.StartExportRequest{Domain: env.Domain})
				if damage.older {
					if err := apiserver.AsOlderServerLeftIt(env.Server, done.JobID); err != nil {
						t.Fatal(err)
					}
				}
				jobDir := filepath.Join(env.DataDir, "exports", done.JobID)
				// The crash also cut short the writing of an archive.
				cutShort := filepath.Join(jobDir, ".bundle-123456.tmp")
				env.Restart(t, func() {
					editJob(t, env, done.JobID, func(rec map[string]any) { rec["status"] = api.ExportRunning })
					if err := os.WriteFile(filepath.Join(jobDir, filepath.FromSlash(damage.file)), []byte("torn"), 0o600); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(cutShort, []byte("half an archive"), 0o600); err != nil {
						t.Fatal(err)
					}
				})
				got := env.WaitExport(t, done.JobID)
				if got.Status != api.ExportCompleted || got.Version != done.Version {
					t.Fatalf("after restart: %+v", got)
				}
				if _, err := os.Stat(cutShort); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("the archive the crash cut short is still there (%v)", err)
				}
				b := env.Bundle(t, done.JobID)
				if man := download(t, b.BundleURL, b.SizeBytes); man.Version != done.Version {
					t.Fatalf("bundle version %s, want %s", man.Version, done.Version)
				}
			})
		}
	})
}

// A job an older server completed, its site in site/ and no archive yet,
// is still served: the first bundle call archives the site, once, and a
// restart does not mark it lost; the same when the crash came after the
// site was renamed into place and before the job was recorded completed.
func TestOlderServersSite_stillServed(t *testing.T) {
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db)
		if env.ObjectStore != "" {
			t.Skip("an older replica stored its site in the bucket: TestObjectStore_olderServersPacksStillArchived")
		}
		done := env.StartExportAndWait(t, api.StartExportRequest{Domain: env.Domain})
		resumed := env.StartExportAndWait(t, api.StartExportRequest{Domain: env.Domain})
		for _, id := range []string{done.JobID, resumed.JobID} {
			if err := apiserver.AsOlderServerLeftIt(env.Server, id); err != nil {
				t.Fatal(err)
			}
		}
		env.Restart(t, func() {
			editJob(t, env, resumed.JobID, func(rec map[string]any) {
				rec["status"], rec["progress"], rec["version"] = api.ExportRunning, 40, ""
			})
		})
		if got := env.WaitExport(t, resumed.JobID); got.Status != api.ExportCompleted || got.Version != resumed.Version {
			t.Fatalf("resumed after restart: %+v, want completed like %+v", got, resumed)
		}
		built := env.Server.ArchivesBuilt()
		for _, job := range []api.ExportJob{done, resumed} {
			for range 2 {
				b := env.Bundle(t, job.JobID)
				if man := download(t, b.BundleURL, b.SizeBytes); man.Version != job.Version {
					t.Fatalf("bundle version %s, want %s", man.Version, job.Version)
				}
			}
		}
		if n := env.Server.ArchivesBuilt() - built; n != 2 {
			t.Fatalf("%d archives built for the two older jobs' four bundle calls, want 2", n)
		}
	})
}

// The first archive is built outside the request: a client that gives up
// does not cancel it, and the build finishes for the next call.
func TestBundle_buildOutlivesRequest(t *testing.T) {
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db)
		job := completedExport(t, env)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/v1/static-export/jobs/"+job+"/bundle", nil)
		req.Header.Set("Authorization", "Bearer "+env.Key)
		env.Server.Handler().ServeHTTP(httptest.NewRecorder(), req)
		testutil.Eventually(t, 30*time.Second, "the abandoned archive build to finish", func() bool {
			return env.Server.ArchivesBuilt() == 1
		})
		b := env.Bundle(t, job)
		download(t, b.BundleURL, b.SizeBytes)
		if n := env.Server.ArchivesBuilt(); n != 1 {
			t.Fatalf("archives built: %d, want 1", n)
		}
	})
}

// editPGJob is editJob on PostgreSQL: the record and the status column
// the claims look at.
func editPGJob(t *testing.T, url, id string, edit func(map[string]any)) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var rec map[string]any
	if err := conn.QueryRow(ctx, "SELECT record FROM export_jobs WHERE job_id = $1", id).Scan(&rec); err != nil {
		t.Fatal(err)
	}
	edit(rec)
	if _, err := conn.Exec(ctx, "UPDATE export_jobs SET record = $2, status = $3 WHERE job_id = $1", id, rec, rec["status"]); err != nil {
		t.Fatal(err)
	}
}
