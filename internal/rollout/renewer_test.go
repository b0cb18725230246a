package rollout

import (
	"encoding/base64"
	"reflect"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/releaseutil"
	rbacv1 "k8s.io/api/rbac/v1"
	"sigs.k8s.io/yaml"
)

const renewerName = "docs-docsadmin-self-hosted-renewer"

// renewerValues enables the renewer for the domain docs.acme.test with the
// API key given as a value; edit changes them before rendering.
func renewerValues(edit func(r map[string]interface{})) map[string]interface{} {
	r := map[string]interface{}{
		"enabled": true, "apiUrl": "https://api.docsadmin.test", "domain": "docs.acme.test",
		"apiKey": map[string]interface{}{"value": "sk-test-key", "secretKey": "apiKey"},
	}
	if edit != nil {
		edit(r)
	}
	return map[string]interface{}{"renewer": r}
}

// renderAll renders the chart and returns its objects by kind/name (a
// release has two Deployments and two Secrets with the renewer).
func renderAll(t *testing.T, vals map[string]interface{}) (map[string]map[string]interface{}, error) {
	t.Helper()
	_, rel, err := renderChart(t, vals)
	if err != nil {
		return nil, err
	}
	objs := map[string]map[string]interface{}{}
	for _, m := range releaseutil.SplitManifests(rel.Manifest) {
		var obj map[string]interface{}
		if err := yaml.Unmarshal([]byte(m), &obj); err != nil {
			t.Fatalf("rendered manifest does not parse: %v\n%s", err, m)
		}
		if obj != nil {
			objs[obj["kind"].(string)+"/"+dig(t, obj, "metadata", "name").(string)] = obj
		}
	}
	return objs, nil
}

// TestChart_renewerRBAC pins the renewer's rights: exactly the rules a Helm
// upgrade of this release needs, in a Role of the release's namespace
// bound to the renewer's own ServiceAccount, and nothing cluster-wide.
func TestChart_renewerRBAC(t *testing.T) {
	objs, err := renderAll(t, renewerValues(nil))
	if err != nil {
		t.Fatal(err)
	}
	for k := range objs {
		if strings.HasPrefix(k, "Cluster") {
			t.Errorf("the renewer renders %s; it must need nothing cluster-wide", k)
		}
	}
	role := objs["Role/"+renewerName]
	if role == nil {
		t.Fatalf("no Role %s; got %v", renewerName, keys(objs))
	}
	var rules []rbacv1.PolicyRule
	b, _ := yaml.Marshal(role["rules"])
	if err := yaml.Unmarshal(b, &rules); err != nil {
		t.Fatal(err)
	}
	want := []rbacv1.PolicyRule{
		{APIGroups: []string{""}, Resources: []string{"secrets"}, Verbs: []string{"get", "list", "create", "update", "patch", "delete"}},
		{APIGroups: []string{"apps"}, Resources: []string{"deployments"}, Verbs: []string{"get", "create", "patch", "delete"}},
		{APIGroups: []string{""}, Resources: []string{"services"}, Verbs: []string{"get", "create", "patch", "delete"}},
		{APIGroups: []string{"apps"}, Resources: []string{"replicasets"}, Verbs: []string{"list"}},
		{APIGroups: []string{""}, Resources: []string{"serviceaccounts"}, Verbs: []string{"get"}},
		{APIGroups: []string{"rbac.authorization.k8s.io"}, Resources: []string{"roles", "rolebindings"}, Verbs: []string{"get"}},
		{APIGroups: []string{""}, Resources: []string{"events"}, Verbs: []string{"create"}},
		{APIGroups: []string{""}, Resources: []string{"configmaps"}, Verbs: []string{"get"}},
	}
	if !reflect.DeepEqual(rules, want) {
		t.Errorf("role rules:\n%s\nwant\n%v", b, want)
	}
	rb := objs["RoleBinding/"+renewerName]
	if rb == nil || dig(t, rb, "roleRef", "kind") != "Role" || dig(t, rb, "roleRef", "name") != renewerName {
		t.Fatalf("role binding = %v", rb)
	}
	subj := dig(t, rb, "subjects").([]interface{})
	if len(subj) != 1 || !reflect.DeepEqual(subj[0], map[string]interface{}{"kind": "ServiceAccount", "name": renewerName, "namespace": "docs"}) {
		t.Errorf("role binding subjects = %v", subj)
	}
	if objs["ServiceAccount/"+renewerName] == nil {
		t.Error("no ServiceAccount for the renewer")
	}
}

