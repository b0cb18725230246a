package rollout

import (
	"slices"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/releaseutil"
	"sigs.k8s.io/yaml"
)

// fleetValues is a renewer for three releases in two other namespaces and
// its own.
func fleetValues() map[string]interface{} {
	return renewerValues(func(r map[string]interface{}) {
		r["domain"] = ""
		r["parallel"] = 3
		r["drift"], r["driftIgnore"] = "correct", []interface{}{"Deployment:spec.replicas"}
		r["releases"] = []interface{}{
			map[string]interface{}{"release": "docs-a", "namespace": "team-a", "domain": "a.example.com"},
			map[string]interface{}{"release": "docs-b", "namespace": "team-b", "jobId": "se_7"},
			map[string]interface{}{"release": "docs-c", "domain": "c.example.com"},
		}
	})
}

// TestChart_renewerFleet: with renewer.releases the renewer runs
// `rollout --releases` on a ConfigMap that lists every entry with its
// namespace filled in, and has a Role and RoleBinding in exactly the
// listed namespaces, each bound to its one ServiceAccount.
func TestChart_renewerFleet(t *testing.T) {
	_, rel, err := renderChart(t, fleetValues())
	if err != nil {
		t.Fatal(err)
	}
	var roleNS, bindingNS []string
	var args, releases string
	for _, m := range releaseutil.SplitManifests(rel.Manifest) {
		var obj map[string]interface{}
		if err := yaml.Unmarshal([]byte(m), &obj); err != nil || obj == nil {
			continue
		}
		ns, _ := dig(t, obj, "metadata").(map[string]interface{})["namespace"].(string)
		switch kind := obj["kind"]; {
		case strings.HasPrefix(kind.(string), "Cluster"):
			t.Errorf("the fleet renewer renders %s", kind)
		case kind == "Role":
			roleNS = append(roleNS, ns)
		case kind == "RoleBinding":
			bindingNS = append(bindingNS, ns)
			subj := dig(t, obj, "subjects").([]interface{})[0].(map[string]interface{})
			if subj["name"] != renewerName || subj["namespace"] != "docs" {
				t.Errorf("binding in %s names %v", ns, subj)
			}
		case kind == "ConfigMap":
			releases = dig(t, obj, "data").(map[string]interface{})["releases.yaml"].(string)
		case kind == "Deployment" && dig(t, obj, "metadata", "name") == renewerName:
			c := dig(t, obj, "spec", "template", "spec", "containers").([]interface{})[0].(map[string]interface{})
			args = strings.Join(toStrings(c["args"]), " ")
		}
	}
	want := []string{"docs", "team-a", "team-b"}
	if slices.Sort(roleNS); !slices.Equal(roleNS, want) {
		t.Errorf("Roles in %v, want exactly %v", roleNS, want)
	}
	if slices.Sort(bindingNS); !slices.Equal(bindingNS, want) {
		t.Errorf("RoleBindings in %v, want exactly %v", bindingNS, want)
	}
	if !strings.Contains(args, "--namespace docs --releases /etc/docsadmin/releases.yaml --parallel 3 --renew-before 15m") ||
		!strings.Contains(args, "--drift correct --drift-ignore Deployment:spec.replicas") ||
		strings.Contains(args, "--release ") || strings.Contains(args, "--domain") {
		t.Errorf("renewer args = %q", args)
	}
	// The file the renewer reads is what LoadFleet expects.
	var file struct {
		Releases []map[string]string `json:"releases"`
	}
	if err := yaml.UnmarshalStrict([]byte(releases), &file); err != nil {
		t.Fatalf("releases.yaml does not parse: %v\n%s", err, releases)
	}
	got := []string{}
	for _, e := range file.Releases {
		got = append(got, e["namespace"]+"/"+e["release"]+" "+e["domain"]+e["jobId"])
	}
	if want := []string{"team-a/docs-a a.example.com", "team-b/docs-b se_7", "docs/docs-c c.example.com"}; !slices.Equal(got, want) {
		t.Errorf("releases.yaml lists %q, want %q", got, want)
	}
}

