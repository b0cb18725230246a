package tfvalue

import (
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Timestamps cross the provider as RFC 3339 strings in UTC to the second:
// the API sends them, state stores them and the release keeps them in its
// values. Rendering and comparing them in one place keeps plans stable.

// RFC3339 renders API timestamps the same way everywhere, so that plan-time
// comparisons can parse them back.
// A zero time (a field the server left out) becomes null.
func RFC3339(t time.Time) types.String {
	if t.IsZero() {
		return types.StringNull()
	}
	return types.StringValue(t.UTC().Format(time.RFC3339))
}

// SameExpiry compares two RFC 3339 values as instants to the second, the
// precision the release stores, so "+01:00" or fractional seconds in the
// configuration do not show as a permanent diff.
func SameExpiry(a, b types.String) bool {
	if a.IsUnknown() || b.IsUnknown() {
		return false
	}
	if a.ValueString() == "" || b.ValueString() == "" {
		return a.ValueString() == b.ValueString()
	}
	ta, errA := time.Parse(time.RFC3339, a.ValueString())
	tb, errB := time.Parse(time.RFC3339, b.ValueString())
	if errA != nil || errB != nil {
		return a.ValueString() == b.ValueString()
	}
	return ta.Truncate(time.Second).Equal(tb.Truncate(time.Second))
}

// Known reports whether v is set and known.
func Known(v types.String) bool { return !v.IsNull() && !v.IsUnknown() }
