package rollout

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/hashicorp/go-hclog"
	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/release"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

// List returns what each release carries whose user-supplied values hold a
// staticExport table: the releases a static export rollout manages or can
// adopt, as Terraform's list resource offers them for import. It looks in
// c's namespace, or in every namespace the credentials can read when
// allNamespaces is set. Uninstalled releases are left out. The result is
// sorted by namespace, then release.
func List(ctx context.Context, c Config, allNamespaces bool, log hclog.Logger) ([]*State, error) {
	all, err := revisions(ctx, c, allNamespaces, log)
	if err != nil {
		return nil, err
	}
	return lastWithStaticExport(all), nil
}

// revisions returns every revision of every release in c's namespace, or
// in every namespace the credentials can read when allNamespaces is set.
func revisions(ctx context.Context, c Config, allNamespaces bool, log hclog.Logger) ([]*release.Release, error) {
	if log == nil {
		log = hclog.NewNullLogger()
	}
	getter, ns, err := restClientGetter(c)
	if err != nil {
		return nil, err
	}
	if allNamespaces {
		ns = "" // Helm's Secret driver lists every namespace, as `helm list -A` does
	}
	ac := new(action.Configuration)
	if err := ac.Init(getter, ns, "secret", helmLog(log)); err != nil {
		return nil, fmt.Errorf("initialise helm: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	all, err := ac.Releases.ListReleases()
	if err != nil {
		return nil, fmt.Errorf("list releases: %w", redact.Error(err))
	}
	return all, nil
}

// lastLive keeps the last revision of each release that carries a
// staticExport table and is not uninstalled.
func lastLive(revisions []*release.Release) []*release.Release {
	type key struct{ ns, name string }
	last := map[key]*release.Release{}
	for _, rel := range revisions {
		k := key{rel.Namespace, rel.Name}
		if prev := last[k]; prev == nil || rel.Version > prev.Version {
			last[k] = rel
		}
	}
	var out []*release.Release
	for _, rel := range last {
		if rel.Info == nil || rel.Info.Status == release.StatusUninstalled {
			continue
		}
		if _, ok := rel.Config[ValuesKey].(map[string]interface{}); ok {
			out = append(out, rel)
		}
	}
	return out
}

// lastWithStaticExport keeps the last revision of each release and returns
// the state of those that carry a staticExport table.
func lastWithStaticExport(revisions []*release.Release) []*State {
	var out []*State
	for _, rel := range lastLive(revisions) {
		out = append(out, stateOf(rel))
	}
	slices.SortFunc(out, func(a, b *State) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Release, b.Release))
	})
	return out
}

// stateOf is what a revision carries.
func stateOf(rel *release.Release) *State {
	v := effectiveValues(rel)
	s := &State{
		Release:      rel.Name,
		Namespace:    rel.Namespace,
		Revision:     rel.Version,
		Enabled:      v.Enabled,
		BundleURL:    v.BundleURL,
		Version:      v.Version,
		ValuesDigest: v.digest(),
	}
	if rel.Info != nil {
		s.Status = rel.Info.Status.String()
	}
	if rel.Chart != nil && rel.Chart.Metadata != nil {
		s.Chart = rel.Chart.Metadata.Name + "-" + rel.Chart.Metadata.Version
	}
	if t, err := time.Parse(time.RFC3339, v.ExpiresAt); err == nil {
		s.ExpiresAt = t
	}
	return s
}

// Selected is a release a label selector chose: where it is and the
// labels it carries (Helm's release labels, as `helm install --labels`
// sets them and `helm upgrade` keeps them).
type Selected struct {
	Namespace, Release string
	Labels             map[string]string
}

// Select returns the releases of c's namespace whose newest revision
// carries a staticExport table and labels matching selector (Kubernetes
// label selector syntax, as `helm list --selector`; empty matches every
// release). Uninstalled releases are left out; the result is sorted by
// release. It needs only what listing the release records in that one
// namespace needs, so a Role per namespace suffices.
func Select(ctx context.Context, c Config, selector string, log hclog.Logger) ([]Selected, error) {
	sel, err := labels.Parse(selector)
	if err != nil {
		return nil, fmt.Errorf("label selector %q: %w", selector, err)
	}
	all, err := revisions(ctx, c, false, log)
	if err != nil {
		return nil, err
	}
	var out []Selected
	for _, rel := range lastLive(all) {
		if sel.Matches(labels.Set(rel.Labels)) {
			out = append(out, Selected{Namespace: rel.Namespace, Release: rel.Name, Labels: rel.Labels})
		}
	}
	slices.SortFunc(out, func(a, b Selected) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Release, b.Release))
	})
	return out, nil
}

// Namespaces returns the names of the namespaces whose labels match
// selector, sorted: where a fleet selected by namespace looks for
// releases. It needs the right to list namespaces.
func Namespaces(ctx context.Context, c Config, selector string) ([]string, error) {
	if _, err := labels.Parse(selector); err != nil {
		return nil, fmt.Errorf("namespace selector %q: %w", selector, err)
	}
	getter, _, err := restClientGetter(c)
	if err != nil {
		return nil, err
	}
	rc, err := getter.ToRESTConfig()
	if err != nil {
		return nil, err
	}
	cs, err := kubernetes.NewForConfig(rc)
	if err != nil {
		return nil, err
	}
	list, err := cs.CoreV1().Namespaces().List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return nil, fmt.Errorf("list namespaces: %w", redact.Error(err))
	}
	var out []string
	for _, n := range list.Items {
		if n.DeletionTimestamp == nil {
			out = append(out, n.Name)
		}
	}
	slices.Sort(out)
	return out, nil
}
