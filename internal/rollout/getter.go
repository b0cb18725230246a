package rollout

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// serviceAccountNamespace is where Kubernetes mounts the pod's namespace.
const serviceAccountNamespace = "/var/run/secrets/kubernetes.io/serviceaccount/namespace"

var (
	_ genericclioptions.RESTClientGetter = (*genericclioptions.ConfigFlags)(nil)
	_ genericclioptions.RESTClientGetter = (*inClusterGetter)(nil)
)

// restClientGetter returns what Helm needs to reach the cluster and the
// namespace the release lives in.
func restClientGetter(c Config) (genericclioptions.RESTClientGetter, string, error) {
	if c.REST != nil {
		if c.Kubeconfig != "" || c.Context != "" || c.InCluster {
			return nil, "", errors.New("a REST configuration does not take a kubeconfig, context or in-cluster configuration")
		}
		if c.REST.Host == "" {
			return nil, "", errors.New("the REST configuration has no host")
		}
		ns := c.Namespace
		if ns == "" {
			ns = "default"
		}
		return &inClusterGetter{cfg: rest.CopyConfig(c.REST), namespace: ns}, ns, nil
	}
	if c.InCluster {
		if c.Kubeconfig != "" || c.Context != "" {
			return nil, "", errors.New("in-cluster configuration does not take a kubeconfig or context")
		}
		rc, err := rest.InClusterConfig()
		if err != nil {
			return nil, "", fmt.Errorf("in-cluster configuration: %w", err)
		}
		ns := c.Namespace
		if ns == "" {
			b, err := os.ReadFile(serviceAccountNamespace)
			if err != nil {
				return nil, "", fmt.Errorf("read the pod's namespace: %w", err)
			}
			ns = strings.TrimSpace(string(b))
		}
		return &inClusterGetter{cfg: rc, namespace: ns}, ns, nil
	}

	// Persistent flags share one client config, discovery client and REST
	// mapper across calls, which a long-lived provider process benefits
	// from; the CLI builds them per command.
	flags := genericclioptions.NewConfigFlags(true)
	if c.Kubeconfig != "" {
		flags.KubeConfig = &c.Kubeconfig
	}
	if c.Context != "" {
		flags.Context = &c.Context
	}
	ns := c.Namespace
	if ns == "" {
		var err error
		ns, _, err = flags.ToRawKubeConfigLoader().Namespace()
		if err != nil {
			return nil, "", fmt.Errorf("read the namespace from the kubeconfig: %w", err)
		}
	}
	// Helm's kube client takes the namespace for resources from the
	// getter, its storage from Init: both must agree.
	flags.Namespace = &ns
	return flags, ns, nil
}

// inClusterGetter serves a fixed rest.Config: the pod's in-cluster one, or
// one the caller built (Config.REST). ConfigFlags cannot be forced to
// either: it prefers any kubeconfig it finds on disk.
type inClusterGetter struct {
	cfg       *rest.Config
	namespace string

	once sync.Once
	dc   discovery.CachedDiscoveryInterface
	err  error
}

// ToRESTConfig returns a copy, because clients set QPS and such on it.
func (g *inClusterGetter) ToRESTConfig() (*rest.Config, error) {
	return rest.CopyConfig(g.cfg), nil
}

// ToDiscoveryClient caches discovery in memory for the getter's lifetime.
func (g *inClusterGetter) ToDiscoveryClient() (discovery.CachedDiscoveryInterface, error) {
	g.once.Do(func() {
		dc, err := discovery.NewDiscoveryClientForConfig(rest.CopyConfig(g.cfg))
		if err != nil {
			g.err = fmt.Errorf("discovery client: %w", err)
			return
		}
		g.dc = memory.NewMemCacheClient(dc)
	})
	return g.dc, g.err
}

// ToRESTMapper maps kinds to resources through discovery, as kubectl does.
func (g *inClusterGetter) ToRESTMapper() (meta.RESTMapper, error) {
	dc, err := g.ToDiscoveryClient()
	if err != nil {
		return nil, err
	}
	return restmapper.NewShortcutExpander(restmapper.NewDeferredDiscoveryRESTMapper(dc), dc, nil), nil
}

// ToRawKubeConfigLoader only has to answer Namespace: Helm's kube client
// asks it for the default namespace of the resources it creates.
func (g *inClusterGetter) ToRawKubeConfigLoader() clientcmd.ClientConfig {
	return clientcmd.NewDefaultClientConfig(*clientcmdapi.NewConfig(), &clientcmd.ConfigOverrides{
		Context: clientcmdapi.Context{Namespace: g.namespace},
	})
}
