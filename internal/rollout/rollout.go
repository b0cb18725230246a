// Package rollout points a self-hosted Helm release at a static export
// bundle: it upgrades the release with staticExport.enabled, bundleUrl,
// version and expiresAt, keeping every other value, and reads those values
// back so that Terraform can detect drift. It is the only package that
// imports Helm.
//
// The link's expiry is stored as the value staticExport.expiresAt rather
// than as a release label. A value lives in the same revision as the link it
// describes, so a rollback (atomic or by hand) restores both together, it
// shows in `helm get values`, and it is covered by the values digest. A
// label would outlive a `helm rollback` of the link and cannot hold an RFC
// 3339 timestamp (colons are not allowed in label values).
package rollout

import (
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/go-hclog"
	"helm.sh/helm/v3/pkg/action"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

// Names of the values this package owns, below the staticExport table.
const (
	ValuesKey    = "staticExport"
	KeyEnabled   = "enabled"
	KeyBundleURL = "bundleUrl"
	KeyVersion   = "version"
	KeyExpiresAt = "expiresAt"
)

// DefaultTimeout bounds Helm's wait for resources and the rollback of an
// atomic upgrade when the request sets no timeout (helm's own default).
const DefaultTimeout = 5 * time.Minute

// ErrReleaseNotFound is returned when the release does not exist (or was
// uninstalled) and the request does not ask for an install.
var ErrReleaseNotFound = errors.New("release not found")

// PendingError reports a release whose last revision is pending-install,
// pending-upgrade or pending-rollback: another Helm operation is running or
// died half-way. Retrying cannot help, and taking it over could fight a live
// operation, so a person has to decide; Error names the command to run.
type PendingError struct {
	Release   string
	Namespace string
	Revision  int
	Status    string
	// RollbackTo is the last revision that was deployed before the pending
	// one, or 0 when there is none (a first install that never finished).
	RollbackTo int
	// NotRecovered says why Request.RecoverPending did not take the
	// revision over; empty when it was not asked to.
	NotRecovered string
	// RecoverableIn is how long until RecoverPending may take the revision
	// over, when only its age stands in the way; a watch loop waits that
	// long instead of giving up.
	RecoverableIn time.Duration
}

func (e *PendingError) Error() string {
	recovery := fmt.Sprintf("helm rollback %s %d --namespace %s", e.Release, e.RollbackTo, e.Namespace)
	if e.RollbackTo == 0 {
		recovery = fmt.Sprintf("helm uninstall %s --namespace %s", e.Release, e.Namespace)
	}
	msg := fmt.Sprintf("release %q in namespace %q is stuck at revision %d in status %s: "+
		"another helm operation is running or was interrupted; once none is running, recover with %q",
		e.Release, e.Namespace, e.Revision, e.Status, recovery)
	if e.NotRecovered != "" {
		msg += " (not recovered automatically: " + e.NotRecovered + ")"
	}
	return msg
}

// Config says which cluster and namespace a Roller works on.
type Config struct {
	// Kubeconfig is the path of a kubeconfig file; empty means the usual
	// KUBECONFIG and ~/.kube/config lookup.
	Kubeconfig string
	// Context selects a kubeconfig context; empty means the current one.
	Context string
	// Namespace of the release; empty means the context's namespace.
	Namespace string
	// InCluster uses the pod's service account instead of a kubeconfig.
	InCluster bool
	// REST, when set, is the client configuration to use instead of a
	// kubeconfig, such as one the Terraform provider builds from its
	// kubernetes block for a cluster created in the same run. It conflicts
	// with Kubeconfig, Context and InCluster; Namespace defaults to
	// "default". The Roller keeps a copy.
	REST *rest.Config
}

// Request is one desired state of a release's static export values.
type Request struct {
	// Release is the Helm release name.
	Release string
	// Chart is the chart to upgrade to: a directory or archive, a chart
	// name in ChartRepo, or an oci://host/repo/name reference. Empty means
	// the chart the release already runs, so only values change. An
	// install needs it.
	Chart string
	// ChartRepo is the URL of a chart repository (an index.yaml) holding
	// the chart named Chart. Empty: Chart is a local path or an oci://
	// reference.
	ChartRepo string
	// ChartVersion is the chart version or constraint to take from
	// ChartRepo or the OCI registry; empty means the newest.
	ChartVersion string
	// ChartPlainHTTP reaches an OCI registry over plain HTTP.
	ChartPlainHTTP bool
	// CreateNamespace creates the release's namespace on install when it
	// does not exist.
	CreateNamespace bool
	// Install installs the release when it does not exist. Otherwise a
	// missing release is ErrReleaseNotFound.
	Install bool
	// OnFailure says what becomes of an upgrade or install that fails or
	// times out. The zero value, RollBack, is Helm's atomic mode, because a
	// half-applied upgrade is the worse default.
	OnFailure OnFailure
	// RecoverPending takes over a release stuck in pending-*: when this
	// package created the pending revision and it is older than Timeout plus
	// RecoverGrace (so no live run can still own it), the revision is marked
	// failed and the release rolled back to the last deployed revision
	// before the request is applied. Otherwise the PendingError stands.
	RecoverPending bool
	// Repair creates a revision even when the release already carries
	// these values, so that Helm's three-way merge puts objects edited or
	// deleted by hand back as the chart renders them (drift: correct).
	Repair bool
	// Labels are Helm release labels to add (helm --labels): kept by every
	// later upgrade, and what `rollout --selector` selects by. The value
	// "null" removes a label, as with helm. They are applied with a new
	// revision; labels alone do not make one.
	Labels map[string]string
	// Wait waits for resources to become ready even with KeepFailed.
	Wait bool
	// Timeout bounds the wait and the rollback; zero means DefaultTimeout.
	// A sooner context deadline shortens it.
	Timeout time.Duration

	BundleURL string
	Version   string
	// ExpiresAt is when BundleURL stops working. Zero leaves expiresAt
	// unset.
	ExpiresAt time.Time
}

// OnFailure is what Apply does when an upgrade or install fails or times
// out.
type OnFailure int

const (
	// RollBack (Helm's atomic mode) waits for the resources and rolls a
	// failed upgrade back to the last deployed revision, or uninstalls a
	// failed install.
	RollBack OnFailure = iota
	// KeepFailed leaves the failed revision in place and waits only when
	// Request.Wait says so; clusters where nothing becomes ready (no
	// kubelet) need it.
	KeepFailed
)

// Atomic returns RollBack when atomic is true and KeepFailed otherwise: the
// mapping of the CLI's --atomic flag and the provider's atomic attribute.
func Atomic(atomic bool) OnFailure {
	if atomic {
		return RollBack
	}
	return KeepFailed
}

// Result describes the revision a successful Apply left in place.
type Result struct {
	Revision     int
	Status       string
	ValuesDigest string
	// Changed is false when the release already carried the values and no
	// revision was created.
	Changed bool
	// Installed is true when Apply created the release.
	Installed bool
}

// State is what a release currently carries, as Terraform's Read needs it.
type State struct {
	Release   string
	Namespace string
	Revision  int
	Status    string
	Chart     string // chart name-version of the revision
	Enabled   bool
	BundleURL string
	Version   string
	// ExpiresAt is zero when the release carries no (or an unparsable)
	// expiry; such a link is treated as due for renewal.
	ExpiresAt    time.Time
	ValuesDigest string
}

// LinkValid reports whether the release's link can be reused at now: it is
// enabled, deployed and does not expire within renewBefore. Callers pass
// their injected clock's time so that renewal is tested without sleeping.
func (s *State) LinkValid(now time.Time, renewBefore time.Duration) bool {
	if !s.Enabled || s.BundleURL == "" || s.Status != "deployed" || s.ExpiresAt.IsZero() {
		return false
	}
	return now.Add(renewBefore).Before(s.ExpiresAt)
}

// Roller applies static export values to releases in one namespace.
type Roller struct {
	clock clock.Clock
	// kube, when set, replaces the clientset built from cfg (tests).
	kube      kubernetes.Interface
	clients   kubeClients
	cfg       *action.Configuration
	namespace string
	log       hclog.Logger
}

// New returns a Roller for the cluster and namespace in c. Helm keeps its
// release records as Secrets in that namespace, as the helm CLI does.
func New(c Config, log hclog.Logger) (*Roller, error) {
	if log == nil {
		log = hclog.NewNullLogger()
	}
	getter, ns, err := restClientGetter(c)
	if err != nil {
		return nil, err
	}
	return newFromGetter(getter, ns, log)
}

func newFromGetter(getter genericclioptions.RESTClientGetter, ns string, log hclog.Logger) (*Roller, error) {
	ac := new(action.Configuration)
	if err := ac.Init(getter, ns, "secret", helmLog(log)); err != nil {
		return nil, fmt.Errorf("initialise helm: %w", err)
	}
	cacheValidation(ac.KubeClient)
	return &Roller{cfg: ac, namespace: ns, log: log, clock: clock.Real{}}, nil
}

// NewWithActionConfig returns a Roller over an existing Helm configuration,
// for tests with a memory storage driver and a fake kube client. The
// configuration's Log is replaced so that Helm's messages are redacted too.
func NewWithActionConfig(ac *action.Configuration, namespace string, log hclog.Logger) *Roller {
	if log == nil {
		log = hclog.NewNullLogger()
	}
	ac.Log = helmLog(log)
	return &Roller{cfg: ac, namespace: namespace, log: log, clock: clock.Real{}}
}

// SetClock replaces the clock that RecoverPending judges a pending
// revision's age by, so tests need not wait for it to age.
func (r *Roller) SetClock(c clock.Clock) { r.clock = c }

// Namespace returns the namespace the Roller works in.
func (r *Roller) Namespace() string { return r.namespace }

// helmLog forwards Helm's printf-style debug messages to hclog, redacting
// any URL query strings first: Helm does not log values today, but a
// presigned link must not reach the logs if that ever changes.
func helmLog(log hclog.Logger) action.DebugLog {
	l := log.Named("helm")
	return func(format string, v ...interface{}) {
		l.Debug(redact.Text(fmt.Sprintf(format, v...)))
	}
}
