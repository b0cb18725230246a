package provider

import (
	"context"
	"fmt"
	"net"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"
)

// accEnv is a reference server plus a provider that shares its clock, so
// a test step can move both into a bundle link's renewal window.
type accEnv struct {
	*apiservertest.Env
	factories map[string]func() (tfprotov6.ProviderServer, error)
}

func newAccEnv(t *testing.T, opts ...apiservertest.Option) *accEnv {
	t.Helper()
	testutil.SkipShort(t, testutil.NeedsTerraform)
	// TestMain has cleared the provider's settings from the environment,
	// so the provider reads only what a test's configuration gives it.
	env := apiservertest.Start(t, opts...)
	return &accEnv{Env: env, factories: map[string]func() (tfprotov6.ProviderServer, error){
		"docsadmin": providerserver.NewProtocol6WithError(NewWithClock("test", env.Clock)()),
	}}
}

// config prefixes HCL with a provider block that points at the server.
func (e *accEnv) config(hcl string) string {
	return fmt.Sprintf("provider \"docsadmin\" {\n  base_url = %q\n  api_key  = %q\n}\n\n%s", e.URL, e.Key, hcl)
}

// client is an API client for arranging what a test reads.
func (e *accEnv) client(t testing.TB) *client.Client {
	t.Helper()
	c, err := client.New(client.Config{BaseURL: e.URL, APIKey: e.Key})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// expectError runs config as one step and expects Terraform to fail with
// a message matching pattern; planOnly stops before apply.
func (e *accEnv) expectError(t *testing.T, config, pattern string, planOnly bool) {
	t.Helper()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: e.factories,
		Steps: []resource.TestStep{{
			Config:      config,
			PlanOnly:    planOnly,
			ExpectError: regexp.MustCompile(pattern),
		}},
	})
}

func TestAccProvider_missingKeyIsAnAttributeError(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	env.expectError(t, fmt.Sprintf(`
provider "docsadmin" {
  base_url = %q
}

data "docsadmin_static_export" "x" {
  id = "se_missing"
}
`, env.URL), `(?s)Missing Admin API Key.*DOCSADMIN_API_KEY`, false)
}

func TestAccProvider_settingsFromEnvironment(t *testing.T) {
	env := newAccEnv(t)
	t.Setenv(EnvBaseURL, env.URL)
	t.Setenv(EnvAPIKey, env.Key)
	// The settings work: the request reached the server, which knows no such job.
	env.expectError(t, `data "docsadmin_static_export" "x" { id = "se_missing" }`, `Static Export Not Found`, false)
}

// wrongKey has the shape of an admin key, so only the server can refuse it.
const wrongKey = "dak_0123456789abcdefWRONG"

// A key the server refuses fails the plan, on api_key, before any apply
// could start an export.
func TestAccProvider_wrongKeyFailsThePlan(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	env.expectError(t, fmt.Sprintf(`
provider "docsadmin" {
  base_url = %q
  api_key  = %q
}
`, env.URL, wrongKey)+exportConfig(env.Domain, "a"), `(?s)Invalid Admin API Key.*api_key.*401 invalid admin API key`, true)
}

// A key that cannot be any server's is an attribute error without asking
// one: here there is no server at all. The key is never shown.
func TestAccProvider_malformedKeyIsAnAttributeError(t *testing.T) {
	t.Parallel()
	newAccEnv(t) // skips without Terraform
	env := &accEnv{factories: map[string]func() (tfprotov6.ProviderServer, error){
		"docsadmin": providerserver.NewProtocol6WithError(New("test")()),
	}}
	for name, key := range map[string]string{"bearer": "Bearer dak_0123456789abcdefgh", "short": "dak_secret",
		"no prefix": "0123456789abcdefghijk"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			env.expectError(t, fmt.Sprintf("provider \"docsadmin\" {\n  base_url = %q\n  api_key  = %q\n}\n", closedURL(t), key)+
				exportConfig(apiservertest.Domain, "a"), `(?s)Malformed Admin API Key.*api_key.*<prefix>_<secret>`, true)
		})
	}
}

// A server that cannot be reached at plan time does not fail a plan that
// does not need it: the key is checked when the server answers.
func TestAccProvider_unreachableServerIsNotAPlanError(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: env.factories,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf("provider \"docsadmin\" {\n  base_url = %q\n  api_key  = %q\n}\n", closedURL(t), env.Key) +
				exportConfig(env.Domain, "a"),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		}},
	})
}

// closedURL is the URL of a loopback port nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return "http://" + addr
}

func TestAccProvider_invalidSettingsPointAtTheAttribute(t *testing.T) {
	t.Parallel()
	env := newAccEnv(t)
	for name, c := range map[string]struct{ block, want string }{
		"url":     {`base_url = "api.example.com"`, `(?s)Invalid URL.*base_url`},
		"timeout": {`request_timeout = "soon"`, `(?s)Invalid Duration.*request_timeout`},
		"retries": {`max_retries = 99`, `(?s)max_retries`},
		"no url":  {`api_key = "k"`, `(?s)Missing Admin API URL.*DOCSADMIN_BASE_URL`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			env.expectError(t, "provider \"docsadmin\" {\n  "+c.block+"\n}\n"+`data "docsadmin_static_export" "x" { id = "se_1" }`, c.want, false)
		})
	}
}

// TestProvider_schemaIsValid catches schema mistakes (a default on a
// required attribute, say) without running Terraform.
func TestProvider_schemaIsValid(t *testing.T) {
	srv, err := providerserver.NewProtocol6WithError(New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range resp.Diagnostics {
		t.Errorf("%s: %s", d.Summary, d.Detail)
	}
	for _, name := range []string{"docsadmin_static_export", "docsadmin_static_export_bundle"} {
		if resp.ResourceSchemas[name] == nil {
			t.Errorf("resource %s missing", name)
		}
	}
	if resp.EphemeralResourceSchemas["docsadmin_static_export_bundle"] == nil {
		t.Error("ephemeral resource docsadmin_static_export_bundle missing")
	}
	for _, name := range []string{"docsadmin_static_export", "docsadmin_agent_job"} {
		if resp.DataSourceSchemas[name] == nil {
			t.Errorf("data source %s missing", name)
		}
	}
}
