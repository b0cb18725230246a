// Package provider is the Terraform provider for the documentation
// platform's admin API: static exports, their bundles (whose presigned links
// are renewed at plan time), the rollout of a bundle into a self-hosted
// Helm release, and their data sources, ephemeral resource, actions and
// list resource. The agent operations are internal/provider/agent's and
// the rollout's kubernetes block internal/provider/kubeblock's; this
// package registers them.
package provider

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/cli"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/clock"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/agent"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/providerdata"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/provider/tfvalue"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

var (
	_ provider.Provider                       = &docsadminProvider{}
	_ provider.ProviderWithEphemeralResources = &docsadminProvider{}
	_ provider.ProviderWithActions            = &docsadminProvider{}
	_ provider.ProviderWithListResources      = &docsadminProvider{}
)

// Environment variables read when the provider block leaves a setting out;
// internal/cli keeps the one list of them.
const (
	EnvBaseURL   = cli.EnvBaseURL
	EnvAPIKey    = cli.EnvAPIKey
	EnvProjectID = cli.EnvProjectID
)

// New returns the provider factory that main.go serves.
func New(version string) func() provider.Provider {
	return NewWithClock(version, clock.Real{})
}

// QuietUnrequestedLogs sets the plugin SDK's log levels to OFF unless the
// user asked Terraform for logs. Left alone, the SDK writes every TRACE
// line as JSON to stderr, and Terraform parses each one only to drop it
// when TF_LOG is unset: in a 50-bundle plan that was a quarter of the
// provider's CPU, plus Terraform's parsing. Any log variable already set
// wins, so TF_LOG=debug still shows everything. It changes the process
// environment, so only main calls it, just before serving the plugin.
func QuietUnrequestedLogs() {
	for _, v := range []string{"TF_LOG", "TF_LOG_PROVIDER", "TF_LOG_PROVIDER_DOCSADMIN",
		"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"} {
		if os.Getenv(v) != "" {
			return
		}
	}
	for _, v := range []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER_DOCSADMIN"} {
		_ = os.Setenv(v, "OFF") // cannot fail for these names
	}
}

// NewWithClock is New with an injected clock, so that acceptance tests can
// move the provider's "now" together with the reference server's and reach
// a bundle link's renewal window without waiting.
func NewWithClock(version string, c clock.Clock) func() provider.Provider {
	return func() provider.Provider {
		return &docsadminProvider{version: version, clock: c}
	}
}

type docsadminProvider struct {
	version string
	clock   clock.Clock
}

// providerData is what resources, data sources and actions receive in
// Configure (internal/provider/providerdata).
type providerData = providerdata.Data

func (p *docsadminProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "docsadmin"
	resp.Version = p.version
}

func (p *docsadminProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manages static exports of a documentation site, the download bundles of those exports, " +
			"and reads agent jobs, through the platform's admin API.",
		Attributes: map[string]schema.Attribute{
			"base_url": schema.StringAttribute{
				MarkdownDescription: "Base URL of the admin API, for example `https://api.mintlify.com`. " +
					"May also be set with the `" + EnvBaseURL + "` environment variable.",
				Optional:   true,
				Validators: []validator.String{tfvalue.URLValidator{}},
			},
			"api_key": schema.StringAttribute{
				MarkdownDescription: "Admin API key. May also be set with the `" + EnvAPIKey + "` environment variable.",
				Optional:            true,
				Sensitive:           true,
			},
			"project_id": schema.StringAttribute{
				MarkdownDescription: "Project used by agent job data sources that do not name one. " +
					"May also be set with the `" + EnvProjectID + "` environment variable.",
				Optional: true,
			},
			"request_timeout": schema.StringAttribute{
				MarkdownDescription: "Time limit of one HTTP attempt, as a Go duration such as `30s`. Defaults to `30s`.",
				Optional:            true,
				Validators:          []validator.String{tfvalue.DurationValidator{Min: time.Millisecond}},
			},
			"max_retries": schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("How many times a rate-limited (429) or failed (5xx) request is retried, "+
					"with exponential backoff and jitter, honouring `Retry-After`. Defaults to %d; `0` disables retries.",
					client.DefaultMaxRetries),
				Optional:   true,
				Validators: []validator.Int64{int64validator.Between(0, 20)},
			},
		},
	}
}

