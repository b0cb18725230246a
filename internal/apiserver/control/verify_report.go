package control

import (
	"fmt"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// A verification's report lists the requests it looked at, one a line,
// each marked with what the check made of it, so a suite's failure shows
// what was received and not only that something was wrong.

// maxReportLines bounds the requests a report lists one per line; beyond
// it only those the check is about are listed.
const maxReportLines = 100

// reportTime shows a request's arrival to the millisecond.
const reportTime = "2006-01-02T15:04:05.000Z07:00"

// report lists the requests looked at, one a line, each marked with what
// the check made of it.
func report(headline string, within *matcher, entries []api.ControlRequest, marks map[int]string) string {
	var b strings.Builder
	b.WriteString(headline)
	scope := ""
	if within != nil {
		scope = " within " + within.String()
	}
	fmt.Fprintf(&b, "\nreceived%s: %d %s", scope, len(entries), requests(len(entries)))
	if len(entries) > maxReportLines {
		fmt.Fprintf(&b, " (only the %d marked ones listed)", len(marks))
	}
	for i := range entries {
		mark := marks[i]
		if mark == "" && len(entries) > maxReportLines {
			continue
		}
		b.WriteString("\n")
		b.WriteString(reportLine(i+1, &entries[i], mark))
	}
	return b.String()
}

// maxReportBody is how much of a body a report line shows.
const maxReportBody = 120

func reportLine(n int, e *api.ControlRequest, mark string) string {
	target := e.Path
	if e.Query != "" {
		target += "?" + e.Query
	}
	status := fmt.Sprint(e.Status)
	if e.Status == 0 {
		status = "no answer"
	}
	line := fmt.Sprintf("%4d  %s  %s %s -> %s", n, e.Time.UTC().Format(reportTime), e.Method, target, status)
	if e.Organization != "" {
		line += "  organization=" + e.Organization
	}
	if e.Route == "" {
		line += "  (no route)"
	}
	if e.Body != "" {
		body := strings.Join(strings.Fields(e.Body), " ")
		if len(body) > maxReportBody {
			body = body[:maxReportBody] + "…"
		}
		line += "  body " + body
	}
	if mark != "" {
		line += "  <- " + mark
	}
	return line
}
