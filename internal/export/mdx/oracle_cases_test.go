package mdx

import (
	"fmt"
	"strings"
)

// grammarCases generates the differential test's grammar corpus: MDX that
// the reference compiler accepts, covering how JSX and Markdown mix.
// Names are stable, so the list of known differences can name them.
func grammarCases() []oracleDoc {
	var docs []oracleDoc
	add := func(name, src string) {
		docs = append(docs, oracleDoc{corpus: "grammar", name: "grammar/" + name, source: src})
	}

	// Markdown on the lines inside a JSX element: each kind of block, in
	// each kind of element, with and without blank lines around it, at
	// each indentation.
	wrappers := []struct{ name, open, close string }{
		{"div", `<div id="overview">`, "</div>"},
		{"Note", "<Note>", "</Note>"},
		{"Card", `<Card title="Title" href="/x">`, "</Card>"},
		{"Accordion", `<Accordion title="More">`, "</Accordion>"},
		{"Steps", "<Steps>\n<Step title=\"One\">", "</Step>\n</Steps>"},
	}
	contents := []struct{ name, src string }{
		{"heading", "## Overview"},
		{"paragraph", "Some **bold** and `code` text."},
		{"twoParagraphs", "First paragraph.\n\nSecond paragraph."},
		{"list", "- one\n- two"},
		{"ordered", "1. one\n2. two"},
		{"table", "| a | b |\n| - | - |\n| 1 | 2 |"},
		{"fence", "```js\nconst x = 1\n```"},
		{"quote", "> quoted"},
		{"nested", "<Tip>\nInner text.\n</Tip>"},
	}
	for _, w := range wrappers {
		for _, c := range contents {
			for _, blank := range []bool{false, true} {
				for _, indent := range []int{0, 2, 4} {
					pad := strings.Repeat(" ", indent)
					var body []string
					for l := range strings.Lines(c.src) {
						l = strings.TrimSuffix(l, "\n")
						if l == "" {
							body = append(body, "")
						} else {
							body = append(body, pad+l)
						}
					}
					sep := "\n"
					if blank {
						sep = "\n\n"
					}
					spacing := "tight"
					if blank {
						spacing = "blank"
					}
					add(fmt.Sprintf("inside/%s/%s/%s/indent%d", w.name, c.name, spacing, indent),
						w.open+sep+strings.Join(body, "\n")+sep+w.close+"\n")
				}
			}
		}
	}

	// Markdown straight after a closing tag or a void element, no blank
	// line between.
	for _, c := range contents[:6] {
		add("after/div/"+c.name, "<div>\nText.\n</div>\n"+c.src+"\n")
		add("after/Note/"+c.name, "<Note>\nText.\n</Note>\n"+c.src+"\n")
		add("after/br/"+c.name, "<br/>\n"+c.src+"\n")
		add("before/div/"+c.name, c.src+"\n<div>\nText.\n</div>\n")
	}

	cases := []struct{ name, src string }{
		// JSX in running text.
		{"text/selfClosing", "Click <Icon icon=\"rocket\" /> to start.\n"},
		{"text/html", "A <b>bold</b> and <em>slanted</em> word.\n"},
		{"text/componentAtStart", "<Badge>New</Badge> in this release.\n"},
		{"text/tooltip", "Hover <Tooltip tip=\"A hint\">this word</Tooltip> now.\n"},
		{"text/inHeading", "## Install <Badge>beta</Badge>\n"},
		{"text/inListItem", "- Press <kbd>Ctrl</kbd> and <kbd>C</kbd>\n- Done\n"},
		{"text/inTableCell", "| Key | Icon |\n| - | - |\n| a | <Icon icon=\"check\" /> |\n"},
		{"text/spaceExpression", "<b>one</b>{\" \"}two\n"},
		{"text/linkAround", "[<b>bold link</b>](/x)\n"},
		// An element on one line, and one whose content runs over lines.
		{"flow/oneLine", "<Note>One line of content.</Note>\n"},
		{"flow/overLines", "<Warning>Careful with\nthis.</Warning>\n\nAfter.\n"},
		{"flow/selfClosing", "<Frame>\n<img src=\"/a.png\" alt=\"A\" />\n</Frame>\n"},
		{"flow/tagOverLines", "<Card\n  title=\"Multi\"\n  href=\"/x\"\n>\n  Body text.\n</Card>\n"},
		{"flow/twoOnALine", "<Note><Tip>Both.</Tip></Note>\n"},
		{"flow/fragment", "<>\n## In a fragment\n</>\n"},
		{"flow/siblingsNoBlank", "<Note>\nA.\n</Note>\n<Tip>\nB.\n</Tip>\n"},
		{"flow/deepNesting", "<Tabs>\n<Tab title=\"A\">\n<Steps>\n<Step title=\"S\">\n- item **bold**\n</Step>\n</Steps>\n</Tab>\n</Tabs>\n"},
		{"flow/emptyElement", "<div></div>\n\nAfter.\n"},
		{"flow/headingInDivWithId", "<div id=\"overview\">\n  ## Overview\n\n  Text under it.\n</div>\n\n## Next\n"},
		// Expressions, comments and ESM.
		{"expr/flow", "{1 + 1}\n"},
		{"expr/text", "The value is {1 + 1} here.\n"},
		{"expr/attribute", "<Card title={\"Computed\"}>\nBody.\n</Card>\n"},
		{"expr/commentFlow", "{/* a comment */}\n\nText.\n"},
		{"expr/commentText", "Kept {/* gone */} text.\n"},
		{"expr/commentOverLines", "{/*\n  gone\n  still gone\n*/}\n\nText.\n"},
		{"esm/exportConst", "export const answer = 42\n\n# Title\n\nBody.\n"},
		{"esm/exportOverLines", "export const data = {\n  a: 1,\n  b: [2, 3],\n}\n\nBody.\n"},
		{"esm/import", "import { X } from './x.js'\n\nBody.\n"},
		{"esm/proseLikeImport", "Import your data first.\n"},
		// Entities and escapes.
		{"entity/text", "Copyright &copy; 2026 &amp; more &#123; &#x7D;\n"},
		{"entity/inJSX", "<Note>\nA &amp; B &lt;tag&gt;\n</Note>\n"},
		{"escape/braces", "Use \\{ and \\} for braces, \\< for a less-than.\n"},
		// Lists and tables around components.
		{"list/componentInItem", "- item\n\n  <Note>In a list.</Note>\n\n- next\n"},
		{"list/componentAfterItemText", "1. Step one\n   <Tip>\n   A tip.\n   </Tip>\n2. Step two\n"},
		{"list/componentThenBlankBetweenItems", "- a\n  <Note>\n  x\n  </Note>\n\n- b\n"},
		{"list/componentWithBlankLinesInside", "- a\n  <Note>\n\n  x\n\n  </Note>\n- b\n"},
		{"list/oneLineComponentInItem", "- a\n  <Note>x</Note>\n- b\n"},
		{"list/componentInNestedItem", "- a\n  - b\n    <Tip>\n    t\n    </Tip>\n  - c\n- d\n"},
		{"list/blankBeforeComponentInItem", "- a\n\n  <Note>\n  x\n  </Note>\n- b\n"},
		{"list/componentThenTextInItem", "1. one\n   <Tip>\n   t\n   </Tip>\n   more\n2. two\n"},
		{"list/htmlInTightItem", "- a\n  <div>\n  x\n  </div>\n- b\n"},
		{"list/componentInSecondItemOnly", "- a\n- b\n  <Note>\n  x\n  </Note>\n- c\n"},
		{"list/componentThenParagraphAfterList", "- a\n  <Note>\n  x\n  </Note>\n\nAfter.\n"},
		{"list/componentAtTheEnd", "1. a\n   <Tip>\n   t\n   </Tip>"},
		{"list/fenceWithBlankInComponentInItem", "- a\n  <Note>\n  ```\n  x\n\n  y\n  ```\n  </Note>\n- b\n"},
		{"list/twoComponentsInItem", "- a\n  <Note>\n  x\n  </Note>\n  <Tip>\n  y\n  </Tip>\n- b\n"},
		{"list/selfClosingInItem", "- a\n  <Card title=\"T\" />\n- b\n"},
		{"list/itemsInComponent", "<Note>\n1. one\n2. two\n\n   continued\n</Note>\n"},
		{"table/afterComponent", "<Note>\nAbove.\n</Note>\n\n| a | b |\n| - | - |\n| 1 | 2 |\n"},
		// Indentation does not make code in MDX.
		{"indent/topLevel", "    indented text\n"},
		{"indent/afterParagraph", "Paragraph.\n\n    indented text\n"},
		// A long card group of cards written every way.
		{"cardGroup/mixed", cardGroup()},
		// Headings and their ids.
		{"heading/htmlTag", "<h2>Plain heading</h2>\n\nText.\n"},
		{"heading/setext", "Title\n=====\n\nText.\n"},
		// Thematic breaks, hard breaks, footnote-free GFM.
		{"gfm/strike", "~~gone~~ and www.example.com\n"},
		{"gfm/tasks", "- [x] done\n- [ ] open\n"},
		{"gfm/autolinkLiteral", "See https://example.com/path for more.\n"},
		{"break/hard", "line one  \nline two\n"},
		{"rule/afterComponent", "<Note>\nA.\n</Note>\n---\nB.\n"},
		// Deeper layouts authors write.
		{"deep/htmlInTabs", "<Tabs>\n  <Tab title=\"a\">\n    <div className=\"x\">\n      ### Deep\n\n      Text.\n    </div>\n  </Tab>\n</Tabs>\n"},
		{"deep/centeredImage", "<p align=\"center\">\n  <img src=\"/logo.png\" alt=\"Logo\" width=\"120\" />\n</p>\n\n# Project\n"},
		{"deep/detailsSummary", "<details>\n<summary>More</summary>\n\nHidden **text**.\n\n</details>\n"},
		{"deep/htmlTable", "<table>\n  <tr>\n    <td>One</td>\n    <td>Two</td>\n  </tr>\n</table>\n"},
		{"deep/fenceInComponent", "<Note>\n  ```bash\n  npm i\n    indented\n  ```\n</Note>\n"},
		{"deep/tildeFence", "~~~py\nprint(1)\n~~~\n"},
		{"deep/tabsIndent", "<Note>\n\tTabbed text.\n</Note>\n"},
		{"deep/manyBlankLines", "<Note>\n\n\n\nText.\n\n\n\n</Note>\n"},
		{"deep/headingThenComponent", "## Title\n<Note>Right under.</Note>\n"},
		{"deep/paragraphThenComponent", "Some text.\n<Note>\nRight under.\n</Note>\n"},
		{"deep/componentThenTable", "<Note>\nA.\n</Note>\n| a | b |\n| - | - |\n| 1 | 2 |\n"},
		{"deep/quoteWithComponent", "> <Note>Quoted note.</Note>\n"},
		{"deep/quoteWithComponentOverLines", "> <Note>\n> Quoted **note**.\n>\n> - item\n> </Note>\n\nAfter.\n"},
		{"deep/orderedFrom3", "3. three\n4. four\n"},
		{"deep/nestedLists", "- a\n  - b\n    - c\n- d\n"},
		{"deep/listInCardInGroup", "<CardGroup>\n  <Card title=\"A\">\n    - one\n    - two\n  </Card>\n</CardGroup>\n"},
		// Tags and attributes written every way.
		{"tag/selfClosingOverLines", "<Icon\n  icon=\"rocket\"\n  size={32}\n/>\n"},
		{"tag/greaterThanInString", "<Card title=\"a > b\">Body.</Card>\n"},
		{"tag/braceInExpressionString", "<Card title={\"}\"}>Body.</Card>\n"},
		{"tag/entityInAttribute", "<Card title=\"Fish &amp; chips\">Body.</Card>\n"},
		{"tag/booleanAttribute", "<Accordion title=\"T\" defaultOpen>\nBody.\n</Accordion>\n"},
		{"tag/memberName", "<Tree>\n<Tree.Folder name=\"app\">\n<Tree.File name=\"a.ts\" />\n</Tree.Folder>\n</Tree>\n"},
		{"text/strongAroundJSX", "**<Badge>new</Badge> feature**\n"},
		{"text/codeHoldsTag", "Write `<Note>` to add a note.\n"},
		{"text/twoElements", "<Badge>a</Badge> <Badge>b</Badge>\n"},
		{"text/backslashBreak", "line one\\\nline two\n"},
		{"text/escapedLessThan", "a \\< b and c \\> d\n"},
		{"text/elementThenText", "<b>Bold</b> starts this paragraph.\n"},
	}
	for _, c := range cases {
		add(c.name, c.src)
	}
	return docs
}

