package rolloutcmd

import (
	"bytes"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// TestPrintWarnings shows the kept messages and how many more there were.
func TestPrintWarnings(t *testing.T) {
	var out bytes.Buffer
	printWarnings(&out, "exp_1", nil)
	printWarnings(&out, "exp_1", &api.ExportWarnings{})
	if out.Len() != 0 {
		t.Fatalf("no warnings printed %q", out.String())
	}
	w := &api.ExportWarnings{}
	for _, m := range []string{"docs.json: the setting \"seo\" is not supported", "index: \"a.png\" is a link out of the docs source"} {
		w.Add("content", m)
	}
	w.Count = 5 // three more than kept, as a job past api.MaxExportWarnings reports
	printWarnings(&out, "exp_1", w)
	want := "export exp_1: 5 warning(s):\n  warning: docs.json: the setting \"seo\" is not supported\n" +
		"  warning: index: \"a.png\" is a link out of the docs source\n  ... and 3 more\n"
	if out.String() != want {
		t.Fatalf("printed:\n%s\nwant:\n%s", out.String(), want)
	}
}
