package mdx

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

func renderMarkdown(t *testing.T, md string) string {
	t.Helper()
	var buf bytes.Buffer
	if _, err := ToHTML(testMarkdown, []byte(md), &buf); err != nil {
		t.Fatalf("render: %v", err)
	}
	return buf.String()
}

// listJoint is where boundMarkdown closed the top level inside a list: the
// list ends, the empty comment, and the next list begins (an ordered one
// from the number it had reached).
var listJoint = regexp.MustCompile(`</(ul|ol)>\n<!-- -->\n<(ul|ol( start="\d+")?)>\n`)

// TestBoundMarkdown_longListSplitUnseen: lists long enough to pass the
// record bound are closed and reopened at the margin, and the page a
// reader sees is the same: with the joints taken out, the HTML is the
// unbounded parser's, item for item and number for number.
func TestBoundMarkdown_longListSplitUnseen(t *testing.T) {
	var nested strings.Builder
	for i := range 30000 {
		fmt.Fprintf(&nested, "%s- item %d\n", strings.Repeat("  ", i%10), i)
	}
	for name, md := range map[string]string{
		"bullets": strings.Repeat("- an item\n", 50000),
		"ordered": func() string {
			var b strings.Builder
			for i := 1; i <= 50000; i++ {
				fmt.Fprintf(&b, "%d. item\n", i)
			}
			return b.String()
		}(),
		"nested":   nested.String(),
		"headings": strings.Repeat("## A section\n\n- one\n- two\n\nSome text.\n\n", 20000),
	} {
		t.Run(name, func(t *testing.T) {
			bounded := Bound(md)
			joints := strings.Count(bounded, topLevelBreak)
			if name == "headings" {
				// Each heading closes the top level: no break is needed.
				if bounded != md {
					t.Fatalf("a page whose sections close the top level was changed (%d breaks)", joints)
				}
				return
			}
			if joints == 0 {
				t.Fatalf("a %d-line list was never closed", strings.Count(md, "\n"))
			}
			want := renderMarkdown(t, md)
			got := listJoint.ReplaceAllString(renderMarkdown(t, bounded), "")
			if got != want {
				i := 0
				for i < min(len(got), len(want)) && got[i] == want[i] {
					i++
				}
				t.Fatalf("%d joints changed what a reader sees; first difference at byte %d:\n got %q\nwant %q",
					joints, i, got[max(0, i-80):min(len(got), i+80)], want[max(0, i-80):min(len(want), i+80)])
			}
			t.Logf("%d lines, %d joints", strings.Count(md, "\n"), joints)
		})
	}
}

// TestBoundMarkdown_fenceNeverSplit: a code block longer than the bound,
// inside a list item, stays one code block with every line; the top level
// is closed after it.
func TestBoundMarkdown_fenceNeverSplit(t *testing.T) {
	code := "  ```json\n" + strings.Repeat("  {\"k\": 1}\n", 30000) + "  ```\n"
	md := "- item\n\n" + code + "- next\n"
	bounded := Bound(md)
	if want := "- item\n\n" + code + topLevelBreak + "- next\n"; bounded != want {
		t.Fatalf("the page was closed elsewhere than after the code block: %d breaks", strings.Count(bounded, topLevelBreak))
	}
	html := renderMarkdown(t, bounded)
	if n, lines := strings.Count(html, "<pre"), strings.Count(html, "&#34;k&#34;")+strings.Count(html, "&quot;k&quot;"); n != 1 || lines != 30000 {
		t.Fatalf("%d code blocks with %d lines, want 1 with 30000", n, lines)
	}
}

// TestBoundMarkdown_noMarginClosedAtHardBound: a list that never comes back
// to the margin is closed at four times the bound, keeping every word, and
// the memory of a render stays near a flat page's: a record per open block
// per line took about 140 bytes per byte of this page.
func TestBoundMarkdown_noMarginClosedAtHardBound(t *testing.T) {
	var b strings.Builder
	for i := range 60 {
		b.WriteString(strings.Repeat("  ", i) + "- step\n")
	}
	md := b.String() + strings.Repeat(strings.Repeat("  ", 60)+"- deep\n", 12000)
	bounded := Bound(md)
	if strings.Count(bounded, topLevelBreak) == 0 {
		t.Fatal("a list nested 60 deep over 12,000 lines was never closed")
	}
	if got := strings.Count(renderMarkdown(t, bounded), "deep"); got != 12000 {
		t.Fatalf("%d of 12000 lines kept", got)
	}
	r := &pageRenderer{}
	if perByte := float64(allocated(r, md)) / float64(len(md)); perByte > 40 {
		t.Errorf("rendering allocates %.0f bytes per byte of the page, want at most 40", perByte)
	}
}