// TestChart_renewerFleetBadValues: a fleet mixed with a single release's
// domain, and an entry with neither domain nor jobId, are refused.
func TestChart_renewerFleetBadValues(t *testing.T) {
	vals := fleetValues()
	vals["renewer"].(map[string]interface{})["domain"] = "docs.acme.test"
	if _, err := renderAll(t, vals); err == nil || !strings.Contains(err.Error(), "renewer") {
		t.Errorf("fleet and domain: %v", err)
	}
	vals = fleetValues()
	vals["renewer"].(map[string]interface{})["releases"] = []interface{}{map[string]interface{}{"release": "x", "namespace": "a"}}
	if _, err := renderAll(t, vals); err == nil || !strings.Contains(err.Error(), "releases") {
		t.Errorf("entry without domain or jobId: %v", err)
	}
}

// TestChart_monitoring: the metrics ports are on both Services, labelled
// for the ServiceMonitor; the ServiceMonitor and the example rule render
// only when asked for, and the rule alerts before a link expires. The
// Deployment shows the content version and expiry, never the link.
func TestChart_monitoring(t *testing.T) {
	vals := renewerValues(nil)
	for k, v := range enabledValues(testURL, "v7") {
		vals[k] = v
	}
	objs, err := renderAll(t, vals)
	if err != nil {
		t.Fatal(err)
	}
	if objs["ServiceMonitor/docs-docsadmin-self-hosted"] != nil || objs["PrometheusRule/docs-docsadmin-self-hosted"] != nil {
		t.Fatal("prometheus-operator objects rendered without their flags")
	}
	for _, svc := range []string{"Service/docs-docsadmin-self-hosted", "Service/" + renewerName} {
		if objs[svc] == nil || dig(t, objs[svc], "metadata", "labels").(map[string]interface{})["docsadmin.io/metrics"] != "true" {
			t.Fatalf("%s is missing or not labelled for scraping", svc)
		}
		b, _ := yaml.Marshal(dig(t, objs[svc], "spec", "ports"))
		if !strings.Contains(string(b), "name: metrics") || !strings.Contains(string(b), "port: 9090") {
			t.Errorf("%s ports:\n%s", svc, b)
		}
	}
	ann := dig(t, objs["Deployment/docs-docsadmin-self-hosted"], "metadata", "annotations").(map[string]interface{})
	if ann["docsadmin.io/content-version"] != "v7" || ann["docsadmin.io/link-expires-at"] != "2030-01-01T00:00:00Z" {
		t.Errorf("deployment annotations = %v", ann)
	}
	if b, _ := yaml.Marshal(ann); strings.Contains(string(b), testURLSig) || strings.Contains(string(b), "bundles.example.com") {
		t.Errorf("the link is in the Deployment's annotations: %s", b)
	}

	vals["metrics"] = map[string]interface{}{"serviceMonitor": map[string]interface{}{"enabled": true},
		"prometheusRule": map[string]interface{}{"enabled": true, "expiresWithinSeconds": 900}}
	if objs, err = renderAll(t, vals); err != nil {
		t.Fatal(err)
	}
	sm := objs["ServiceMonitor/docs-docsadmin-self-hosted"]
	if sm == nil || dig(t, sm, "spec", "selector", "matchLabels").(map[string]interface{})["docsadmin.io/metrics"] != "true" {
		t.Fatalf("service monitor = %v", sm)
	}
	rule, _ := yaml.Marshal(objs["PrometheusRule/docs-docsadmin-self-hosted"])
	if !strings.Contains(string(rule), "docsadmin_renewer_link_expiry_timestamp_seconds - time() < 900") ||
		!strings.Contains(string(rule), "docsadmin_renewer_needs_attention == 1") {
		t.Errorf("rule:\n%s", rule)
	}
	if problems := lintProblems(chartPath, vals); len(problems) > 0 {
		t.Errorf("lint:\n%s", strings.Join(problems, "\n"))
	}
}
