package export

import (
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/theme"
)

// TestExport_appearance: appearance.default and strict reach every page's
// <html> (and the 404 page's); strict leaves out the toggle; a default the
// platform does not know is a warning naming the field.
func TestExport_appearance(t *testing.T) {
	for _, c := range []struct {
		name, appearance, html string
		toggle                 bool
		warning                string
	}{
		{"unset", ``, `<html lang="en" data-root="">`, true, ""},
		{"system", `"appearance": {"default": "system"},`, `<html lang="en" data-root="">`, true, ""},
		{"dark", `"appearance": {"default": "dark"},`, `<html lang="en" data-root="" data-theme="dark">`, true, ""},
		{"light strict", `"appearance": {"default": "light", "strict": true},`, `<html lang="en" data-root="" data-theme="light" data-strict>`, false, ""},
		{"dark strict", `"appearance": {"default": "Dark", "strict": true},`, `<html lang="en" data-root="" data-theme="dark" data-strict>`, false, ""},
		{"unknown", `"appearance": {"default": "sepia", "mode": 1},`, `<html lang="en" data-root="">`, true,
			`appearance.default "sepia" is not "system", "light" or "dark"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := mapFS(map[string]string{
				"docs.json": `{"name": "A", ` + c.appearance + ` "navigation": {"pages": ["index"]}}`,
				"index.mdx": "---\ntitle: Home\n---\n\nBody.\n",
			})
			var warnings []string
			dir, _ := exportTo(t, Request{Source: src, Warn: func(wrn Warning) { m := wrn.Message; warnings = append(warnings, m) }})
			for _, page := range []string{"index.html", "404.html"} {
				html := readOut(t, dir, page)
				if !strings.Contains(html, c.html) {
					t.Errorf("%s: no %s in\n%.300s", page, c.html, html)
				}
				if got := strings.Contains(html, `class="theme-toggle"`); got != c.toggle {
					t.Errorf("%s: theme toggle present = %v, want %v", page, got, c.toggle)
				}
			}
			joined := strings.Join(warnings, "\n")
			if c.warning != "" && !strings.Contains(joined, c.warning) {
				t.Errorf("no warning %q; warnings:\n%s", c.warning, joined)
			}
			if c.name == "unknown" && !strings.Contains(joined, `"appearance.mode" is not supported`) {
				t.Errorf("an unknown appearance key is not reported; warnings:\n%s", joined)
			}
			if strings.Contains(joined, `"appearance" is not supported`) {
				t.Errorf("appearance is still reported as unsupported:\n%s", joined)
			}
		})
	}
}

// TestStylesheet_readableThemeColors: the stylesheet carries the derived
// colours of both modes after the configured ones, and links and accents
// use them.
func TestStylesheet_readableThemeColors(t *testing.T) {
	src := mapFS(map[string]string{
		"docs.json": `{"name": "A", "colors": {"primary": "#FFE600"}, "navigation": {"pages": ["index"]}}`,
		"index.mdx": "---\ntitle: Home\n---\n\nBody.\n",
	})
	var warnings []string
	dir, _ := exportTo(t, Request{Source: src, Warn: func(wrn Warning) { m := wrn.Message; warnings = append(warnings, m) }})
	lines := strings.SplitN(readOut(t, dir, "_static/style.css"), "\n", 3)
	if want := strings.TrimSuffix(theme.ColorsCSS(&docsjson.Config{Colors: docsjson.Colors{Primary: "#FFE600"}}, func(string, ...any) {}), "\n"); lines[1] != want {
		t.Errorf("derived colours line = %s\nwant %s", lines[1], want)
	}
	for _, rule := range []string{"a{color:var(--link)}", "--accent:var(--link)", "background:var(--brand);color:var(--on-brand)"} {
		if !strings.Contains(lines[2], rule) {
			t.Errorf("style.css lacks %s", rule)
		}
	}
	if !strings.Contains(strings.Join(warnings, "\n"), "colors.primary #FFE600 reads at") {
		t.Errorf("no contrast warning: %v", warnings)
	}
}
