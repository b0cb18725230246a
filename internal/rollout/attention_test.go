package rollout_test

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
)

// TestAttention_eventsAndRetryRequests: an Event lands on the release's
// newest revision Secret and on its Deployment (`kubectl describe
// deployment` shows it) with its reason and type and without the link;
// a retry request is read back as the time it was made, and a release
// nobody asked about has none.
func TestAttention_eventsAndRetryRequests(t *testing.T) {
	c, cs := driftFixture(t)
	ctx := t.Context()
	// The Secret Helm's secret driver would keep revision 1 in.
	rev := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "sh.helm.release.v1." + driftRelease + ".v1", Namespace: driftNS,
		Labels: map[string]string{"owner": "helm", "name": driftRelease}}}
	if _, err := cs.CoreV1().Secrets(driftNS).Create(ctx, rev, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	if err := c.Roller.RecordEvent(ctx, driftRelease, "StaticExportNeedsAttention",
		"gave up: GET "+driftURL+": 403", true); err != nil {
		t.Fatal(err)
	}
	evs, err := cs.CoreV1().Events(driftNS).List(ctx, metav1.ListOptions{})
	if err != nil || len(evs.Items) != 2 {
		t.Fatalf("events: %v %v", evs, err)
	}
	on := map[string]bool{}
	for _, ev := range evs.Items {
		on[ev.InvolvedObject.Kind+"/"+ev.InvolvedObject.Name] = true
		if ev.Type != corev1.EventTypeWarning || ev.Reason != "StaticExportNeedsAttention" || ev.Source.Component == "" {
			t.Errorf("event = %+v", ev)
		}
		if strings.Contains(ev.Message, driftSig) || !strings.Contains(ev.Message, "gave up") {
			t.Errorf("event message %q: want it without the link's signature", ev.Message)
		}
	}
	if !on["Secret/"+rev.Name] || !on["Deployment/docs-docsadmin-self-hosted"] {
		t.Errorf("events on %v, want the revision Secret and the Deployment", on)
	}

	if at, err := c.Roller.RetryRequestedAt(ctx, driftRelease); err != nil || !at.IsZero() {
		t.Fatalf("retry requested at %v %v before anyone asked", at, err)
	}
	asked := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := c.Roller.RequestRetry(ctx, driftRelease, asked); err != nil {
		t.Fatal(err)
	}
	if at, err := c.Roller.RetryRequestedAt(ctx, driftRelease); err != nil || !at.Equal(asked) {
		t.Fatalf("retry requested at %v %v, want %v", at, err, asked)
	}
	sec, err := cs.CoreV1().Secrets(driftNS).Get(ctx, rev.Name, metav1.GetOptions{})
	if err != nil || sec.Annotations[rollout.AnnotationRetryRequestedAt] != "2030-01-02T03:04:05Z" {
		t.Fatalf("annotation = %v %v", sec.Annotations, err)
	}
}
