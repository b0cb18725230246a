package rollout

import (
	"encoding/base64"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/lint/support"
	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/releaseutil"
	"sigs.k8s.io/yaml"
)

// chartPath is the reference chart in examples/. Its tests live here because
// this is the one package allowed to import Helm.
const chartPath = "../../examples/self-hosted-chart"

// testKubeVersion satisfies the chart's kubeVersion constraint; Helm's
// defaults (v1.20) would not.
var testKubeVersion = &chartutil.KubeVersion{Version: "v1.34.4", Major: "1", Minor: "34"}

const (
	// A presigned-style link: the signature in the query is the secret part.
	testURL    = "https://bundles.example.com/se_1/bundle.tar.gz?X-Amz-Expires=3600&X-Amz-Signature=topsecret123"
	testURLSig = "topsecret123"
)

func TestChart_lints(t *testing.T) {
	for _, tc := range []struct {
		name  string
		vals  map[string]interface{}
		clean bool
	}{
		{"defaults", nil, true},
		{"enabled", enabledValues(testURL, "v1"), true},
		{"renewer", renewerValues(nil), true},
		{"fleet renewer", fleetValues(), true},
		// Proves the lint run sees the values and the schema at all.
		{"enabled without link", enabledValues("", "v1"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			problems := lintProblems(chartPath, tc.vals)
			if tc.clean && len(problems) > 0 {
				t.Errorf("lint problems:\n%s", strings.Join(problems, "\n"))
			}
			if !tc.clean && len(problems) == 0 {
				t.Error("lint found no problem; want a schema error")
			}
		})
	}
}

// renderChart installs the chart client-side only and returns its objects.
func renderChart(t *testing.T, vals map[string]interface{}) (map[string]map[string]interface{}, *release.Release, error) {
	t.Helper()
	ch, err := loader.Load(chartPath)
	if err != nil {
		t.Fatal(err)
	}
	in := action.NewInstall(&action.Configuration{})
	in.ReleaseName = "docs"
	in.Namespace = "docs"
	in.DryRun = true
	in.ClientOnly = true
	in.KubeVersion = testKubeVersion
	rel, err := in.Run(ch, vals)
	if err != nil {
		return nil, nil, err
	}
	objs := map[string]map[string]interface{}{}
	for _, m := range releaseutil.SplitManifests(rel.Manifest) {
		var obj map[string]interface{}
		if err := yaml.Unmarshal([]byte(m), &obj); err != nil {
			t.Fatalf("rendered manifest does not parse: %v\n%s", err, m)
		}
		if obj == nil {
			continue
		}
		objs[obj["kind"].(string)] = obj
	}
	return objs, rel, nil
}

func enabledValues(url, version string) map[string]interface{} {
	return map[string]interface{}{ValuesKey: map[string]interface{}{
		KeyEnabled: true, KeyBundleURL: url, KeyVersion: version, KeyExpiresAt: "2030-01-01T00:00:00Z",
	}}
}

func TestChart_bundleOnlyInSecret(t *testing.T) {
	objs, _, err := renderChart(t, enabledValues(testURL, "2024-06-01"))
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"Secret", "Deployment", "Service"} {
		if objs[kind] == nil {
			t.Fatalf("no %s rendered; got %v", kind, keys(objs))
		}
	}

	data := dig(t, objs["Secret"], "data").(map[string]interface{})
	got, err := base64.StdEncoding.DecodeString(data["bundleUrl"].(string))
	if err != nil || string(got) != testURL {
		t.Errorf("secret bundleUrl = %q (%v), want the link", got, err)
	}

	dep := objs["Deployment"]
	tmpl, err := yaml.Marshal(dig(t, dep, "spec", "template"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(tmpl), "bundles.example.com") || strings.Contains(string(tmpl), testURLSig) {
		t.Errorf("the pod template contains the link:\n%s", tmpl)
	}
	if strings.Contains(string(tmpl), "2024-06-01") {
		t.Errorf("the pod template carries the content version; new content would restart the pods:\n%s", tmpl)
	}

	c := dig(t, dep, "spec", "template", "spec", "containers").([]interface{})[0].(map[string]interface{})
	args := strings.Join(toStrings(c["args"]), " ")
	if args != "serve-bundle --bundle-url-file /secret/bundleUrl --pin-version-file /secret/version --addr :8080 --data-dir /var/lib/docsadmin/sites --metrics-addr :9090" {
		t.Errorf("container args = %q", args)
	}
	// serve-bundle keeps the old site serving when a new bundle is bad, so
	// neither probe may ask /healthz, which turns red then.
	for probe, want := range map[string]string{"readinessProbe": "/readyz", "livenessProbe": "/livez"} {
		if p := dig(t, c, probe, "httpGet", "path"); p != want {
			t.Errorf("%s path = %v, want %s", probe, p, want)
		}
	}
	mount := dig(t, c, "volumeMounts").([]interface{})[0].(map[string]interface{})
	if mount["mountPath"] != "/secret" || mount["subPath"] != nil {
		t.Errorf("bundle url mount = %v, want /secret without subPath (subPath files never refresh)", mount)
	}
}

