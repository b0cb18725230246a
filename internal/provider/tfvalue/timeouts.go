package tfvalue

import (
	"context"
	"fmt"

	dstimeouts "github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	dsschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// ResourceTimeouts is timeouts.Attributes with every limit held to a
// positive duration at plan time, and the error reported on `timeouts`
// itself. The package's own check accepts "-5m" (a real export then starts
// and fails at once), and reports on timeouts.create, a path inside an
// object value that Terraform cannot show in the configuration: the error
// pointed at the resource's first line instead of the timeouts line.
func ResourceTimeouts(ctx context.Context, opts timeouts.Opts) schema.Attribute {
	a := timeouts.Attributes(ctx, opts).(schema.SingleNestedAttribute)
	for name, nested := range a.Attributes {
		s := nested.(schema.StringAttribute)
		s.Validators = []validator.String{timeoutValidator{}}
		a.Attributes[name] = s
	}
	return a
}

// DataSourceTimeouts is ResourceTimeouts for a data source's `timeouts.read`.
func DataSourceTimeouts(ctx context.Context) dsschema.Attribute {
	a := dstimeouts.Attributes(ctx).(dsschema.SingleNestedAttribute)
	for name, nested := range a.Attributes {
		s := nested.(dsschema.StringAttribute)
		s.Validators = []validator.String{timeoutValidator{}}
		a.Attributes[name] = s
	}
	return a
}

// timeoutValidator is DurationValidator{Positive: true} reporting on the
// enclosing timeouts attribute, naming the field in the detail.
type timeoutValidator struct{}

var _ validator.String = timeoutValidator{}

var positive = DurationValidator{Positive: true}

// Description says what the validator accepts.
func (timeoutValidator) Description(ctx context.Context) string { return positive.Description(ctx) }

// MarkdownDescription is Description; it has no markup.
func (v timeoutValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

// ValidateString adds an attribute error on the parent `timeouts`.
func (v timeoutValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := positive.check(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path.ParentPath(), "Invalid Timeout",
			fmt.Sprintf("%s %s: %s.", req.Path, v.Description(ctx), err))
	}
}