// TestChart_renewerDeployment: the renewer runs `rollout --watch
// --in-cluster` for this release as its ServiceAccount, with the API
// endpoint and the key from a Secret in its environment, and its pods are
// never selected by serve-bundle's Deployment or Service.
func TestChart_renewerDeployment(t *testing.T) {
	objs, err := renderAll(t, renewerValues(nil))
	if err != nil {
		t.Fatal(err)
	}
	dep := objs["Deployment/"+renewerName]
	if dep == nil {
		t.Fatalf("no renewer Deployment; got %v", keys(objs))
	}
	spec := dig(t, dep, "spec", "template", "spec").(map[string]interface{})
	if spec["serviceAccountName"] != renewerName || spec["automountServiceAccountToken"] != true {
		t.Errorf("renewer pod identity: serviceAccountName %v, automount %v", spec["serviceAccountName"], spec["automountServiceAccountToken"])
	}
	c := spec["containers"].([]interface{})[0].(map[string]interface{})
	args := strings.Join(toStrings(c["args"]), " ")
	if want := "rollout --watch --in-cluster --release docs --namespace docs --domain docs.acme.test --renew-before 15m --recover-pending --max-retries 10 --drift warn --metrics-addr :9090"; args != want {
		t.Errorf("renewer args = %q\nwant %q", args, want)
	}
	env, _ := yaml.Marshal(c["env"])
	wantEnv := `- name: DOCSADMIN_BASE_URL
  value: https://api.docsadmin.test
- name: DOCSADMIN_API_KEY
  valueFrom:
    secretKeyRef:
      key: apiKey
      name: ` + renewerName + "\n"
	if string(env) != wantEnv {
		t.Errorf("renewer env:\n%s\nwant\n%s", env, wantEnv)
	}
	if strings.Contains(string(mustYAML(t, dep)), "sk-test-key") {
		t.Error("the API key is in the renewer's Deployment")
	}
	sec := objs["Secret/"+renewerName]
	if sec == nil {
		t.Fatal("no Secret for the API key given as a value")
	}
	if got, _ := base64.StdEncoding.DecodeString(dig(t, sec, "data", "apiKey").(string)); string(got) != "sk-test-key" {
		t.Errorf("renewer secret apiKey = %q", got)
	}
	_, rel, err := renderChart(t, renewerValues(nil))
	if err != nil {
		t.Fatal(err)
	}
	if n := rel.Info.Notes; !strings.Contains(n, "The renewer's\nfirst rollout sets staticExport.enabled") ||
		!strings.Contains(n, "logs deploy/"+renewerName) || !strings.Contains(n, "domain docs.acme.test") {
		t.Errorf("notes do not explain the renewer:\n%s", n)
	}
	if dig(t, dep, "spec", "strategy", "type") != "Recreate" || dig(t, dep, "spec", "replicas") != float64(1) {
		t.Error("two renewers could run at once")
	}

	// With staticExport on, serve-bundle's selectors must not match the
	// renewer's pods.
	vals := renewerValues(nil)
	vals[ValuesKey] = enabledValues(testURL, "")[ValuesKey]
	objs, err = renderAll(t, vals)
	if err != nil {
		t.Fatal(err)
	}
	podLabels := dig(t, objs["Deployment/"+renewerName], "spec", "template", "metadata", "labels").(map[string]interface{})
	for _, sel := range []interface{}{
		dig(t, objs["Service/docs-docsadmin-self-hosted"], "spec", "selector"),
		dig(t, objs["Deployment/docs-docsadmin-self-hosted"], "spec", "selector", "matchLabels"),
	} {
		matches := true
		for k, v := range sel.(map[string]interface{}) {
			if podLabels[k] != v {
				matches = false
			}
		}
		if matches {
			t.Errorf("selector %v matches the renewer's pods %v", sel, podLabels)
		}
	}
}

