package tfvalue

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// ActionTimeoutAttribute is an action's optional time limit; what says
// what it bounds.
func ActionTimeoutAttribute(what string, def time.Duration) schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: what + ", as a duration such as `20m`. Defaults to `" + def.String() + "`.",
		Optional:            true,
		Validators:          []validator.String{DurationValidator{Min: time.Second}},
	}
}

// ActionTimeout reads an action's optional timeout attribute, which its
// validator has checked.
func ActionTimeout(v types.String, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(v.ValueString()); err == nil {
		return d
	}
	return def
}

// Progress reports one line of an action's progress to the CLI, and to
// the provider's log for runs that read logs instead.
func Progress(ctx context.Context, send func(action.InvokeProgressEvent), format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	tflog.Info(ctx, msg)
	if send != nil {
		send(action.InvokeProgressEvent{Message: msg})
	}
}
