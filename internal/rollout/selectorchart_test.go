package rollout

import (
	"slices"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/releaseutil"
	"sigs.k8s.io/yaml"
)

// selectorValues is a renewer for the releases labelled
// docsadmin.io/fleet=docs, with change applied to its values.
func selectorValues(change func(r map[string]interface{})) map[string]interface{} {
	return renewerValues(func(r map[string]interface{}) {
		r["domain"] = ""
		r["selector"] = "docsadmin.io/fleet=docs"
		if change != nil {
			change(r)
		}
	})
}

// renewerRBAC renders vals and returns the renewer's args and, per RBAC
// kind, the namespaces (or "" for cluster-wide objects) it is rendered in.
func renewerRBAC(t *testing.T, vals map[string]interface{}) (string, map[string][]string, map[string]interface{}) {
	t.Helper()
	_, rel, err := renderChart(t, vals)
	if err != nil {
		t.Fatal(err)
	}
	where := map[string][]string{}
	var args string
	var clusterRole map[string]interface{}
	for _, m := range releaseutil.SplitManifests(rel.Manifest) {
		var obj map[string]interface{}
		if err := yaml.Unmarshal([]byte(m), &obj); err != nil || obj == nil {
			continue
		}
		kind := obj["kind"].(string)
		ns, _ := dig(t, obj, "metadata").(map[string]interface{})["namespace"].(string)
		switch kind {
		case "Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding":
			where[kind] = append(where[kind], ns)
			if kind == "ClusterRole" {
				clusterRole = obj
			}
		case "Deployment":
			if dig(t, obj, "metadata", "name") == renewerName {
				c := dig(t, obj, "spec", "template", "spec", "containers").([]interface{})[0].(map[string]interface{})
				args = strings.Join(toStrings(c["args"]), " ")
			}
		}
	}
	for _, v := range where {
		slices.Sort(v)
	}
	return args, where, clusterRole
}

// TestChart_renewerSelector: with renewer.selector the renewer runs
// `rollout --selector` over renewer.selectorNamespaces (default its own
// namespace) with a Role in exactly those; with renewer.namespaceSelector
// it gets a ClusterRole that may list namespaces instead, and no Roles.
func TestChart_renewerSelector(t *testing.T) {
	args, where, _ := renewerRBAC(t, selectorValues(nil))
	if !strings.Contains(args, "--namespace docs --selector docsadmin.io/fleet=docs --namespaces docs --parallel 4") ||
		strings.Contains(args, "--release ") || strings.Contains(args, "--domain") {
		t.Errorf("renewer args = %q", args)
	}
	if !slices.Equal(where["Role"], []string{"docs"}) || where["ClusterRole"] != nil {
		t.Errorf("RBAC = %v", where)
	}

	args, where, _ = renewerRBAC(t, selectorValues(func(r map[string]interface{}) {
		r["selectorNamespaces"] = []interface{}{"team-b", "team-a"}
	}))
	if !strings.Contains(args, "--selector docsadmin.io/fleet=docs --namespaces team-a,team-b") {
		t.Errorf("renewer args = %q", args)
	}
	want := []string{"team-a", "team-b"}
	if !slices.Equal(where["Role"], want) || !slices.Equal(where["RoleBinding"], want) || where["ClusterRole"] != nil {
		t.Errorf("RBAC = %v, want Roles and RoleBindings in exactly %v", where, want)
	}

	args, where, cr := renewerRBAC(t, selectorValues(func(r map[string]interface{}) {
		r["namespaceSelector"] = "docsadmin.io/docs=true"
	}))
	if !strings.Contains(args, "--selector docsadmin.io/fleet=docs --namespace-selector docsadmin.io/docs=true") ||
		strings.Contains(args, "--namespaces") {
		t.Errorf("renewer args = %q", args)
	}
	if where["Role"] != nil || len(where["ClusterRole"]) != 1 || len(where["ClusterRoleBinding"]) != 1 {
		t.Errorf("RBAC = %v, want one ClusterRole and its binding only", where)
	}
	if b, _ := yaml.Marshal(cr["rules"]); !strings.Contains(string(b), "- namespaces") {
		t.Errorf("the ClusterRole cannot list namespaces:\n%s", b)
	}
	if problems := lintProblems(chartPath, selectorValues(nil)); len(problems) > 0 {
		t.Errorf("lint:\n%s", strings.Join(problems, "\n"))
	}
}

// TestChart_renewerSelectorBadValues: a selector mixed with a domain or a
// releases list, and selectorNamespaces without a selector, are refused.
func TestChart_renewerSelectorBadValues(t *testing.T) {
	for name, change := range map[string]func(r map[string]interface{}){
		"domain": func(r map[string]interface{}) { r["domain"] = "docs.acme.test" },
		"releases": func(r map[string]interface{}) {
			r["releases"] = fleetValues()["renewer"].(map[string]interface{})["releases"]
		},
		"no selector": func(r map[string]interface{}) {
			r["selector"], r["domain"], r["selectorNamespaces"] = "", "docs.acme.test", []interface{}{"a"}
		},
		"both namespace forms": func(r map[string]interface{}) {
			r["selectorNamespaces"], r["namespaceSelector"] = []interface{}{"a"}, "x=y"
		},
	} {
		if _, err := renderAll(t, selectorValues(change)); err == nil || !strings.Contains(err.Error(), "renewer") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
