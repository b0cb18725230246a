package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

func TestAddExportWarnings(t *testing.T) {
	var none diag.Diagnostics
	addExportWarnings(&none, api.ExportJob{JobID: "se_1"})
	addExportWarnings(&none, api.ExportJob{JobID: "se_1", Warnings: &api.ExportWarnings{}})
	if len(none) != 0 {
		t.Fatalf("no warnings gave diagnostics: %v", none)
	}
	w := &api.ExportWarnings{}
	for i := range api.MaxExportWarnings + 3 {
		w.Add("content", fmt.Sprintf("warning number %d", i))
	}
	var diags diag.Diagnostics
	addExportWarnings(&diags, api.ExportJob{JobID: "se_2", Warnings: w})
	if len(diags) != 1 || diags.HasError() {
		t.Fatalf("want one warning, got %v", diags)
	}
	d := diags[0]
	for _, want := range []string{"se_2", "23 warning(s)", "- warning number 0", "- warning number 19", "3 more"} {
		if !strings.Contains(d.Detail(), want) {
			t.Errorf("detail lacks %q:\n%s", want, d.Detail())
		}
	}
	if strings.Contains(d.Detail(), "warning number 20") || d.Summary() != "Static Export Finished With Warnings" {
		t.Errorf("unexpected diagnostic %q: %s", d.Summary(), d.Detail())
	}
}

// A docs source whose docs.json has settings the export does not support:
// the data source reports the count and the messages.
func TestAccStaticExportDataSource_warnings(t *testing.T) {
	t.Parallel()
	src := t.TempDir()
	files := map[string]string{
		"docs.json": `{"name": "Warn", "unsupportedOne": true, "unsupportedTwo": {}}`,
		"index.mdx": "# Home\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(src, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := newAccEnv(t, apiservertest.WithDeployment("warn.acme.test", src))
	const dataAddr = "data.docsadmin_static_export.job"
	mentions := func(key string) knownvalue.Check {
		return knownvalue.StringFunc(func(v string) error {
			if !strings.Contains(v, key) {
				return fmt.Errorf("warning %q does not name %s", v, key)
			}
			return nil
		})
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories,
		Steps: []resource.TestStep{{
			Config: env.config(exportConfig("warn.acme.test", "a") + `
data "docsadmin_static_export" "job" {
  id = docsadmin_static_export.docs.id
}
`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(dataAddr, tfjsonpath.New("warning_count"), knownvalue.Int64Exact(2)),
				statecheck.ExpectKnownValue(dataAddr, tfjsonpath.New("warnings"),
					knownvalue.ListExact([]knownvalue.Check{mentions("unsupportedOne"), mentions("unsupportedTwo")})),
			},
		}},
	})
}
