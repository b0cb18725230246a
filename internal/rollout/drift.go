package rollout

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"helm.sh/helm/v3/pkg/releaseutil"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/yaml"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

// Drift is one way an object the release made differs from the cluster:
// the object is missing, or one of the fields this package watches holds
// another value. Secret data is never shown, only that it changed.
type Drift struct {
	// Object is Kind/name, e.g. Deployment/docs-docsadmin-self-hosted.
	Object string
	// Field is the path of the field, e.g. spec.replicas; empty when the
	// whole object is missing.
	Field string
	// Want is what the release says, Got what the cluster has.
	Want, Got string
}

func (d Drift) String() string {
	if d.Field == "" {
		return d.Object + " is " + d.Got + " (the release has it)"
	}
	return fmt.Sprintf("%s: %s is %s, the release says %s", d.Object, d.Field, d.Got, d.Want)
}

// ignored reports whether a rule ("Kind:field" or "Kind/name:field", e.g.
// "Deployment:spec.replicas" for an autoscaler's replicas) covers d.
func (d Drift) ignored(rules []string) bool {
	kind, _, _ := strings.Cut(d.Object, "/")
	for _, r := range rules {
		if r == kind+":"+d.Field || r == d.Object+":"+d.Field {
			return true
		}
	}
	return false
}

// CheckIgnoreRule says what is wrong with a drift ignore rule, or nil.
func CheckIgnoreRule(rule string) error {
	obj, field, ok := strings.Cut(rule, ":")
	if !ok || obj == "" || field == "" || strings.ContainsAny(field, " \t") {
		return fmt.Errorf("drift ignore rule %q: want Kind:field or Kind/name:field, e.g. Deployment:spec.replicas", rule)
	}
	return nil
}

// SetKubernetes makes the Roller read and write cluster objects (drift,
// Events, retry requests) through cs instead of a client built from its
// configuration: for tests over Helm's memory storage, with client-go's
// fake clientset.
func (r *Roller) SetKubernetes(cs kubernetes.Interface) { r.kube = cs }

// manifestObject is what Drift reads of each object in a release manifest.
type manifestObject struct {
	Kind     string `json:"kind"`
	Metadata struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
	} `json:"metadata"`
	Spec struct {
		Replicas *int32 `json:"replicas"`
		Template struct {
			Spec struct {
				Containers []struct {
					Name  string `json:"name"`
					Image string `json:"image"`
				} `json:"containers"`
			} `json:"spec"`
		} `json:"template"`
	} `json:"spec"`
	Data map[string]string `json:"data"`
}

// Drift compares the objects of the release's deployed revision with the
// cluster: every object's presence, a Deployment's replicas and container
// images, a Secret's data. Differences a rule in ignore covers are left
// out. Objects of other kinds are checked for presence only when the
// package knows how to read them (the self-hosted chart's kinds).
func (r *Roller) Drift(ctx context.Context, release string, ignore []string) ([]Drift, error) {
	cs, err := r.clientset()
	if err != nil {
		return nil, err
	}
	rel, err := r.cfg.Releases.Deployed(release)
	if err != nil {
		return nil, fmt.Errorf("read the deployed revision of release %q: %w", release, redact.Error(err))
	}
	var out []Drift
	for _, obj := range manifestObjects(rel.Manifest, r.namespace) {
		found, err := driftOf(ctx, cs, obj)
		if err != nil {
			return nil, fmt.Errorf("compare %s/%s: %w", obj.Kind, obj.Metadata.Name, redact.Error(err))
		}
		for _, d := range found {
			if !d.ignored(ignore) {
				out = append(out, d)
			}
		}
	}
	return out, nil
}

// manifestObjects decodes the objects of a release manifest, in the
// release's namespace unless they name another.
func manifestObjects(manifest, namespace string) []manifestObject {
	var out []manifestObject
	for _, m := range releaseutil.SplitManifests(manifest) {
		var obj manifestObject
		if err := yaml.Unmarshal([]byte(m), &obj); err != nil || obj.Kind == "" {
			continue
		}
		if obj.Metadata.Namespace == "" {
			obj.Metadata.Namespace = namespace
		}
		out = append(out, obj)
	}
	return out
}

// driftOf reads one object's live state and compares it.
func driftOf(ctx context.Context, cs kubernetes.Interface, obj manifestObject) ([]Drift, error) {
	name, ns, id := obj.Metadata.Name, obj.Metadata.Namespace, obj.Kind+"/"+obj.Metadata.Name
	get := metav1.GetOptions{}
	missing := func(err error) ([]Drift, error) {
		if apierrors.IsNotFound(err) {
			return []Drift{{Object: id, Want: "present", Got: "missing"}}, nil
		}
		return nil, err
	}
	var err error
	switch obj.Kind {
	case "Deployment":
		live, gerr := cs.AppsV1().Deployments(ns).Get(ctx, name, get)
		if gerr != nil {
			return missing(gerr)
		}
		var out []Drift
		want, got := int32(1), int32(1)
		if obj.Spec.Replicas != nil {
			want = *obj.Spec.Replicas
		}
		if live.Spec.Replicas != nil {
			got = *live.Spec.Replicas
		}
		if want != got {
			out = append(out, Drift{Object: id, Field: "spec.replicas", Want: fmt.Sprint(want), Got: fmt.Sprint(got)})
		}
		images := map[string]string{}
		for _, c := range live.Spec.Template.Spec.Containers {
			images[c.Name] = c.Image
		}
		for _, c := range obj.Spec.Template.Spec.Containers {
			if got, ok := images[c.Name]; !ok || got != c.Image {
				out = append(out, Drift{Object: id, Field: "spec.template.spec.containers[" + c.Name + "].image", Want: c.Image, Got: orMissing(got)})
			}
		}
		return out, nil
	case "Secret":
		live, gerr := cs.CoreV1().Secrets(ns).Get(ctx, name, get)
		if gerr != nil {
			return missing(gerr)
		}
		var out []Drift
		for k, v := range obj.Data {
			want, derr := base64.StdEncoding.DecodeString(v)
			if derr != nil {
				return nil, errors.New("the manifest's secret data is not base64")
			}
			if got, ok := live.Data[k]; !ok || string(got) != string(want) {
				out = append(out, Drift{Object: id, Field: "data." + k, Want: "the release's value", Got: "changed"})
			}
		}
		return out, nil
	case "Service":
		_, err = cs.CoreV1().Services(ns).Get(ctx, name, get)
	case "ConfigMap":
		_, err = cs.CoreV1().ConfigMaps(ns).Get(ctx, name, get)
	case "ServiceAccount":
		_, err = cs.CoreV1().ServiceAccounts(ns).Get(ctx, name, get)
	case "Role":
		_, err = cs.RbacV1().Roles(ns).Get(ctx, name, get)
	case "RoleBinding":
		_, err = cs.RbacV1().RoleBindings(ns).Get(ctx, name, get)
	default:
		return nil, nil
	}
	if err != nil {
		return missing(err)
	}
	return nil, nil
}

func orMissing(s string) string {
	if s == "" {
		return "missing"
	}
	return s
}