func (p *docsadminProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// An unknown value (from a resource not yet created) cannot be
	// replaced by the environment: say so instead of guessing.
	for name, v := range map[string]types.String{"base_url": cfg.BaseURL, "api_key": cfg.APIKey,
		"project_id": cfg.ProjectID, "request_timeout": cfg.RequestTimeout} {
		if v.IsUnknown() {
			resp.Diagnostics.AddAttributeError(path.Root(name), "Unknown Provider Setting",
				"The provider cannot be configured while "+name+" is unknown. Set it to a static value or an environment variable.")
		}
	}
	if cfg.MaxRetries.IsUnknown() {
		resp.Diagnostics.AddAttributeError(path.Root("max_retries"), "Unknown Provider Setting",
			"The provider cannot be configured while max_retries is unknown.")
	}
	if resp.Diagnostics.HasError() {
		return
	}

	baseURL := valueOrEnv(cfg.BaseURL, EnvBaseURL)
	apiKey := valueOrEnv(cfg.APIKey, EnvAPIKey)
	if baseURL == "" {
		resp.Diagnostics.AddAttributeError(path.Root("base_url"), "Missing Admin API URL",
			"Set base_url in the provider block or the "+EnvBaseURL+" environment variable.")
	}
	if apiKey == "" {
		resp.Diagnostics.AddAttributeError(path.Root("api_key"), "Missing Admin API Key",
			"Set api_key in the provider block or the "+EnvAPIKey+" environment variable.")
	} else if err := api.CheckKeyShape(apiKey); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("api_key"), "Malformed Admin API Key",
			"The key "+keySource(cfg.APIKey)+" cannot be an admin API key: "+err.Error()+
				". Check that it was copied whole, without quotes, spaces or \"Bearer \".")
	}
	timeout := client.DefaultTimeout
	if s := cfg.RequestTimeout.ValueString(); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("request_timeout"), "Invalid Duration", err.Error())
		}
		timeout = d
	}
	retries := client.DefaultMaxRetries
	if !cfg.MaxRetries.IsNull() {
		retries = int(cfg.MaxRetries.ValueInt64())
		if retries == 0 {
			retries = -1 // the client reads 0 as "default"
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}

	ua := "terraform-provider-docsadmin/" + p.version
	if req.TerraformVersion != "" {
		ua += " terraform/" + req.TerraformVersion
	}
	c, err := client.New(client.Config{
		BaseURL:    baseURL,
		APIKey:     apiKey,
		UserAgent:  ua,
		Timeout:    timeout,
		MaxRetries: retries,
		Logger:     tfLogger{},
		Clock:      p.clock,
	})
	if err != nil {
		// New only fails on settings checked above; a URL scheme from the
		// environment is the one case left.
		resp.Diagnostics.AddAttributeError(path.Root("base_url"), "Invalid Provider Configuration", err.Error())
		return
	}
	tflog.Debug(ctx, "configured admin API client", map[string]any{"base_url": redact.URL(baseURL)})
	checkKey(ctx, c, keySource(cfg.APIKey), &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	data := &providerData{Client: c, ProjectID: valueOrEnv(cfg.ProjectID, EnvProjectID)}
	resp.ResourceData = data
	resp.DataSourceData = data
	resp.EphemeralResourceData = data
	resp.ActionData = data
}

// checkKey asks the server, once per provider instance (Configure runs
// once), whether it accepts the key, so that a wrong key fails the plan
// instead of the apply. A server that cannot be reached now is not an
// error: the plan may not need it, and the calls that do will say so.
func checkKey(ctx context.Context, c *client.Client, source string, diags *diag.Diagnostics) {
	err := c.CheckKey(ctx)
	switch {
	case errors.Is(err, client.ErrKeyRejected):
		diags.AddAttributeError(path.Root("api_key"), "Invalid Admin API Key",
			"The server refused the key "+source+": "+err.Error())
	case err != nil:
		tflog.Warn(ctx, "could not check the API key: the server did not answer", map[string]any{"error": err.Error()})
	}
}

// keySource says where the API key came from, for a diagnostic that
// must not show the key itself.
func keySource(v types.String) string {
	if v.ValueString() != "" {
		return "set in api_key"
	}
	return "from " + EnvAPIKey
}

func valueOrEnv(v types.String, env string) string {
	if s := v.ValueString(); s != "" {
		return s
	}
	return strings.TrimSpace(os.Getenv(env))
}

func (p *docsadminProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		NewStaticExportResource,
		NewStaticExportBundleResource,
		NewStaticExportRolloutResource,
	}
}

// EphemeralResources are opened for one run and never stored.
func (p *docsadminProvider) EphemeralResources(context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{
		NewStaticExportBundleEphemeralResource,
	}
}

// Actions (Terraform 1.14 and later) do something once, when invoked or
// triggered, and keep nothing in state.
func (p *docsadminProvider) Actions(context.Context) []func() action.Action {
	return []func() action.Action{
		agent.NewAgentJobAction,
		agent.NewDocumentationUpdateAction,
		NewStaticExportPublishAction,
	}
}

// ListResources (Terraform 1.14 and later) find existing objects for
// `terraform query` to import.
func (p *docsadminProvider) ListResources(context.Context) []func() list.ListResource {
	return []func() list.ListResource{NewStaticExportRolloutListResource}
}

func (p *docsadminProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		agent.NewAgentJobDataSource,
		NewStaticExportDataSource,
	}
}

type providerModel struct {
	BaseURL        types.String `tfsdk:"base_url"`
	APIKey         types.String `tfsdk:"api_key"`
	ProjectID      types.String `tfsdk:"project_id"`
	RequestTimeout types.String `tfsdk:"request_timeout"`
	MaxRetries     types.Int64  `tfsdk:"max_retries"`
}
