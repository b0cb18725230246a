package provider

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// addExportWarnings turns what the export reported to the docs author
// (unsupported docs.json settings, skipped redirects, replaced remote
// content, specs that do not parse) into one Terraform warning, so it shows
// in the apply output instead of only in the server's log.
func addExportWarnings(diags *diag.Diagnostics, job api.ExportJob) {
	w := job.Warnings
	if w == nil || w.Count == 0 {
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Static export job %s finished with %d warning(s). The bundle was built; these parts of the docs "+
		"source were left out or changed:\n", job.JobID, w.Count)
	for _, m := range w.Messages {
		b.WriteString("\n- " + m)
	}
	if more := w.Count - len(w.Messages); more > 0 {
		fmt.Fprintf(&b, "\n\n...and %d more (the server keeps the first %d).", more, api.MaxExportWarnings)
	}
	diags.AddWarning("Static Export Finished With Warnings", b.String())
}

// warningsValues maps a job's warnings to the data source's warning_count
// and warnings (the kept messages); none is a count of 0 and an empty list.
func warningsValues(job api.ExportJob) (types.Int64, types.List) {
	var msgs []attr.Value
	count := 0
	if w := job.Warnings; w != nil {
		count = w.Count
		for _, m := range w.Messages {
			msgs = append(msgs, types.StringValue(m))
		}
	}
	return types.Int64Value(int64(count)), types.ListValueMust(types.StringType, msgs)
}
