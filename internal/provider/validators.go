package provider

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

var (
	_ validator.String = hostnameValidator{}
	_ validator.String = durationValidator{}
	_ validator.String = urlValidator{}
	_ validator.String = rfc3339Validator{}
)

// hostnameValidator accepts a bare hostname, as the export API wants: no
// scheme, port, path or trailing slash. Catching these at plan time saves
// a round trip that would only end in a 400.
type hostnameValidator struct{}

func (hostnameValidator) Description(context.Context) string {
	return "must be a hostname such as docs.example.com, without scheme, path or slash"
}

func (v hostnameValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v hostnameValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := checkHostname(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Domain",
			fmt.Sprintf("The %s; it %s.", err, v.Description(ctx)))
	}
}

// checkHostname is the API's own domain rule (api.CheckDomain), checked
// at plan time.
func checkHostname(h string) error {
	_, err := api.CheckDomain(h)
	return err
}

// durationValidator accepts a Go duration ("90s", "1h30m") of at least min.
type durationValidator struct{ min time.Duration }

func (v durationValidator) Description(context.Context) string {
	return fmt.Sprintf("must be a duration such as 15m or 1h30m, at least %s", v.min)
}

func (v durationValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v durationValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	d, err := time.ParseDuration(req.ConfigValue.ValueString())
	if err == nil && d < v.min {
		err = fmt.Errorf("%s is shorter than %s", d, v.min)
	}
	if err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Duration",
			fmt.Sprintf("The value %s: %s.", v.Description(ctx), err))
	}
}

// urlValidator accepts an absolute http(s) URL with a host.
type urlValidator struct{}

func (urlValidator) Description(context.Context) string {
	return "must be an absolute http:// or https:// URL"
}

func (v urlValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v urlValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	u, err := url.Parse(req.ConfigValue.ValueString())
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		// bundle_url is a credential: echo the value only redacted.
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid URL",
			fmt.Sprintf("The value %q %s.", redact.URL(req.ConfigValue.ValueString()), v.Description(ctx)))
	}
}

// rfc3339Validator accepts an RFC 3339 timestamp such as 2026-01-02T15:04:05Z.
type rfc3339Validator struct{}

func (rfc3339Validator) Description(context.Context) string {
	return "must be an RFC 3339 timestamp such as 2026-01-02T15:04:05Z"
}

func (v rfc3339Validator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v rfc3339Validator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := time.Parse(time.RFC3339, req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Timestamp",
			fmt.Sprintf("The value %q %s: %s.", req.ConfigValue.ValueString(), v.Description(ctx), err))
	}
}
