package rollout

import (
	"encoding/base64"
	"path/filepath"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/releaseutil"
	"sigs.k8s.io/yaml"
)

// apiServerChart runs the reference admin API server; its tests live here,
// the one package allowed to import Helm.
const apiServerChart = "../../examples/apiserver-chart"

// Credentials the tests give inline; none may appear outside a Secret.
const (
	testDatabaseURL = "postgres://docs:pgPassw0rdSecret@db.storage:5432/docs?sslmode=disable"
	testObjectStore = "s3://docs?endpoint=http://minio.storage:9000&region=us-east-1&path-style=true"
	testAccessKey   = "AKIATESTACCESSKEY"
	testSecretKey   = "s3SecretKeyTopSecret" //nolint:gosec // G101: a made-up credential the tests look for where it must not be
	testAPIKey      = "dak_0123456789abcdefABCDEF"
)

// apiServerSharedValues is two replicas over the shared stores with every credential
// given inline, so that the chart creates the Secrets.
func apiServerSharedValues() map[string]interface{} {
	return map[string]interface{}{
		"storage": map[string]interface{}{
			"database": map[string]interface{}{"url": testDatabaseURL},
			"objects": map[string]interface{}{
				"url": testObjectStore, "accessKeyId": testAccessKey, "secretAccessKey": testSecretKey,
			},
		},
		"config": map[string]interface{}{"values": apiServerConfigValues("")},
	}
}

// apiServerConfigValues is a server configuration as a user writes it under
// config.values; with source set, its one project has a deployment there.
func apiServerConfigValues(source string) map[string]interface{} {
	project := map[string]interface{}{"id": "handbook", "repository": "https://git.example.com/acme/handbook", "branch": "main"}
	if source != "" {
		project["deployments"] = []interface{}{map[string]interface{}{
			"domain": "docs.acme.example", "source": source, "kind": "air-gapped",
		}}
	}
	return map[string]interface{}{"organizations": []interface{}{map[string]interface{}{
		"id": "acme", "plan": "enterprise", "apiKeys": []interface{}{testAPIKey},
		"projects": []interface{}{project},
	}}}
}

// apiServerEmbeddedValues is one replica on the embedded store.
func apiServerEmbeddedValues(persist bool) map[string]interface{} {
	return map[string]interface{}{
		"replicas":    1,
		"persistence": map[string]interface{}{"enabled": persist},
		"config":      map[string]interface{}{"values": apiServerConfigValues("")},
	}
}

// renderAPIServer installs the chart client-side only and returns its
// objects by "Kind/name".
func renderAPIServer(t *testing.T, vals map[string]interface{}) (map[string]map[string]interface{}, *release.Release, error) {
	t.Helper()
	ch, err := loader.Load(apiServerChart)
	if err != nil {
		t.Fatal(err)
	}
	in := action.NewInstall(&action.Configuration{})
	in.ReleaseName, in.Namespace = "docs", "docs"
	in.DryRun, in.ClientOnly = true, true
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
		if obj != nil {
			objs[obj["kind"].(string)+"/"+dig(t, obj, "metadata", "name").(string)] = obj
		}
	}
	return objs, rel, nil
}

// apiServerContainer is the one container of the rendered Deployment.
func apiServerContainer(t *testing.T, objs map[string]map[string]interface{}) map[string]interface{} {
	t.Helper()
	dep := objs["Deployment/docs-docsadmin-apiserver"]
	if dep == nil {
		t.Fatalf("no Deployment docs-docsadmin-apiserver; got %v", keys(objs))
	}
	cs := dig(t, dep, "spec", "template", "spec", "containers").([]interface{})
	if len(cs) != 1 {
		t.Fatalf("%d containers, want 1", len(cs))
	}
	return cs[0].(map[string]interface{})
}

