package apiserver_test

import (
	"context"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// triggerUpdate triggers an update of project and returns its status id.
func triggerUpdate(t *testing.T, env *apiservertest.Env, key, project string) string {
	t.Helper()
	r := call(t, http.MethodPost, env.URL+api.FillPath(api.PathProjectUpdate, map[string]string{"projectId": project}), key, nil)
	if r.status != http.StatusAccepted {
		t.Fatalf("trigger update of %s: %d %s", project, r.status, r.body)
	}
	var out api.TriggerUpdateResponse
	r.decode(t, &out)
	if want := api.FillPath(api.PathUpdateStatus, map[string]string{"statusId": out.StatusID}); r.header.Get("Location") != want {
		t.Errorf("Location %q, want %q", r.header.Get("Location"), want)
	}
	return out.StatusID
}

func updateStatus(t *testing.T, env *apiservertest.Env, key, id string) (api.UpdateStatus, reply) {
	t.Helper()
	r := call(t, http.MethodGet, env.URL+api.FillPath(api.PathUpdateStatus, map[string]string{"statusId": id}), key, nil)
	var st api.UpdateStatus
	if r.status == http.StatusOK {
		r.decode(t, &st)
	}
	return st, r
}

func mustUpdate(t *testing.T, env *apiservertest.Env, id string) api.UpdateStatus {
	t.Helper()
	st, r := updateStatus(t, env, env.Key, id)
	if r.status != http.StatusOK {
		t.Fatalf("update %s: %d %s", id, r.status, r.body)
	}
	return st
}

// endedUpdate polls an update whose build time has passed until it has
// ended: its build check runs after the trigger has answered, and the
// update is in progress until the check is done.
func endedUpdate(t *testing.T, env *apiservertest.Env, id string) api.UpdateStatus {
	t.Helper()
	var st api.UpdateStatus
	testutil.Eventually(t, 20*time.Second, "update "+id+" to end after its build time", func() bool {
		st = mustUpdate(t, env, id)
		return st.Status != api.UpdateInProgress && st.Status != api.UpdateQueued
	})
	return st
}

// An update is queued, then in progress, then a success, each step a log
// line; it names the deployment, the content hash and, for a project's
// first update, every file of the source as added.
func TestUpdate_movesThroughItsStatesOnTheClock(t *testing.T) {
	env := apiservertest.Start(t)
	env.Clock.Freeze() // the states last seconds: a slow machine must not move them on
	id := triggerUpdate(t, env, env.Key, env.ProjectID)

	st := mustUpdate(t, env, id)
	if st.Status != api.UpdateQueued || st.EndedAt != nil || len(st.Logs) != 1 || st.Source != api.UpdateSourceAPI ||
		st.ProjectID != env.ProjectID || st.ID != id || st.Author != nil || st.Subdomain != env.Domain {
		t.Fatalf("just triggered: %+v", st)
	}
	if len(st.Commit.SHA) != 40 || st.Commit.Ref != "refs/heads/main" || !slices.Contains(st.Commit.FilesChanged.Added, "docs.json") ||
		len(st.Commit.FilesChanged.Modified)+len(st.Commit.FilesChanged.Removed) != 0 {
		t.Fatalf("commit of a first update: %+v", st.Commit)
	}
	env.Clock.Advance(time.Second)
	if st = mustUpdate(t, env, id); st.Status != api.UpdateInProgress || len(st.Logs) != 2 || !strings.Contains(st.Summary, "building") {
		t.Fatalf("after a second: %+v", st)
	}
	env.Clock.Advance(5 * time.Second)
	st = endedUpdate(t, env, id)
	if st.Status != api.UpdateSuccess || st.EndedAt == nil || len(st.Logs) != 3 ||
		!strings.Contains(st.Summary, "deployed") || !strings.Contains(st.Summary, env.Domain) {
		t.Fatalf("after the build: %+v", st)
	}
	if !st.EndedAt.After(st.CreatedAt) {
		t.Fatalf("ended %s, before it was created at %s", st.EndedAt, st.CreatedAt)
	}
}

// A project's updates run one after another, and each lists the files
// changed since the one before it.
func TestUpdate_queuesBehindThePreviousAndListsFilesChanged(t *testing.T) {
	env := apiservertest.Start(t)
	env.Clock.Freeze() // the states last seconds: a slow machine must not move them on
	first := triggerUpdate(t, env, env.Key, env.ProjectID)
	site := filepath.Join(filepath.Dir(env.DataDir), "site")
	if err := os.WriteFile(filepath.Join(site, "new-page.mdx"), []byte("# New\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(site, "docs.json"), append(mustRead(t, filepath.Join(site, "docs.json")), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	second := triggerUpdate(t, env, env.Key, env.ProjectID)
	env.Clock.Advance(2 * time.Second)
	if a, b := mustUpdate(t, env, first), mustUpdate(t, env, second); a.Status != api.UpdateInProgress || b.Status != api.UpdateQueued {
		t.Fatalf("while the first builds: first %s, second %s", a.Status, b.Status)
	}
	env.Clock.Advance(10 * time.Second)
	b := endedUpdate(t, env, second)
	if b.Status != api.UpdateSuccess {
		t.Fatalf("second update: %+v", b)
	}
	fc := b.Commit.FilesChanged
	if !slices.Equal(fc.Added, []string{"new-page.mdx"}) || !slices.Equal(fc.Modified, []string{"docs.json"}) || len(fc.Removed) != 0 {
		t.Fatalf("files changed: %+v", fc)
	}
	if a := endedUpdate(t, env, first); a.Commit.SHA == b.Commit.SHA || !b.EndedAt.After(*a.EndedAt) {
		t.Fatalf("first %s ended %s, second %s ended %s", a.Commit.SHA, a.EndedAt, b.Commit.SHA, b.EndedAt)
	}
	// Nothing changed since: nothing listed, the same hash.
	third := triggerUpdate(t, env, env.Key, env.ProjectID)
	if c := mustUpdate(t, env, third); c.Commit.SHA != b.Commit.SHA ||
		len(c.Commit.FilesChanged.Added)+len(c.Commit.FilesChanged.Modified)+len(c.Commit.FilesChanged.Removed) != 0 {
		t.Fatalf("an update of unchanged docs: %+v", c.Commit)
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A source whose docs.json does not load fails its update with the
// reason; so does a project with nothing deployed.
func TestUpdate_failsWhenTheSourceDoesNotBuild(t *testing.T) {
	env := apiservertest.Start(t, apiservertest.WithConfig(func(cfg *apiconfig.Config) {
		// The broken deployment first: it is the one updated.
		d := cfg.Organizations[0].Projects[0].Deployments
		d[0], d[1] = d[1], d[0]
	}))
	broken := triggerUpdate(t, env, env.Key, env.ProjectID)
	none := triggerUpdate(t, env, env.Key, env.FailProjectID)
	env.Clock.Advance(time.Minute)
	st := endedUpdate(t, env, broken)
	if st.Status != api.UpdateFailure || !strings.Contains(st.Summary, "docs.json") || st.Subdomain != env.FailDomain ||
		st.Logs[len(st.Logs)-1] != st.Summary || st.EndedAt == nil {
		t.Fatalf("update of a broken source: %+v", st)
	}
	st = endedUpdate(t, env, none)
	if st.Status != api.UpdateFailure || !strings.Contains(st.Summary, "has no deployment") || st.Subdomain != "" || st.Commit.SHA != "" {
		t.Fatalf("update of a project without deployments: %+v", st)
	}
}

// Another organization's update and project are missing, never
// forbidden; so is an update past the retention.
func TestUpdate_isolationAndRetention(t *testing.T) {
	env := apiservertest.Start(t, apiservertest.WithJobRetention(time.Hour))
	id := triggerUpdate(t, env, env.Key, env.ProjectID)
	if _, r := updateStatus(t, env, env.OtherKey, id); r.status != http.StatusNotFound {
		t.Fatalf("another organization's update: %d %s", r.status, r.body)
	}
	r := call(t, http.MethodPost, env.URL+api.FillPath(api.PathProjectUpdate, map[string]string{"projectId": apiservertest.OtherProjectID}), env.Key, nil)
	if r.status != http.StatusNotFound || !strings.Contains(r.errorMessage(t), apiservertest.OtherProjectID) {
		t.Fatalf("another organization's project: %d %s", r.status, r.body)
	}
	for _, bad := range []string{"upd_0123456789abcdef", "..", "upd_x"} {
		if _, r := updateStatus(t, env, env.Key, bad); r.status != http.StatusNotFound {
			t.Fatalf("status %q: %d %s", bad, r.status, r.body)
		}
	}
	env.Clock.Advance(2 * time.Hour)
	if err := env.Server.Sweep(); err != nil {
		t.Fatal(err)
	}
	if _, r := updateStatus(t, env, env.Key, id); r.status != http.StatusNotFound {
		t.Fatalf("an update past the retention: %d %s", r.status, r.body)
	}
}

// Five running updates are the most a project has; the sixth is a 429
// whose Retry-After is when the first ends.
func TestUpdate_limitedPerProject(t *testing.T) {
	env := apiservertest.Start(t)
	env.Clock.Freeze() // the states last seconds: a slow machine must not move them on
	for range 5 {
		triggerUpdate(t, env, env.Key, env.ProjectID)
	}
	r := call(t, http.MethodPost, env.URL+api.FillPath(api.PathProjectUpdate, map[string]string{"projectId": env.ProjectID}), env.Key, nil)
	if r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" {
		t.Fatalf("sixth update: %d %v %s", r.status, r.header, r.body)
	}
	// Another project is not held up.
	triggerUpdate(t, env, env.Key, env.NoChangesProjectID)
	env.Clock.Advance(5 * time.Second)
	triggerUpdate(t, env, env.Key, env.ProjectID)
}

// Updates are in the store: a restart keeps them, and they go on moving
// on the clock; on PostgreSQL too.
func TestUpdate_survivesRestart(t *testing.T) {
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db)
		env.Clock.Freeze() // the states last seconds: a slow machine must not move them on
		id := triggerUpdate(t, env, env.Key, env.ProjectID)
		env.Restart(t, nil)
		if st := mustUpdate(t, env, id); st.Status != api.UpdateQueued {
			t.Fatalf("after a restart: %+v", st)
		}
		env.Clock.Advance(time.Minute)
		if st := endedUpdate(t, env, id); st.Status != api.UpdateSuccess {
			t.Fatalf("after a restart and the build time: %+v", st)
		}
	})
}

// A control plane reset takes an organization's updates with its jobs,
// and leaves other organizations' alone; a reset of everything takes
// them all.
func TestUpdate_goesWithAControlReset(t *testing.T) {
	env := controlEnv(t)
	mine := triggerUpdate(t, env, env.Key, env.ProjectID)
	theirs := triggerUpdate(t, env, env.OtherKey, apiservertest.OtherProjectID)
	ctl(t, env, http.MethodPost, api.PathControlReset, map[string]string{"organization": "acme"}, http.StatusNoContent)
	if _, r := updateStatus(t, env, env.Key, mine); r.status != http.StatusNotFound {
		t.Fatalf("acme's update after acme's reset: %d %s", r.status, r.body)
	}
	if _, r := updateStatus(t, env, env.OtherKey, theirs); r.status != http.StatusOK {
		t.Fatalf("another organization's update after acme's reset: %d %s", r.status, r.body)
	}
	ctl(t, env, http.MethodPost, api.PathControlReset, nil, http.StatusNoContent)
	if _, r := updateStatus(t, env, env.OtherKey, theirs); r.status != http.StatusNotFound {
		t.Fatalf("an update after a full reset: %d %s", r.status, r.body)
	}
}

// holdingChecks is the export engine with its docs.json checks held
// until their context ends: a check still running when the server shuts
// down.
type holdingChecks struct {
	*export.Engine
	started chan<- struct{}
}

func (h holdingChecks) CheckConfig(ctx context.Context, _ fs.FS) error {
	h.started <- struct{}{}
	<-ctx.Done()
	return ctx.Err()
}

// An update is in progress until its build check has run, however long
// past its build time; a check a shutdown stopped runs again after the
// restart, started by the next status read, and the update then ends.
func TestUpdate_checkStoppedByShutdownRunsAfterRestart(t *testing.T) {
	var hold atomic.Bool
	hold.Store(true)
	started := make(chan struct{}, 1)
	env := apiservertest.Start(t, apiservertest.WithExporter(func() apiserver.Exporter {
		e := export.New(export.Options{})
		if hold.Load() {
			return holdingChecks{Engine: e, started: started}
		}
		return e
	}))
	id := triggerUpdate(t, env, env.Key, env.ProjectID)
	select {
	case <-started:
	case <-time.After(20 * time.Second):
		t.Fatal("the build check did not start")
	}
	env.Clock.Advance(time.Hour)
	if st := mustUpdate(t, env, id); st.Status != api.UpdateInProgress || st.EndedAt != nil {
		t.Fatalf("an hour past its build time, with its check still running: %+v", st)
	}
	env.Restart(t, func() { hold.Store(false) })
	if st := endedUpdate(t, env, id); st.Status != api.UpdateSuccess {
		t.Fatalf("after the restart: %+v", st)
	}
}
