package rollout

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

// AnnotationRetryRequestedAt on the release's newest revision Secret asks a
// renewer that stopped retrying the release to try again: an RFC 3339 time
// later than when it gave up, as Flux's reconcile.fluxcd.io/requestedAt.
// `rollout --retry` sets it; `kubectl annotate` works as well.
const AnnotationRetryRequestedAt = "docsadmin.io/retry-requested-at"

// eventSource names this tool in the Events it records.
const eventSource = "docsadmin-rollout"

// errNoCluster is returned by the methods below on a Roller built over a
// test configuration with no cluster behind it.
var errNoCluster = errors.New("no cluster connection to annotate or record events with")

// revisionSecret names the Secret Helm's secret driver keeps revision rev
// of a release in.
func revisionSecret(release string, rev int) string {
	return fmt.Sprintf("sh.helm.release.v1.%s.v%d", release, rev)
}

// newestSecret returns the clientset and the name of the Secret holding
// the release's newest revision.
func (r *Roller) newestSecret(ctx context.Context, release string) (kubernetes.Interface, string, error) {
	cs, err := r.clientset()
	if err != nil {
		return nil, "", err
	}
	last, err := r.newest(ctx, release)
	if err != nil {
		return nil, "", err
	}
	return cs, revisionSecret(release, last.Version), nil
}

// RequestRetry annotates the release's newest revision with at, asking a
// renewer that gave up on it to try again.
func (r *Roller) RequestRetry(ctx context.Context, release string, at time.Time) error {
	cs, name, err := r.newestSecret(ctx, release)
	if err != nil {
		return err
	}
	patch := fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}}}`, AnnotationRetryRequestedAt, at.UTC().Format(time.RFC3339))
	if _, err := cs.CoreV1().Secrets(r.namespace).Patch(ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
		return fmt.Errorf("annotate release %q: %w", release, redact.Error(err))
	}
	return nil
}

// RetryRequestedAt returns the time of the newest retry request on the
// release, zero when there is none (or it is not a time).
func (r *Roller) RetryRequestedAt(ctx context.Context, release string) (time.Time, error) {
	cs, name, err := r.newestSecret(ctx, release)
	if err != nil {
		return time.Time{}, err
	}
	sec, err := cs.CoreV1().Secrets(r.namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return time.Time{}, fmt.Errorf("read release %q: %w", release, redact.Error(err))
	}
	at, _ := time.Parse(time.RFC3339, sec.Annotations[AnnotationRetryRequestedAt])
	return at, nil
}

// RecordEvent records a Kubernetes Event on the release's newest revision
// Secret and on each Deployment of the release, where `kubectl get events`
// and `kubectl describe deployment` show it: warning true for a failure, a
// release needing attention or drift. msg must hold no link; it is
// redacted again here all the same. A Deployment that is gone (deleted by
// hand: drift) is skipped; the Secret's Event still tells.
func (r *Roller) RecordEvent(ctx context.Context, release, reason, msg string, warning bool) error {
	cs, name, err := r.newestSecret(ctx, release)
	if err != nil {
		return err
	}
	sec, err := cs.CoreV1().Secrets(r.namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("read release %q: %w", release, redact.Error(err))
	}
	refs := []corev1.ObjectReference{{Kind: "Secret", APIVersion: "v1", Namespace: r.namespace,
		Name: name, UID: sec.UID, ResourceVersion: sec.ResourceVersion}}
	for _, dep := range r.deployments(release) {
		live, err := cs.AppsV1().Deployments(r.namespace).Get(ctx, dep, metav1.GetOptions{})
		if err != nil {
			continue
		}
		refs = append(refs, corev1.ObjectReference{Kind: "Deployment", APIVersion: "apps/v1", Namespace: r.namespace,
			Name: dep, UID: live.UID, ResourceVersion: live.ResourceVersion})
	}
	typ := corev1.EventTypeNormal
	if warning {
		typ = corev1.EventTypeWarning
	}
	now := metav1.NewTime(r.clock.Now())
	for _, ref := range refs {
		ev := &corev1.Event{
			ObjectMeta:     metav1.ObjectMeta{Name: eventName(ref.Name, now.Time), Namespace: r.namespace},
			InvolvedObject: ref,
			Reason:         reason, Message: redact.Text(msg), Type: typ,
			Source:         corev1.EventSource{Component: eventSource},
			FirstTimestamp: now, LastTimestamp: now, Count: 1,
			ReportingController: eventSource, ReportingInstance: eventSource,
		}
		if _, err := cs.CoreV1().Events(r.namespace).Create(ctx, ev, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("record event on %s %s of release %q: %w", ref.Kind, ref.Name, release, redact.Error(err))
		}
	}
	return nil
}

// eventSeq tells apart the Events of one object recorded at one instant
// (an injected clock stands still).
var eventSeq atomic.Uint32

// eventName names an Event as client-go's recorder does, object name and
// time in hex, with a sequence number added.
func eventName(object string, at time.Time) string {
	return fmt.Sprintf("%s.%x%04x", object, at.UnixNano(), eventSeq.Add(1)&0xffff)
}

// deployments names the Deployments in the manifest of the release's
// deployed revision (its newest revision when none is deployed), in this
// namespace: the objects `kubectl describe` is run on.
func (r *Roller) deployments(release string) []string {
	rel, err := r.cfg.Releases.Deployed(release)
	if err != nil {
		if rel, _, err = r.lastRevision(release); err != nil {
			return nil
		}
	}
	var out []string
	for _, obj := range manifestObjects(rel.Manifest, r.namespace) {
		if obj.Kind == "Deployment" && obj.Metadata.Namespace == r.namespace {
			out = append(out, obj.Metadata.Name)
		}
	}
	return out
}
