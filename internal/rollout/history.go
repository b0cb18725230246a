package rollout

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/storage/driver"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

// secretsResource is what Helm's secret driver keeps revisions in.
var secretsResource = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}

// newest returns the release's highest revision, with the errors of
// lastRevision. Helm's storage can only read the whole history, and
// decoding a revision (base64, gzip and JSON of the release with its
// whole chart) is most of the CPU a renewal's look at a release costs:
// up to maxHistory revisions on every look. With Helm's secret driver on
// a cluster, newest lists the revisions' labels only (Helm labels each
// Secret with its release's name and version), then reads and decodes the
// one it wants. Anywhere else (memory storage, a fake client, a Secret
// without a version label, one that went in between) it reads the history.
func (r *Roller) newest(ctx context.Context, name string) (*release.Release, error) {
	if md := r.metadataClient(); md != nil {
		if last, ok := r.newestByLabels(ctx, md, name); ok {
			if last.Info.Status == release.StatusUninstalled {
				return last, fmt.Errorf("release %q in namespace %q was uninstalled: %w", name, r.namespace, ErrReleaseNotFound)
			}
			return last, nil
		}
	}
	last, _, err := r.lastRevision(name)
	return last, err
}

// newestByLabels finds the newest revision through the Secrets' labels;
// ok false means "read the history instead" (including when the list
// failed: the history read reports that error in Helm's words).
func (r *Roller) newestByLabels(ctx context.Context, md metadata.Interface, name string) (*release.Release, bool) {
	sel := labels.Set{"owner": "helm", "name": name}.AsSelector().String()
	list, err := md.Resource(secretsResource).Namespace(r.namespace).List(ctx, metav1.ListOptions{LabelSelector: sel})
	if err != nil || len(list.Items) == 0 {
		return nil, false
	}
	top := 0
	for _, it := range list.Items {
		v, err := strconv.Atoi(it.Labels["version"])
		if err != nil || v < 1 {
			return nil, false
		}
		top = max(top, v)
	}
	last, err := r.cfg.Releases.Get(name, top)
	if err != nil || last == nil || last.Info == nil {
		return nil, false
	}
	return last, true
}

// metadataClient returns the Roller's metadata client, nil when the
// releases are not kept by Helm's secret driver on a cluster.
func (r *Roller) metadataClient() metadata.Interface {
	if r.kube != nil || r.cfg.RESTClientGetter == nil || r.cfg.Releases == nil ||
		r.cfg.Releases.Driver == nil || r.cfg.Releases.Name() != driver.SecretsDriverName {
		return nil
	}
	r.clients.once.Do(r.buildClients)
	return r.clients.md
}

// clientset returns the Roller's clientset, built once: a clientset per
// Event or drift check was a new set of typed clients every time.
func (r *Roller) clientset() (kubernetes.Interface, error) {
	if r.kube != nil {
		return r.kube, nil
	}
	if r.cfg.RESTClientGetter == nil {
		return nil, errNoCluster
	}
	r.clients.once.Do(r.buildClients)
	return r.clients.cs, r.clients.err
}

// kubeClients are the clients the Roller reads the cluster with besides
// Helm's own, built on first use.
type kubeClients struct {
	once sync.Once
	cs   kubernetes.Interface
	md   metadata.Interface
	err  error
}

func (r *Roller) buildClients() {
	c := &r.clients
	rc, err := r.cfg.RESTClientGetter.ToRESTConfig()
	if err != nil {
		c.err = fmt.Errorf("cluster configuration: %w", redact.Error(err))
		return
	}
	if c.cs, c.err = kubernetes.NewForConfig(rc); c.err != nil {
		return
	}
	// A metadata client that cannot be built only costs the fast path.
	if md, err := metadata.NewForConfig(rc); err == nil {
		c.md = md
	} else {
		r.log.Debug("no metadata client; reading whole release histories", "error", err)
	}
}
