package tfvalue

import (
	"context"
	"strings"
	"testing"

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
		if err := CheckHostname(h); (err == nil) != ok {
			t.Errorf("CheckHostname(%q) = %v, want ok=%v", h, err, ok)
		}
	}
}

// A rejected bundle_url is a link all the same: the diagnostic shows it
// redacted, with enough left (the scheme) to see what is wrong.
func TestURLValidator_redactsTheValue(t *testing.T) {
	req := validator.StringRequest{Path: path.Root("bundle_url"),
		ConfigValue: types.StringValue("ftp://u:pw@bundles.example.com/b.tar.gz?signature=topsecret")}
	var resp validator.StringResponse
	URLValidator{}.ValidateString(context.Background(), req, &resp)
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