// cardGroup is a group of twelve cards written in each way authors do:
// one line, content on the next lines, a tag over lines, indented,
// with and without blank lines between.
func cardGroup() string {
	var b strings.Builder
	b.WriteString("<CardGroup cols={2}>\n")
	for i := range 12 {
		title := fmt.Sprintf("Card %d", i+1)
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "  <Card title=%q icon=\"star\">One line %d.</Card>\n", title, i)
		case 1:
			fmt.Fprintf(&b, "  <Card title=%q href=\"/c%d\">\n    Content %d with **bold**.\n  </Card>\n", title, i, i)
		case 2:
			fmt.Fprintf(&b, "  <Card\n    title=%q\n    icon=\"bolt\"\n  >\n    Content %d.\n  </Card>\n\n", title, i)
		case 3:
			fmt.Fprintf(&b, "<Card title=%q />\n", title)
		}
	}
	b.WriteString("</CardGroup>\n")
	return b.String()
}

// platformCase is MDX the platform reads differently from the reference
// compiler, with the tree the platform gives.
type platformCase struct {
	name, source, want, why string
}

// platformCases are checked against the platform's tree, not the
// compiler's.
func platformCases() []platformCase {
	return []platformCase{
		{"heading/customID", "## My section {#my-anchor}\n", `h2("My section")`,
			"the platform names a heading's id with {#id} (create/text.mdx); plain MDX refuses it as an expression"},
		{"heading/customIDInComponent", "<Note>\n## Inside {#inside}\n</Note>\n", `Note(h2("Inside"))`,
			"as above, in a component"},
	}
}
