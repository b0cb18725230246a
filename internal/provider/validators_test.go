package provider

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestCheckHostname(t *testing.T) {
	for h, ok := range map[string]bool{
		"docs.example.com":       true,
		"acme.mintlify.app":      true,
		"localhost":              true,
		"a-b.c1.test":            true,
		"":                       false,
		"https://docs.acme.test": false,
		"docs.acme.test/":        false,
		"docs.acme.test/docs":    false,
		"docs.acme.test:8443":    false,
		"-docs.acme.test":        false,
		"docs..acme.test":        false,
		"docs acme.test":         false,
	} {
		if err := checkHostname(h); (err == nil) != ok {
			t.Errorf("checkHostname(%q) = %v, want ok=%v", h, err, ok)
		}
	}
}

func TestRenewalDue(t *testing.T) {
	exp := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	expires := types.StringValue(exp.Format(time.RFC3339))
	for _, c := range []struct {
		now    time.Time
		before string
		due    bool
	}{
		{exp.Add(-16 * time.Minute), "15m", false},
		{exp.Add(-15 * time.Minute), "15m", true}, // the window includes its start
		{exp.Add(time.Hour), "15m", true},         // long expired
		{exp.Add(-time.Minute), "0s", false},
	} {
		due, err := renewalDue(c.now, expires, c.before)
		if err != nil || due != c.due {
			t.Errorf("renewalDue(expiry%+v, %s) = %v, %v; want %v", c.now.Sub(exp), c.before, due, err, c.due)
		}
	}
	if due, err := renewalDue(exp, types.StringNull(), "15m"); err != nil || !due {
		t.Errorf("a link of unknown expiry (imported) must be due: %v, %v", due, err)
	}
	if _, err := renewalDue(exp, expires, "soon"); err == nil {
		t.Error("an unparsable renew_before must be an error")
	}
}

// A rejected bundle_url is a link all the same: the diagnostic shows it
// redacted, with enough left (the scheme) to see what is wrong.
func TestURLValidator_redactsTheValue(t *testing.T) {
	req := validator.StringRequest{Path: path.Root("bundle_url"),
		ConfigValue: types.StringValue("ftp://u:pw@bundles.example.com/b.tar.gz?signature=topsecret")}
	var resp validator.StringResponse
	urlValidator{}.ValidateString(context.Background(), req, &resp)
	if resp.Diagnostics.ErrorsCount() != 1 {
		t.Fatalf("diagnostics = %v, want one error", resp.Diagnostics)
	}
	detail := resp.Diagnostics[0].Detail()
	if strings.Contains(detail, "topsecret") || strings.Contains(detail, "pw@") {
		t.Fatalf("diagnostic leaks the link: %s", detail)
	}
	if !strings.Contains(detail, `"ftp://REDACTED@bundles.example.com/b.tar.gz?REDACTED"`) {
		t.Errorf("diagnostic does not show the redacted value: %s", detail)
	}
}