func TestAPIServerChart_lints(t *testing.T) {
	for _, tc := range []struct {
		name  string
		vals  map[string]interface{}
		clean bool
	}{
		{"shared stores", apiServerSharedValues(), true},
		{"embedded with persistence", apiServerEmbeddedValues(true), true},
		{"embedded in an emptyDir", apiServerEmbeddedValues(false), true},
		// The example values files a person lints with.
		{"ci/shared-values.yaml", apiServerCIValues(t, "shared-values.yaml"), true},
		{"ci/embedded-values.yaml", apiServerCIValues(t, "embedded-values.yaml"), true},
		// Two replicas need stores the chart cannot invent: the defaults
		// are refused, which also proves the lint run sees the schema.
		{"defaults", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			problems := lintProblems(apiServerChart, tc.vals)
			if tc.clean && len(problems) > 0 {
				t.Errorf("lint problems:\n%s", strings.Join(problems, "\n"))
			}
			if !tc.clean && len(problems) == 0 {
				t.Error("lint found no problem; want a schema error")
			}
		})
	}
}

// apiServerCIValues reads one of the chart's example values files.
func apiServerCIValues(t *testing.T, name string) map[string]interface{} {
	t.Helper()
	vals, err := chartutil.ReadValuesFile(filepath.Join(apiServerChart, "ci", name))
	if err != nil {
		t.Fatal(err)
	}
	return vals
}

// TestAPIServerChart_sharedStoresFromSecrets: with the stores given inline,
// the chart keeps each credential in a Secret of its own and the pod gets
// them by reference only; two replicas roll one at a time behind a budget.
func TestAPIServerChart_sharedStoresFromSecrets(t *testing.T) {
	objs, rel, err := renderAPIServer(t, apiServerSharedValues())
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]map[string]string{
		"Secret/docs-docsadmin-apiserver-database": {"databaseUrl": testDatabaseURL},
		"Secret/docs-docsadmin-apiserver-objects": {
			"objectStore": testObjectStore, "accessKeyId": testAccessKey, "secretAccessKey": testSecretKey,
		},
	} {
		if objs[name] == nil {
			t.Fatalf("no %s; got %v", name, keys(objs))
		}
		data := dig(t, objs[name], "data").(map[string]interface{})
		for k, v := range want {
			got, err := base64.StdEncoding.DecodeString(data[k].(string))
			if err != nil || string(got) != v {
				t.Errorf("%s[%s] = %q (%v), want %q", name, k, got, err, v)
			}
		}
	}
	cfg := dig(t, objs["Secret/docs-docsadmin-apiserver-config"], "data", "config.yaml").(string)
	if b, _ := base64.StdEncoding.DecodeString(cfg); !strings.Contains(string(b), testAPIKey) {
		t.Errorf("config Secret does not hold the configuration:\n%s", b)
	}

	// No credential anywhere but in the Secrets: not in the pod template,
	// the Service, the budget or the notes.
	for name, obj := range objs {
		if strings.HasPrefix(name, "Secret/") {
			continue
		}
		text, err := yaml.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{"pgPassw0rdSecret", testObjectStore, testAccessKey, testSecretKey, testAPIKey} {
			if strings.Contains(string(text), secret) {
				t.Errorf("%s contains %q:\n%s", name, secret, text)
			}
		}
	}
	if strings.Contains(rel.Info.Notes, "pgPassw0rdSecret") || strings.Contains(rel.Info.Notes, testSecretKey) {
		t.Errorf("notes show a credential:\n%s", rel.Info.Notes)
	}

	c := apiServerContainer(t, objs)
	wantEnv := map[string][2]string{
		"DOCSADMIN_DATABASE_URL": {"docs-docsadmin-apiserver-database", "databaseUrl"},
		"DOCSADMIN_OBJECT_STORE": {"docs-docsadmin-apiserver-objects", "objectStore"},
		"AWS_ACCESS_KEY_ID":      {"docs-docsadmin-apiserver-objects", "accessKeyId"},
		"AWS_SECRET_ACCESS_KEY":  {"docs-docsadmin-apiserver-objects", "secretAccessKey"},
	}
	assertEnvFromSecrets(t, c, wantEnv)

	args := strings.Join(toStrings(c["args"]), " ")
	if want := "apiserver --addr :8080 --config /etc/docsadmin/config.yaml --data-dir /var/lib/docsadmin/data --public-url http://docs-docsadmin-apiserver.docs.svc:8080"; args != want {
		t.Errorf("args = %q\nwant    %q", args, want)
	}
	for probe, want := range map[string]string{"readinessProbe": "/readyz", "livenessProbe": "/healthz"} {
		if p := dig(t, c, probe, "httpGet", "path"); p != want {
			t.Errorf("%s path = %v, want %s", probe, p, want)
		}
	}
	if sc := dig(t, c, "securityContext").(map[string]interface{}); sc["readOnlyRootFilesystem"] != true || sc["allowPrivilegeEscalation"] != false {
		t.Errorf("container securityContext = %v", sc)
	}
	dep := objs["Deployment/docs-docsadmin-apiserver"]
	if dig(t, dep, "spec", "template", "spec", "securityContext", "runAsNonRoot") != true {
		t.Error("pod may run as root")
	}
	if got := dig(t, dep, "spec", "replicas"); got != float64(2) {
		t.Errorf("replicas = %v, want the default 2", got)
	}
	if got := dig(t, dep, "spec", "strategy", "rollingUpdate", "maxUnavailable"); got != float64(0) {
		t.Errorf("rolling update maxUnavailable = %v, want 0", got)
	}
	if got := dig(t, c, "resources", "limits", "memory"); got != "512Mi" {
		t.Errorf("memory limit = %v", got)
	}
	if mounts := containerMounts(t, c); mounts["/tmp"] != "tmp" || mounts["/var/lib/docsadmin"] != "data" || mounts["/etc/docsadmin"] != "config" {
		t.Errorf("volume mounts = %v", mounts)
	}
	pdb := objs["PodDisruptionBudget/docs-docsadmin-apiserver"]
	if pdb == nil || dig(t, pdb, "spec", "maxUnavailable") != float64(1) {
		t.Errorf("PodDisruptionBudget = %v, want maxUnavailable 1", pdb)
	}
	if objs["Service/docs-docsadmin-apiserver"] == nil {
		t.Errorf("no Service; got %v", keys(objs))
	}
}

