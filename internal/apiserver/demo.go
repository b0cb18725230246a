package apiserver

import (
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiconfig"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/demosite"
)

// Demo names, used by `make demo` and the README.
const (
	DemoOrganization = "demo"
	DemoProject      = "demo"
	DemoDomain       = "docs.demo.test"
)

// DemoConfig is the embedded demo: one enterprise organization whose one
// project has a scripted agent and an air-gapped deployment serving the
// sample docs site built into the binary.
func DemoConfig(key string) *apiconfig.Config {
	return &apiconfig.Config{
		Organizations: []apiconfig.Organization{{
			ID: DemoOrganization, Plan: apiconfig.PlanEnterprise, APIKeys: []string{key},
			Projects: []apiconfig.Project{{
				ID: DemoProject, Repository: "https://git.example.com/demo/docs", Branch: "main",
				Agent: apiconfig.AgentScript{Outcome: apiconfig.OutcomePullRequest, Duration: apiconfig.Duration(5 * time.Second), Model: "reference"},
				Deployments: []apiconfig.Deployment{{
					Domain: DemoDomain, Source: "embedded:demosite", Kind: "air-gapped", SourceFS: demosite.FS(),
				}},
			}},
		}},
	}
}
