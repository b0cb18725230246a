package rollout

import (
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// sharedWith returns apiServerSharedValues with one path set to v (nil deletes it).
func sharedWith(path string, v interface{}) map[string]interface{} {
	vals := apiServerSharedValues()
	m := vals
	parts := strings.Split(path, ".")
	for _, p := range parts[:len(parts)-1] {
		next, ok := m[p].(map[string]interface{})
		if !ok {
			next = map[string]interface{}{}
			m[p] = next
		}
		m = next
	}
	if v == nil {
		delete(m, parts[len(parts)-1])
	} else {
		m[parts[len(parts)-1]] = v
	}
	return vals
}

// TestAPIServerChart_rejectsBadValues: the schema refuses what could not
// run correctly, before anything reaches the cluster, and the message
// names the value at fault.
func TestAPIServerChart_rejectsBadValues(t *testing.T) {
	noStores := apiServerSharedValues()
	delete(noStores, "storage")
	for _, tc := range []struct {
		name string
		vals map[string]interface{}
		want []string
	}{
		{"no replica", sharedWith("replicas", 0), []string{"/replicas", "minimum"}},
		{"negative replicas", sharedWith("replicas", -1), []string{"/replicas", "minimum"}},
		{"replicas not a number", sharedWith("replicas", "two"), []string{"/replicas"}},
		{"two replicas without stores", noStores, []string{"/storage/database", "/storage/objects"}},
		{"two replicas without a database", sharedWith("storage.database.url", ""), []string{"/storage/database"}},
		{"two replicas without a bucket", sharedWith("storage.objects.url", ""), []string{"/storage/objects"}},
		{"one replica with a database but no bucket", func() map[string]interface{} {
			v := sharedWith("storage.objects.url", "")
			v["replicas"] = 1
			return v
		}(), []string{"/storage/objects"}},
		{"one replica with a bucket but no database", func() map[string]interface{} {
			v := sharedWith("storage.database.url", "")
			v["replicas"] = 1
			return v
		}(), []string{"/storage/database"}},
		{"bucket without credentials", sharedWith("storage.objects.secretAccessKey", ""), []string{"/storage/objects/secretAccessKey"}},
		{"database url and existing Secret", sharedWith("storage.database.existingSecret", "pg"), []string{"/storage/database/url", "maxLength"}},
		{"bucket url and existing Secret", sharedWith("storage.objects.existingSecret", "minio"), []string{"/storage/objects/url", "maxLength"}},
		{"bucket url not s3", sharedWith("storage.objects.url", "https://minio:9000/docs"), []string{"/storage/objects/url"}},
		{"typo in storage", sharedWith("storage.databse", map[string]interface{}{"url": testDatabaseURL}), []string{"databse"}},
		{"persistence with two replicas", sharedWith("persistence.enabled", true), []string{"/replicas"}},
		{"persistence with a database", func() map[string]interface{} {
			v := sharedWith("persistence.enabled", true)
			v["replicas"] = 1
			return v
		}(), []string{"/storage/database/url", "maxLength"}},
		{"no configuration", sharedWith("config.values", map[string]interface{}{}), []string{"/config"}},
		{"no organization", sharedWith("config.values", map[string]interface{}{"organizations": []interface{}{}}), []string{"/config/values/organizations"}},
		{"stores in the config file", sharedWith("config.values", func() map[string]interface{} {
			c := apiServerConfigValues("")
			c["storage"] = map[string]interface{}{"database": testDatabaseURL}
			return c
		}()), []string{"/config/values/storage"}},
		{"bad budget", sharedWith("podDisruptionBudget.maxUnavailable", 0), []string{"/podDisruptionBudget/maxUnavailable"}},
		{"bad public url", sharedWith("publicURL", "docs.example.com"), []string{"/publicURL"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			objs, _, err := renderAPIServer(t, tc.vals)
			if err == nil {
				t.Fatalf("rendered %v; want a schema error", keys(objs))
			}
			// The values given inline are credentials; a refusal never
			// quotes them.
			for _, secret := range []string{"pgPassw0rdSecret", testSecretKey, testAPIKey} {
				if strings.Contains(err.Error(), secret) {
					t.Errorf("the error shows a credential:\n%v", err)
				}
			}
			for _, w := range append([]string{"values don't meet the specifications of the schema"}, tc.want...) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not mention %q:\n%v", w, err)
				}
			}
		})
	}
}