// TestAPIServerChart_existingSecrets: Secrets named by the user are
// referenced as they are and the chart creates none of its own.
func TestAPIServerChart_existingSecrets(t *testing.T) {
	objs, _, err := renderAPIServer(t, map[string]interface{}{
		"replicas": 3,
		"storage": map[string]interface{}{
			"database": map[string]interface{}{"existingSecret": "pg", "secretKey": "uri"},
			"objects": map[string]interface{}{
				"existingSecret": "minio", "urlKey": "url", "accessKeyIdKey": "user", "secretAccessKeyKey": "password",
			},
		},
		"config": map[string]interface{}{"existingSecret": "docsadmin-config", "secretKey": "server.yaml"},
	})
	if err != nil {
		t.Fatal(err)
	}
	for name := range objs {
		if strings.HasPrefix(name, "Secret/") {
			t.Errorf("rendered %s though every Secret exists", name)
		}
	}
	c := apiServerContainer(t, objs)
	assertEnvFromSecrets(t, c, map[string][2]string{
		"DOCSADMIN_DATABASE_URL": {"pg", "uri"},
		"DOCSADMIN_OBJECT_STORE": {"minio", "url"},
		"AWS_ACCESS_KEY_ID":      {"minio", "user"},
		"AWS_SECRET_ACCESS_KEY":  {"minio", "password"},
	})
	if args := strings.Join(toStrings(c["args"]), " "); !strings.Contains(args, "--config /etc/docsadmin/server.yaml") {
		t.Errorf("args = %q, want the config file under its key", args)
	}
	vol := podVolumes(t, objs["Deployment/docs-docsadmin-apiserver"])["config"]
	if dig(t, vol, "secret", "secretName") != "docsadmin-config" {
		t.Errorf("config volume = %v, want Secret docsadmin-config", vol)
	}
	if dig(t, objs["Deployment/docs-docsadmin-apiserver"], "spec", "replicas") != float64(3) {
		t.Error("replicas not 3")
	}
}

