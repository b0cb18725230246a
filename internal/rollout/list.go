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
)

// List returns what each release carries whose user-supplied values hold a
// staticExport table: the releases a static export rollout manages or can
// adopt, as Terraform's list resource offers them for import. It looks in
// c's namespace, or in every namespace the credentials can read when
// allNamespaces is set. Uninstalled releases are left out. The result is
// sorted by namespace, then release.
func List(ctx context.Context, c Config, allNamespaces bool, log hclog.Logger) ([]*State, error) {
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
		return nil, fmt.Errorf("list releases: %w", err)
	}
	return lastWithStaticExport(all), nil
}

// lastWithStaticExport keeps the last revision of each release and returns
// the state of those that carry a staticExport table.
func lastWithStaticExport(revisions []*release.Release) []*State {
	type key struct{ ns, name string }
	last := map[key]*release.Release{}
	for _, rel := range revisions {
		k := key{rel.Namespace, rel.Name}
		if prev := last[k]; prev == nil || rel.Version > prev.Version {
			last[k] = rel
		}
	}
	var out []*State
	for _, rel := range last {
		if rel.Info == nil || rel.Info.Status == release.StatusUninstalled {
			continue
		}
		if _, ok := rel.Config[ValuesKey].(map[string]interface{}); !ok {
			continue
		}
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
