package mdx

import (
	"errors"
	"strings"
	"testing"
)

func TestToMarkdown_components(t *testing.T) {
	src := `import Intro from '/snippets/intro.mdx'
export const meta = {
  a: 1,
}

{/* a comment */}

Some text with <Icon icon="rocket" /> an icon and a <Tooltip tip="More">hint</Tooltip>.

<Intro />

<Note>
  Read this **first**.
</Note>

<Steps>
  <Step title="Install">
    Run the installer.

    ` + "```bash" + `
    npm i
    ` + "```" + `
  </Step>
  <Step title="Run">Start it.</Step>
</Steps>

<CardGroup cols={2}>
  <Card title="Quickstart" href="/quickstart">Get going.</Card>
</CardGroup>

<ParamField path="id" type="string" required>
  The id.
</ParamField>

<Tabs>
  <Tab title="One">First tab.</Tab>
</Tabs>

<Unknown prop="x">
Kept child text.
</Unknown>

` + "```jsx" + `
<Note>in code stays</Note>
` + "```" + `
`
	load := func(f string) (string, error) {
		if f == "snippets/intro.mdx" {
			return "---\ntitle: x\n---\nSnippet **body**.\n", nil
		}
		return "", errors.New("no")
	}
	got := ToMarkdown(src, load)
	for _, want := range []string{
		"Some text with an icon and a hint.",
		"Snippet **body**.",
		"> **Note:**\n>\n> Read this **first**.",
		"**1. Install**",
		"Run the installer.\n\n```bash\nnpm i\n```",
		"**2. Run**\n\nStart it.",
		"**[Quickstart](/quickstart)**\n\nGet going.",
		"`id` (path, string, required)\n\nThe id.",
		"**One**\n\nFirst tab.",
		"Kept child text.",
		"```jsx\n<Note>in code stays</Note>\n```",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	for _, bad := range []string{"import ", "export ", "a comment", "<Steps", "<Card", "</Tab>", "<Unknown", "\n\n\n"} {
		if strings.Contains(got, bad) {
			t.Errorf("%q left in:\n%s", bad, got)
		}
	}
}

func TestToMarkdown_nestedCallout(t *testing.T) {
	got := ToMarkdown("<Warning>\nOuter.\n<Tip>Inner.</Tip>\n</Warning>\nAfter.\n", nil)
	want := "> **Warning:**\n>\n> Outer.\n>\n> > **Tip:**\n> >\n> > Inner.\n\nAfter.\n"
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

// TestToMarkdown_visibility: the Markdown copy is the agents' view, the
// opposite of the web page: agents' content shows, humans' does not.
func TestToMarkdown_visibility(t *testing.T) {
	got := ToMarkdown("Both.\n\n<Visibility for=\"humans\">\n  <Note>\n    Click **Start**.\n  </Note>\n</Visibility>\n\n"+
		"<Visibility for=\"agents\">\n  > Call `POST /v1/accounts`.\n</Visibility>\n\nAfter.\n", nil)
	want := "Both.\n\n> Call `POST /v1/accounts`.\n\nAfter.\n"
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}