// Neither a renewed link nor new content may change the pod template, or
// the pods would restart: serve-bundle picks both up from the Secret.
func TestChart_newLinkOrContentKeepsPodTemplate(t *testing.T) {
	template := func(url, version string) string {
		objs, _, err := renderChart(t, enabledValues(url, version))
		if err != nil {
			t.Fatal(err)
		}
		b, err := yaml.Marshal(dig(t, objs["Deployment"], "spec", "template"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	first := template(testURL, "v1")
	if renewed := template("https://bundles.example.com/se_1/bundle.tar.gz?X-Amz-Signature=other", "v1"); renewed != first {
		t.Errorf("a renewed link changed the pod template:\n%s\nvs\n%s", first, renewed)
	}
	if next := template("https://bundles.example.com/se_2/bundle.tar.gz?X-Amz-Signature=next", "v2"); next != first {
		t.Errorf("new content changed the pod template:\n%s\nvs\n%s", first, next)
	}
	if unpinned := template(testURL, ""); unpinned != first {
		t.Errorf("dropping the pin changed the pod template:\n%s\nvs\n%s", first, unpinned)
	}
}

func TestChart_rejectsEnabledWithoutLink(t *testing.T) {
	if _, _, err := renderChart(t, enabledValues("", "v1")); err == nil {
		t.Error("rendered; want a schema error")
	}
}

// TestChart_versionPins: staticExport.version is optional; when set it goes
// into the Secret next to the link, where serve-bundle's --pin-version-file
// reads it; when unset the Secret has no version key and nothing is pinned.
func TestChart_versionPins(t *testing.T) {
	for _, version := range []string{"", "2024-06-01"} {
		objs, _, err := renderChart(t, enabledValues(testURL, version))
		if err != nil {
			t.Fatalf("version %q: %v", version, err)
		}
		data := dig(t, objs["Secret"], "data").(map[string]interface{})
		enc, ok := data["version"].(string)
		got, _ := base64.StdEncoding.DecodeString(enc)
		if ok != (version != "") || string(got) != version {
			t.Errorf("version %q: secret version = %q (present %v)", version, got, ok)
		}
		args, err := yaml.Marshal(dig(t, objs["Deployment"], "spec", "template", "spec", "containers"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(args), "- --pin-version-file\n  - /secret/version\n") {
			t.Errorf("version %q: serve-bundle is not given the pin file:\n%s", version, args)
		}
	}
}

func TestChart_disabledDeploysNothing(t *testing.T) {
	objs, rel, err := renderChart(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 0 {
		t.Errorf("rendered %v with staticExport disabled, want nothing", keys(objs))
	}
	if !strings.Contains(rel.Info.Notes, "staticExport.enabled is false") {
		t.Errorf("notes do not explain the empty release: %q", rel.Info.Notes)
	}
}

func dig(t *testing.T, obj interface{}, path ...string) interface{} {
	t.Helper()
	cur := obj
	for _, p := range path {
		m, ok := cur.(map[string]interface{})
		if !ok {
			t.Fatalf("%v: %q is not below a map", path, p)
		}
		cur = m[p]
	}
	return cur
}

func toStrings(v interface{}) []string {
	var out []string
	for _, e := range v.([]interface{}) {
		out = append(out, e.(string))
	}
	return out
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// lintProblems runs `helm lint --strict` on the chart at path with vals
// and returns its warnings and errors; INFO messages (such as "icon is
// recommended") are advice and left out.
func lintProblems(path string, vals map[string]any) []string {
	l := action.NewLint()
	l.Strict = true
	l.KubeVersion = testKubeVersion
	var problems []string
	for _, m := range l.Run([]string{path}, vals).Messages {
		if m.Severity >= support.WarningSev {
			problems = append(problems, m.Error())
		}
	}
	return problems
}