// TestChart_renewerVariants: a job instead of a domain, an existing Secret
// for the key, re-exports and no pending take-over.
func TestChart_renewerVariants(t *testing.T) {
	objs, err := renderAll(t, renewerValues(func(r map[string]interface{}) {
		r["domain"], r["jobId"], r["renewBefore"], r["recoverPending"] = "", "se_42", "1h", false
		r["apiKey"] = map[string]interface{}{"existingSecret": "docsadmin-api", "secretKey": "token"}
	}))
	if err != nil {
		t.Fatal(err)
	}
	if objs["Secret/"+renewerName] != nil {
		t.Error("a Secret was created although an existing one was named")
	}
	c := dig(t, objs["Deployment/"+renewerName], "spec", "template", "spec", "containers").([]interface{})[0].(map[string]interface{})
	if args := strings.Join(toStrings(c["args"]), " "); args != "rollout --watch --in-cluster --release docs --namespace docs --job-id se_42 --renew-before 1h --max-retries 10 --drift warn --metrics-addr :9090" {
		t.Errorf("args = %q", args)
	}
	ref := dig(t, c["env"].([]interface{})[1], "valueFrom", "secretKeyRef")
	if !reflect.DeepEqual(ref, map[string]interface{}{"name": "docsadmin-api", "key": "token"}) {
		t.Errorf("key from %v, want docsadmin-api/token", ref)
	}

	objs, err = renderAll(t, renewerValues(func(r map[string]interface{}) { r["reexportEvery"] = "24h" }))
	if err != nil {
		t.Fatal(err)
	}
	c = dig(t, objs["Deployment/"+renewerName], "spec", "template", "spec", "containers").([]interface{})[0].(map[string]interface{})
	if args := strings.Join(toStrings(c["args"]), " "); !strings.Contains(args, "--domain docs.acme.test --renew-before 15m --reexport-every 24h") {
		t.Errorf("args = %q", args)
	}
}

func TestChart_renewerDisabledRendersNone(t *testing.T) {
	objs, err := renderAll(t, enabledValues(testURL, ""))
	if err != nil {
		t.Fatal(err)
	}
	for k := range objs {
		if strings.Contains(k, "renewer") {
			t.Errorf("renewer disabled, yet %s rendered", k)
		}
	}
}

// TestChart_renewerBadValues: each mistake is refused with a message that
// names the value at fault.
func TestChart_renewerBadValues(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		edit       func(r map[string]interface{})
	}{
		{"domain and job", "/renewer/jobId", func(r map[string]interface{}) { r["jobId"] = "se_1" }},
		{"neither domain nor job", "/renewer/domain", func(r map[string]interface{}) { r["domain"] = "" }},
		{"no api url", "apiUrl", func(r map[string]interface{}) { delete(r, "apiUrl") }},
		{"api url not http", "apiUrl", func(r map[string]interface{}) { r["apiUrl"] = "api.docsadmin.test" }},
		{"no api key", "apiKey", func(r map[string]interface{}) {
			r["apiKey"] = map[string]interface{}{"secretKey": "apiKey"}
		}},
		{"bad duration", "renewBefore", func(r map[string]interface{}) { r["renewBefore"] = "15 minutes" }},
		{"unknown value", "domian", func(r map[string]interface{}) { r["domian"] = "x" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := renderAll(t, renewerValues(tc.edit))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one naming %s", err, tc.want)
			}
		})
	}
}

func mustYAML(t *testing.T, v interface{}) []byte {
	t.Helper()
	b, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
