package mdx

import (
	"bytes"
	"strings"
	"testing"
)

// TestHeadingIDs: ids follow the platform's rules: letters of every script
// kept, punctuation to hyphens, markup left out, repeats numbered.
func TestHeadingIDs(t *testing.T) {
	src := "## chat.agent()\n\n## 始める\n\n## 概要\n\n## 概要\n\n## Use <code>run()</code> now\n\n## Café au lait\n\n## ???\n\n## Привет, мир\n"
	var buf bytes.Buffer
	hs, err := ToHTML(NewMarkdown(), []byte(src), &buf)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range hs {
		ids = append(ids, h.ID)
	}
	want := []string{"chat-agent", "始める", "概要", "概要-1", "use-run-now", "café-au-lait", "heading", "привет-мир"}
	if strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Errorf("ids = %q, want %q", ids, want)
	}
	if !strings.Contains(buf.String(), `<h2 id="始める">`) {
		t.Errorf("the heading does not carry its id:\n%s", buf.String())
	}
}
