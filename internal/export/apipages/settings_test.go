package apipages

import (
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
)

// TestSampleOrder checks the language names and aliases of
// api.examples.languages: known ones in the order given, once each.
func TestSampleOrder(t *testing.T) {
	for _, c := range []struct {
		in            []string
		want, unknown string
	}{
		{nil, "bash python javascript", ""},
		{[]string{"py", "shell", "curl", "Go", "node", "golang", "Node.js", "kotlin"}, "python bash go node", "kotlin"},
		{[]string{"JS"}, "javascript", ""},
		{[]string{"C#", "rb", "php", "Java", "csharp", "golang", "swift", "dotnet"}, "csharp ruby php java go", "swift dotnet"},
	} {
		var a docsjson.Settings
		a.Examples.Languages = c.in
		langs, unknown := sampleOrder(&a)
		if got := strings.Join(langs, " "); got != c.want {
			t.Errorf("%q: languages %q, want %q", c.in, got, c.want)
		}
		if got := strings.Join(unknown, " "); got != c.unknown {
			t.Errorf("%q: unknown %q, want %q", c.in, got, c.unknown)
		}
	}
}
