package tfvalue

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
	_ validator.String = HostnameValidator{}
	_ validator.String = DurationValidator{}
	_ validator.String = URLValidator{}
	_ validator.String = RFC3339Validator{}
)

// HostnameValidator accepts a bare hostname, as the export API wants: no
// scheme, port, path or trailing slash. Catching these at plan time saves
// a round trip that would only end in a 400.
type HostnameValidator struct{}

// Description says what the validator accepts.
func (HostnameValidator) Description(context.Context) string {
	return "must be a hostname such as docs.example.com, without scheme, path or slash"
}

// MarkdownDescription is Description; it has no markup.
func (v HostnameValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

// ValidateString adds an attribute error for a set, known value it refuses.
func (HostnameValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := CheckHostname(req.ConfigValue.ValueString()); err != nil {
		// CheckHostname's error already says what a domain must be;
		// Description again would say it twice.
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Domain", fmt.Sprintf("The %s.", err))
	}
}

// CheckHostname is the API's own domain rule (api.CheckDomain), checked
// at plan time.
func CheckHostname(h string) error {
	_, err := api.CheckDomain(h)
	return err
}

// DurationValidator accepts a Go duration ("90s", "1h30m") of at least Min;
// with Positive, also more than zero. Min zero still refuses a negative
// duration: no setting of this provider means anything below zero.
type DurationValidator struct {
	Min      time.Duration
	Positive bool
}

// Description says what the validator accepts.
func (v DurationValidator) Description(context.Context) string {
	switch {
	case v.Min > 0:
		return fmt.Sprintf("must be a duration such as 15m or 1h30m, at least %s", v.Min)
	case v.Positive:
		return "must be a positive duration such as 15m or 1h30m"
	}
	return "must be a duration such as 15m or 1h30m, not negative"
}

// MarkdownDescription is Description; it has no markup.
func (v DurationValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

// ValidateString adds an attribute error for a set, known value it refuses.
func (v DurationValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := v.check(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Duration",
			fmt.Sprintf("The value %s: %s.", v.Description(ctx), err))
	}
}

// check parses s and holds it to the bounds.
func (v DurationValidator) check(s string) error {
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		return err
	case d < 0:
		return fmt.Errorf("%s is negative", s)
	case d == 0 && v.Positive:
		return fmt.Errorf("%s is no time at all", s)
	case d < v.Min:
		return fmt.Errorf("%s is shorter than %s", d, v.Min)
	}
	return nil
}

// URLValidator accepts an absolute http(s) URL with a host.
type URLValidator struct{}

// Description says what the validator accepts.
func (URLValidator) Description(context.Context) string {
	return "must be an absolute http:// or https:// URL"
}

// MarkdownDescription is Description; it has no markup.
func (v URLValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

// ValidateString adds an attribute error for a set, known value it refuses.
func (v URLValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
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

// RFC3339Validator accepts an RFC 3339 timestamp such as 2026-01-02T15:04:05Z.
type RFC3339Validator struct{}

// Description says what the validator accepts.
func (RFC3339Validator) Description(context.Context) string {
	return "must be an RFC 3339 timestamp such as 2026-01-02T15:04:05Z"
}

// MarkdownDescription is Description; it has no markup.
func (v RFC3339Validator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

// ValidateString adds an attribute error for a set, known value it refuses.
func (v RFC3339Validator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := time.Parse(time.RFC3339, req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Timestamp",
			fmt.Sprintf("The value %q %s: %s.", req.ConfigValue.ValueString(), v.Description(ctx), err))
	}
}
