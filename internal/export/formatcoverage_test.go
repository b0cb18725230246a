package export

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestFormatCoverage_counts keeps the counts line at the top of
// FORMAT_COVERAGE.md true: it counts the rows of its tables by status
// (supported, partly, missing, n.a.), and every row has one of them.
func TestFormatCoverage_counts(t *testing.T) {
	b, err := os.ReadFile("FORMAT_COVERAGE.md")
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	rows := 0
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "| ") {
			continue
		}
		// A | inside a cell is written \|.
		cells := strings.Split(strings.ReplaceAll(line, `\|`, "/"), "|")
		if len(cells) != 6 {
			t.Errorf("a row without 4 cells: %.80s", line)
			continue
		}
		status := strings.TrimSpace(cells[3])
		if status == "Status" || strings.HasPrefix(status, "---") {
			continue
		}
		rows++
		switch {
		case strings.HasPrefix(status, "partly"), strings.HasPrefix(status, "supported in part"):
			counts["partly"]++
		case strings.HasPrefix(status, "supported"):
			counts["supported"]++
		case status == "missing", status == "n.a.":
			counts[status]++
		default:
			t.Errorf("a row whose status is %q: %.80s", status, line)
		}
	}
	want := fmt.Sprintf("Counts: **%d supported**, **%d partly**, **%d missing**, **%d n.a.** (%d rows).",
		counts["supported"], counts["partly"], counts["missing"], counts["n.a."], rows)
	if got := regexp.MustCompile(`(?m)^Counts: .*$`).FindString(string(b)); got != want {
		t.Errorf("the counts line says\n  %s\nthe tables count\n  %s", got, want)
	}
}
