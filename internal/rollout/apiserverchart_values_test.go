package rollout

import (
	"strings"
	"testing"
)

// with returns sharedValues with one path set to v (nil deletes it).
func with(path string, v interface{}) map[string]interface{} {
	vals := sharedValues()
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
	noStores := sharedValues()
	delete(noStores, "storage")
	for _, tc := range []struct {
		name string
		vals map[string]interface{}
		want []string
	}{
		{"no replica", with("replicas", 0), []string{"/replicas", "minimum"}},
		{"negative replicas", with("replicas", -1), []string{"/replicas", "minimum"}},
		{"replicas not a number", with("replicas", "two"), []string{"/replicas"}},
		{"two replicas without stores", noStores, []string{"/storage/database", "/storage/objects"}},
		{"two replicas without a database", with("storage.database.url", ""), []string{"/storage/database"}},
		{"two replicas without a bucket", with("storage.objects.url", ""), []string{"/storage/objects"}},
		{"one replica with a database but no bucket", func() map[string]interface{} {
			v := with("storage.objects.url", "")
			v["replicas"] = 1
			return v
		}(), []string{"/storage/objects"}},
		{"one replica with a bucket but no database", func() map[string]interface{} {
			v := with("storage.database.url", "")
			v["replicas"] = 1
			return v
		}(), []string{"/storage/database"}},
		{"bucket without credentials", with("storage.objects.secretAccessKey", ""), []string{"/storage/objects/secretAccessKey"}},
		{"database url and existing Secret", with("storage.database.existingSecret", "pg"), []string{"/storage/database/url", "maxLength"}},
		{"bucket url and existing Secret", with("storage.objects.existingSecret", "minio"), []string{"/storage/objects/url", "maxLength"}},
		{"bucket url not s3", with("storage.objects.url", "https://minio:9000/docs"), []string{"/storage/objects/url"}},
		{"typo in storage", with("storage.databse", map[string]interface{}{"url": testDatabaseURL}), []string{"databse"}},
		{"persistence with two replicas", with("persistence.enabled", true), []string{"/replicas"}},
		{"persistence with a database", func() map[string]interface{} {
			v := with("persistence.enabled", true)
			v["replicas"] = 1
			return v
		}(), []string{"/storage/database/url", "maxLength"}},
		{"no configuration", with("config.values", map[string]interface{}{}), []string{"/config"}},
		{"no organization", with("config.values", map[string]interface{}{"organizations": []interface{}{}}), []string{"/config/values/organizations"}},
		{"bad budget", with("podDisruptionBudget.maxUnavailable", 0), []string{"/podDisruptionBudget/maxUnavailable"}},
		{"bad public url", with("publicURL", "docs.example.com"), []string{"/publicURL"}},
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
