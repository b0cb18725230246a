package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestAccStaticExportRolloutList_generatesConfig: terraform query finds the
// release that carries staticExport values and writes a resource and an
// import block by identity for it, without its link.
func TestAccStaticExportRolloutList_generatesConfig(t *testing.T) {
	c := requireCLI(t, featureQuery)
	e := newParallelRolloutEnv(t)
	e.installRelease(t)
	dir := writeConfig(t, e.config(""))
	query := fmt.Sprintf(`
list "docsadmin_static_export_rollout" "docs" {
  provider         = docsadmin
  include_resource = true
  config {
    namespace       = %q
    kubeconfig_path = %q
  }
}
`, e.ns, e.cluster.Kubeconfig)
	if err := os.WriteFile(filepath.Join(dir, "releases.tfquery.hcl"), []byte(query), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := e.runCLI(t, c, dir, "init", "-input=false", "-no-color"); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	out, err := e.runCLI(t, c, dir, "query", "-no-color", "-generate-config-out=generated.tf")
	if err != nil {
		t.Fatalf("query: %v\n%s", err, out)
	}
	mustMatch(t, out, regexp.QuoteMeta(e.ns+"/"+rolloutRelease)+` \(docsadmin-self-hosted-\S+, revision 1, content version "placeholder"\)`)
	raw, err := os.ReadFile(filepath.Join(dir, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	gen := string(raw)
	mustMatch(t, gen,
		`resource "docsadmin_static_export_rollout" "\S+" \{`,
		`namespace\s*=\s*"`+e.ns+`"`,
		`release\s*=\s*"`+rolloutRelease+`"`,
		`version\s*=\s*"placeholder"`,
		`(?s)import \{.*identity\s*=\s*\{.*namespace\s*=\s*"`+e.ns+`".*release\s*=\s*"`+rolloutRelease+`"`)
	if strings.Contains(gen, "bundles.example.com") || strings.Contains(out, "bundles.example.com") {
		t.Fatalf("the release's link reached the query output:\n%s\n%s", out, gen)
	}
}

// A namespace that holds no such release lists nothing, and a bad
// kubeconfig is an error on kubeconfig_path.
func TestAccStaticExportRolloutList_emptyAndBadCluster(t *testing.T) {
	c := requireCLI(t, featureQuery)
	e := newParallelRolloutEnv(t)
	run := func(config string) (string, error) {
		dir := writeConfig(t, e.config(""))
		q := `list "docsadmin_static_export_rollout" "docs" {
  provider = docsadmin
  config {
` + config + `
  }
}
`
		if err := os.WriteFile(filepath.Join(dir, "q.tfquery.hcl"), []byte(q), 0o600); err != nil {
			t.Fatal(err)
		}
		if out, err := e.runCLI(t, c, dir, "init", "-input=false", "-no-color"); err != nil {
			t.Fatalf("init: %v\n%s", err, out)
		}
		return e.runCLI(t, c, dir, "query", "-no-color")
	}
	out, err := run(fmt.Sprintf("namespace = %q\nkubeconfig_path = %q", e.ns, e.cluster.Kubeconfig))
	if err != nil || strings.Contains(out, rolloutRelease+" (") {
		t.Fatalf("query of an empty namespace: %v\n%s", err, out)
	}
	out, err = run(fmt.Sprintf("namespace = %q\nkubeconfig_path = %q", e.ns, filepath.Join(t.TempDir(), "absent")))
	if err == nil {
		t.Fatalf("query with a missing kubeconfig succeeded:\n%s", out)
	}
	mustMatch(t, out, `(?s)Unable to List Helm Releases`)
}