// TestAPIServerChart_singleReplicaEmbedded: one replica keeps the embedded
// store on a PVC, replaced (never doubled) on upgrade, with no budget that
// would block node drains, and no store variables at all.
func TestAPIServerChart_singleReplicaEmbedded(t *testing.T) {
	objs, rel, err := renderAPIServer(t, apiServerEmbeddedValues(true))
	if err != nil {
		t.Fatal(err)
	}
	if objs["PersistentVolumeClaim/docs-docsadmin-apiserver-data"] == nil {
		t.Fatalf("no PVC; got %v", keys(objs))
	}
	if objs["PodDisruptionBudget/docs-docsadmin-apiserver"] != nil {
		t.Error("a PodDisruptionBudget for one replica")
	}
	dep := objs["Deployment/docs-docsadmin-apiserver"]
	if got := dig(t, dep, "spec", "strategy", "type"); got != "Recreate" {
		t.Errorf("strategy = %v, want Recreate", got)
	}
	if claim := dig(t, podVolumes(t, dep)["data"], "persistentVolumeClaim", "claimName"); claim != "docs-docsadmin-apiserver-data" {
		t.Errorf("data volume claim = %v", claim)
	}
	if env := apiServerContainer(t, objs)["env"]; env != nil {
		t.Errorf("env = %v, want none on the embedded store", env)
	}
	// A PersistentVolume keeps the data at its root, as before; only the
	// emptyDir (0777, root's) gets a directory of the server's own.
	if args := strings.Join(toStrings(apiServerContainer(t, objs)["args"]), " "); !strings.Contains(args, "--data-dir /var/lib/docsadmin ") {
		t.Errorf("args with persistence = %q", args)
	}
	if !strings.Contains(rel.Info.Notes, "PersistentVolumeClaim docs-docsadmin-apiserver-data") {
		t.Errorf("notes do not name the PVC:\n%s", rel.Info.Notes)
	}

	objs, rel, err = renderAPIServer(t, apiServerEmbeddedValues(false))
	if err != nil {
		t.Fatal(err)
	}
	if dig(t, podVolumes(t, objs["Deployment/docs-docsadmin-apiserver"])["data"], "emptyDir") == nil {
		t.Error("without persistence the data dir is not an emptyDir")
	}
	if !strings.Contains(rel.Info.Notes, "LOST") {
		t.Errorf("notes do not warn that jobs die with the pod:\n%s", rel.Info.Notes)
	}
}

func assertEnvFromSecrets(t *testing.T, c map[string]interface{}, want map[string][2]string) {
	t.Helper()
	got := map[string][2]string{}
	for _, e := range c["env"].([]interface{}) {
		e := e.(map[string]interface{})
		if _, literal := e["value"]; literal {
			t.Errorf("env %v has a literal value", e["name"])
		}
		ref := dig(t, e, "valueFrom", "secretKeyRef").(map[string]interface{})
		got[e["name"].(string)] = [2]string{ref["name"].(string), ref["key"].(string)}
	}
	if len(got) != len(want) {
		t.Errorf("env = %v, want %v", got, want)
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("env %s from Secret %v, want %v", name, got[name], w)
		}
	}
}

func containerMounts(t *testing.T, c map[string]interface{}) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, m := range c["volumeMounts"].([]interface{}) {
		m := m.(map[string]interface{})
		out[m["mountPath"].(string)] = m["name"].(string)
	}
	return out
}

func podVolumes(t *testing.T, dep map[string]interface{}) map[string]map[string]interface{} {
	t.Helper()
	out := map[string]map[string]interface{}{}
	for _, v := range dig(t, dep, "spec", "template", "spec", "volumes").([]interface{}) {
		v := v.(map[string]interface{})
		out[v["name"].(string)] = v
	}
	return out
}
