package rolloutcmd

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/rollout"
)

// Release labels that say which export feeds a release chosen by
// --selector, set with `helm install --labels` (Helm keeps them on every
// upgrade). Exactly one of them.
const (
	// LabelDomain names the deployment domain to export, as --domain.
	LabelDomain = "docsadmin.io/domain"
	// LabelJobID names the finished export job whose link is renewed, as
	// --job-id.
	LabelJobID = "docsadmin.io/job-id"
)

// defaultResync is how often a fleet chosen by selector looks again for
// releases that joined or left it.
const defaultResync = time.Minute

// entryOf turns a selected release into a fleet entry, or says what its
// labels lack.
func entryOf(s rollout.Selected) (Entry, error) {
	e := Entry{Release: s.Release, Namespace: s.Namespace, Domain: s.Labels[LabelDomain], JobID: s.Labels[LabelJobID]}
	if (e.Domain == "") == (e.JobID == "") {
		return e, fmt.Errorf("give it exactly one of the release labels %s and %s (helm upgrade --labels)", LabelDomain, LabelJobID)
	}
	return e, nil
}

// Selection finds a fleet's releases by label: in Namespaces, or in every
// namespace NamespaceSelector matches, the releases whose Helm labels
// match Selector and whose values carry a staticExport table.
type Selection struct {
	Selector          string
	Namespaces        []string
	NamespaceSelector string
	// List returns the selected releases of one namespace; Spaces the
	// namespaces a namespace selector matches (rollout.Select and
	// rollout.Namespaces on the command's cluster).
	List   func(ctx context.Context, namespace, selector string) ([]rollout.Selected, error)
	Spaces func(ctx context.Context, selector string) ([]string, error)
	Log    hclog.Logger
	Out    *lockedWriter

	mu     sync.Mutex
	told   map[string]string // release -> the last problem reported, so it is said once
	failed map[string]bool   // namespaces that could not be listed last time
}

// discover lists the fleet once. A namespace that cannot be listed is
// reported and keeps the releases it had (known), so a passing API hiccup
// does not stop their loops; a release whose labels name no export is
// reported once and left out.
func (s *Selection) discover(ctx context.Context, known map[string]Entry) ([]Entry, error) {
	spaces := s.Namespaces
	if s.NamespaceSelector != "" {
		var err error
		if spaces, err = s.Spaces(ctx, s.NamespaceSelector); err != nil {
			return nil, err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.told == nil {
		s.told, s.failed = map[string]string{}, map[string]bool{}
	}
	var out []Entry
	for _, ns := range spaces {
		found, err := s.List(ctx, ns, s.Selector)
		if err != nil {
			if !s.failed[ns] {
				_, _ = fmt.Fprintf(s.Out, "namespace %s: %v\n", ns, err)
				s.Log.Error("cannot list the releases of a namespace; its releases keep their loops", "namespace", ns, "error", err.Error())
			}
			s.failed[ns] = true
			for k, e := range known {
				if strings.HasPrefix(k, ns+"/") {
					out = append(out, e)
				}
			}
			continue
		}
		delete(s.failed, ns)
		for _, sel := range found {
			e, err := entryOf(sel)
			key := e.Namespace + "/" + e.Release
			if err != nil {
				if s.told[key] != err.Error() {
					_, _ = fmt.Fprintf(s.Out, "%s: selected but not renewed: %v\n", key, err)
					s.Log.Warn("selected release names no export", "release", e.Release, "namespace", e.Namespace, "error", err.Error())
					s.told[key] = err.Error()
				}
				continue
			}
			delete(s.told, key)
			out = append(out, e)
		}
	}
	return out, nil
}