// apiServerPodTemplate is the rendered Deployment's pod template as YAML.
func apiServerPodTemplate(t *testing.T, vals map[string]interface{}) string {
	t.Helper()
	objs, _, err := renderAPIServer(t, vals)
	if err != nil {
		t.Fatal(err)
	}
	b, err := yaml.Marshal(dig(t, objs["Deployment/docs-docsadmin-apiserver"], "spec", "template"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAPIServerChart_configChangeRollsPods: the server reads its config at
// start, so new config values must restart the pods, while an unchanged
// release or a new replica count must not.
func TestAPIServerChart_configChangeRollsPods(t *testing.T) {
	before := apiServerPodTemplate(t, apiServerSharedValues())
	if again := apiServerPodTemplate(t, apiServerSharedValues()); again != before {
		t.Errorf("the same values render another pod template:\n%s\n%s", before, again)
	}
	if scaled := apiServerPodTemplate(t, sharedWith("replicas", 5)); scaled != before {
		t.Errorf("scaling changes the pod template (restarting every pod):\n%s", scaled)
	}
	cfg := apiServerConfigValues("")
	cfg["maxActiveExports"] = 20
	for name, vals := range map[string]map[string]interface{}{
		"config":        sharedWith("config.values", cfg),
		"database url":  sharedWith("storage.database.url", strings.Replace(testDatabaseURL, "db.storage", "db2.storage", 1)),
		"bucket secret": sharedWith("storage.objects.secretAccessKey", "rotatedSecretKey"),
	} {
		if apiServerPodTemplate(t, vals) == before {
			t.Errorf("a new %s leaves the pod template as it was: the pods would keep the old one", name)
		}
	}
}

// TestAPIServerChart_sourcesAndSpread: docs sources mount where the config
// points; replicas spread over nodes without ever blocking scheduling; the
// config file is not world-readable.
func TestAPIServerChart_sourcesAndSpread(t *testing.T) {
	vals := apiServerSharedValues()
	vals["extraVolumes"] = []interface{}{map[string]interface{}{"name": "handbook", "configMap": map[string]interface{}{"name": "handbook-docs"}}}
	vals["extraVolumeMounts"] = []interface{}{map[string]interface{}{"name": "handbook", "mountPath": "/srv/docs/handbook", "readOnly": true}}
	objs, _, err := renderAPIServer(t, vals)
	if err != nil {
		t.Fatal(err)
	}
	dep := objs["Deployment/docs-docsadmin-apiserver"]
	if got := dig(t, podVolumes(t, dep)["handbook"], "configMap", "name"); got != "handbook-docs" {
		t.Errorf("handbook volume = %v", got)
	}
	if m := containerMounts(t, apiServerContainer(t, objs)); m["/srv/docs/handbook"] != "handbook" || m["/tmp"] != "tmp" {
		t.Errorf("mounts = %v, want the source next to the chart's own", m)
	}
	if mode := dig(t, podVolumes(t, dep)["config"], "secret", "defaultMode"); mode != float64(0o440) {
		t.Errorf("config file mode = %v, want 0440", mode)
	}
	spread := dig(t, dep, "spec", "template", "spec", "topologySpreadConstraints").([]interface{})
	if len(spread) != 1 || dig(t, spread[0], "whenUnsatisfiable") != "ScheduleAnyway" {
		t.Errorf("topologySpreadConstraints = %v, want one soft spread over nodes", spread)
	}
	objs, _, err = renderAPIServer(t, apiServerEmbeddedValues(false))
	if err != nil {
		t.Fatal(err)
	}
	if s := dig(t, objs["Deployment/docs-docsadmin-apiserver"], "spec", "template", "spec", "topologySpreadConstraints"); s != nil {
		t.Errorf("one replica has a spread constraint: %v", s)
	}
}
