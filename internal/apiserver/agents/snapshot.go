package agents

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"sync"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
)

// A trigger's snapshot hashes the deployment's files, which the
// organization chose: their number and size are the source's, not the
// request's. So the trigger takes its place under the project's limit
// before it reads a byte (a 429 costs nothing), streams each file through
// the hash with a fixed buffer, stops at the export's limits on files
// and bytes, and leaves docs.json to a check after it has answered
// (startCheck), within the export's bounds and timeout.

// maxSnapshots bounds the snapshots hashing at once, server-wide: each is
// bounded, but every project's five at once would be the CPU of the
// whole machine.
const maxSnapshots = 2

// errSnapshotLimit marks a source over the export's limits.
var errSnapshotLimit = errors.New("over the export's limits")

// reservations counts, per project, the triggers between their limit
// check and the store's: with the running updates they make the
// project's count, so concurrent triggers cannot all pass the check and
// hash the source before the store refuses the extra ones.
type reservations struct {
	mu sync.Mutex
	n  map[string]int
}

// take reserves a place for project if running plus those reserved stay
// under limit.
func (r *reservations) take(project string, running, limit int) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if running+r.n[project] >= limit {
		return false
	}
	if r.n == nil {
		r.n = map[string]int{}
	}
	r.n[project]++
	return true
}

func (r *reservations) release(project string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n[project]--; r.n[project] <= 0 {
		delete(r.n, project)
	}
}

// snapshotUpdate records what the update deploys: the primary
// deployment's files, their hash and page count. What the source's size
// stops (a cap, ctx) fails the update, not the request; the build check
// is marked pending for startCheck.
func (ag *API) snapshotUpdate(ctx context.Context, project *apiconfig.Project, rec *jobstore.Update) error {
	if len(project.Deployments) == 0 {
		rec.Failure = fmt.Sprintf("project %q has no deployment to update", project.ID)
		return nil
	}
	dep := &project.Deployments[0]
	rec.Subdomain = dep.Domain
	select {
	case ag.snapshots <- struct{}{}:
		defer func() { <-ag.snapshots }()
	case <-ctx.Done():
		return context.Cause(ctx)
	}
	lim := ag.cfg.Limits.Export().WithDefaults()
	files, pages, err := hashFiles(ctx, dep.SourceFS, lim.MaxFiles, lim.MaxTotalBytes)
	switch {
	case errors.Is(err, errSnapshotLimit):
		rec.Failure = fmt.Sprintf("the docs source of %s is %v", dep.Domain, err)
		return nil
	case ctx.Err() != nil:
		return context.Cause(ctx) // the client went away
	case err != nil:
		rec.Failure = fmt.Sprintf("the docs source of %s could not be read: %v", dep.Domain, err)
		return nil
	}
	rec.Files, rec.Pages, rec.Pending = files, pages, true
	names := make([]string, 0, len(files))
	for p := range files {
		names = append(names, p)
	}
	slices.Sort(names)
	h := sha256.New()
	for _, p := range names {
		h.Write([]byte(p + "\x00" + files[p] + "\n"))
	}
	rec.SHA = hex.EncodeToString(h.Sum(nil))[:40]
	return nil
}

// hashFiles streams every regular file of src through SHA-256, at most
// maxFiles files and maxBytes bytes in all, and counts the pages. Memory
// is one buffer whatever the files' sizes.
func hashFiles(ctx context.Context, src fs.FS, maxFiles int, maxBytes int64) (map[string]string, int, error) {
	files := map[string]string{}
	pages := 0
	left := maxBytes
	buf := make([]byte, 256<<10)
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if len(files) == maxFiles {
			return fmt.Errorf("more than the limit of %d files: %w", maxFiles, errSnapshotLimit)
		}
		f, err := src.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		h := sha256.New()
		n, err := io.CopyBuffer(h, &ctxReader{ctx: ctx, r: io.LimitReader(f, left+1)}, buf)
		if err != nil {
			return err
		}
		if left -= n; left < 0 {
			return fmt.Errorf("more than the limit of %d bytes in all: %w", maxBytes, errSnapshotLimit)
		}
		files[p] = hex.EncodeToString(h.Sum(nil))
		if ext := path.Ext(p); ext == ".mdx" || ext == ".md" {
			pages++
		}
		return nil
	})
	return files, pages, err
}

// ctxReader stops a copy when ctx ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// checkTimeout bounds one build check when the configuration sets no
// export timeout.
const checkTimeout = time.Minute

// startCheck loads docs.json of the update's deployment, as an export
// would, after the trigger has answered: one check at a time,
// server-wide, each within the export's limits and timeout. An update
// already being checked is left to that check; a check stopped by
// shutdown leaves the update pending, and the next status read starts it
// again.
// A nil src is a project whose deployment has gone since the trigger.
func (ag *API) startCheck(id, projectID string, src fs.FS) {
	if _, busy := ag.checking.LoadOrStore(id, true); busy {
		return
	}
	ag.host.Go(func(ctx context.Context) {
		defer ag.checking.Delete(id)
		select {
		case ag.checks <- struct{}{}:
			defer func() { <-ag.checks }()
		case <-ctx.Done():
			return
		}
		timeout := time.Duration(ag.cfg.ExportTimeout)
		if timeout <= 0 {
			timeout = checkTimeout
		}
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		var err error
		if src == nil {
			err = fmt.Errorf("project %q has no deployment to update", projectID)
		} else {
			err = ag.checker.CheckConfig(cctx, src)
		}
		failure := ""
		switch {
		case ctx.Err() != nil:
			return // shutdown: checked again after the restart
		case cctx.Err() != nil:
			failure = fmt.Sprintf("docs.json did not load within the export timeout of %s", timeout)
		case err != nil:
			failure = err.Error()
		}
		if err := ag.store.FinishUpdateCheck(ctx, id, failure); err != nil && !errors.Is(err, jobstore.ErrNoRecord) {
			ag.log.Warn("documentation update: recording the build check failed", "update", id, "error", err)
		}
	})
}

// checkPending starts the build check of an update still pending, as
// after a restart that stopped one; it reads the project as it is now.
func (ag *API) checkPending(org *apiconfig.Organization, rec *jobstore.Update) {
	if !rec.Pending {
		return
	}
	var src fs.FS
	if p := org.Project(rec.ProjectID); p != nil && len(p.Deployments) > 0 {
		src = p.Deployments[0].SourceFS
	}
	ag.startCheck(rec.ID, rec.ProjectID, src)
}
