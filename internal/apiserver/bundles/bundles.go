// Package bundles is where a reference server keeps the archives of its
// completed exports and how it makes the links that download them. Store
// is the one interface the server holds, chosen once at start: Disk keeps
// archives in the data dir behind links signed with the server's own key
// (the one-process mode), and internal/apiserver/bucket keeps them in an
// S3-compatible bucket behind links the bucket presigns (replicas).
//
// It knows archives, their places and their links. It does not know
// HTTP routes, the API's error bodies beyond the status a failure asks
// for, workers, leases or rendering: the server's runner decides when an
// attempt publishes, and passes what the store may need to know of the
// lease in Attempt. It never imports internal/apiserver, so that the
// bucket implementation, and its S3 client, stay out of the server.
package bundles

import (
	"context"
	"errors"
	"io"
	"net/url"
	"os"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/jobstore"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
)

// Store keeps the archives of export jobs. Every method is safe for
// concurrent use.
type Store interface {
	// Ready reports whether the store can take new archives now; the
	// server refuses export starts and fails readiness probes otherwise.
	Ready(ctx context.Context) error
	// Resume finishes an attempt from what an earlier attempt of the job
	// left behind before a crash (ok), setting the job's sizes; without
	// ok the job is rendered.
	Resume(ctx context.Context, job *jobstore.ExportJob) (man *bundle.Manifest, ok bool, err error)
	// Publish stores the archive of the attempt's rendered site as the
	// attempt's, and sets the job's BundleSize, SiteBytes and SitePrefix
	// to what the completion is to record.
	Publish(ctx context.Context, a *Attempt) error
	// Detached reports whether publishing waits on the network, so the
	// runner publishes beside the worker's next render rather than in it.
	Detached() bool
	// Settle cleans up after an attempt whose outcome was recorded, or
	// not: kept says whether its archive became the job's.
	Settle(ctx context.Context, job *jobstore.ExportJob, kept bool)
	// Lost reports whether a job recorded completed is known at start to
	// have lost its archive (a crash took the files).
	Lost(job *jobstore.ExportJob) bool
	// Exists reports whether a completed job's archive, or the site it is
	// made of, is still there.
	Exists(job *jobstore.ExportJob) bool
	// Stat returns the size and content version of the job's archive,
	// and found false when it is still to be built (Build).
	Stat(ctx context.Context, job *jobstore.ExportJob) (size int64, version string, found bool, err error)
	// Build makes the archive of a site that a server from before
	// archives were made at completion stored, and returns what Stat
	// would.
	Build(ctx context.Context, job *jobstore.ExportJob) (size int64, version string, err error)
	// Link returns a link to the job's archive and when it expires.
	Link(ctx context.Context, job *jobstore.ExportJob) (link string, expires time.Time, err error)
	// CheckLink checks a download through a link Link made: ErrNotServed
	// when this server serves no downloads (the store does), else an
	// error of internal/apiserver/linksign.
	CheckLink(id, file string, query url.Values, now time.Time) error
	// Open opens the archive of a job whose link CheckLink accepted.
	Open(id string) (*os.File, error)
	// Delete removes what the store keeps of a job, before its record is
	// deleted; the job's local files go after it (JobDir).
	Delete(ctx context.Context, id string) error
	// Earlier opens the archive of a completed job for a later export of
	// the same deployment to copy its unchanged entries from
	// (bundle.Spool.ReuseArchive); nil when the job has none stored whole.
	Earlier(ctx context.Context, job *jobstore.ExportJob) func() (io.ReadCloser, error)
	// Record returns the render record kept beside a completed job's
	// archive (Attempt.Record), which a later export of the same
	// deployment reuses the archive's pages with; nil when there is none.
	Record(ctx context.Context, job *jobstore.ExportJob) []byte
}

// RecordName is the name the render record of an archive whose content
// version is version is kept under, beside the archive: an attempt that
// lost the job cannot leave a record that does not go with the archive
// the job kept.
func RecordName(version string) string { return "render-record-" + version }

// MaxRecordBytes bounds a render record a store reads back; a larger
// one is not used.
const MaxRecordBytes = 512 << 20

// ErrNotServed is CheckLink's answer on a store whose links point at
// itself rather than at the server.
var ErrNotServed = errors.New("bundles of this server are downloaded from the object store")

// Site is a rendered site that can write its own archive: the
// bundle.Spool a worker renders into.
type Site interface {
	WriteArchive(ctx context.Context, w io.Writer, workers int) error
}

// Attempt is one worker's attempt at a job, as Publish sees it.
type Attempt struct {
	Job      *jobstore.ExportJob
	Manifest *bundle.Manifest
	Site     Site
	// Holds returns jobstore.ErrLeaseLost once the attempt no longer
	// holds its job (a read of the job store), so that it publishes
	// nothing over the work of the attempt that took over.
	Holds func(ctx context.Context) error
	// Fresh reports whether so much of the lease is left that no other
	// attempt can have taken the job, which makes Holds needless.
	Fresh func() bool
	// Rendered is how long the render took, for the log.
	Rendered time.Duration
	// Record is what the export recorded for a later one to reuse
	// (export.Sidecarer), kept beside the archive; nil for none.
	Record []byte
	// Reused counts, once the archive is written, the entries it copied
	// from the earlier archive, for the log.
	Reused func() int
}

// Env is what a store is opened with: the server's settings it needs.
type Env struct {
	// DataDir is the server's data dir; only Disk keeps archives there.
	DataDir string
	// Jobs is the job store, whose records say what was published.
	Jobs jobstore.Store
	// Clock is the server's clock (the control plane's, when it has one):
	// links expire by it.
	Clock   clock.Clock
	LinkTTL time.Duration
	// PublicURL is the base of links the server serves itself.
	PublicURL *url.URL
	// Random feeds signing keys.
	Random io.Reader
	Log    hclog.Logger
	// ExportTimeout bounds an upload as it bounds a render.
	ExportTimeout time.Duration
	// Archived is called for each archive the store builds, so the
	// server can count them.
	Archived func()
}

// Opener opens a Store for a server; the server calls it once, at start.
type Opener func(ctx context.Context, env Env) (Store, error)
