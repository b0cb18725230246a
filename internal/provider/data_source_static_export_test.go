package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func TestAccStaticExportDataSource_readsJob(t *testing.T) {
	env := newAccEnv(t)
	const dataAddr = "data.docsadmin_static_export.job"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories,
		Steps: []resource.TestStep{{
			Config: env.config(exportConfig(env.Domain, "a") + `
data "docsadmin_static_export" "job" {
  id = docsadmin_static_export.docs.id
}
`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(dataAddr, tfjsonpath.New("status"), knownvalue.StringExact("completed")),
				statecheck.ExpectKnownValue(dataAddr, tfjsonpath.New("page_count"), knownvalue.Int64Func(positive)),
				statecheck.CompareValuePairs(dataAddr, tfjsonpath.New("created_at"), exportAddr, tfjsonpath.New("created_at"), compare.ValuesSame()),
				statecheck.CompareValuePairs(dataAddr, tfjsonpath.New("page_count"), exportAddr, tfjsonpath.New("page_count"), compare.ValuesSame()),
			},
		}},
	})
}
