package components

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// drawCase is one component drawn with attrs: want are fragments of its
// opening and closing HTML (joined by "|"), in order; not must not be in
// them (and holds warns when the attributes are warned about).
type drawCase struct {
	name      string
	attrs     map[string]string
	want, not []string
}

func checkDrawn(t *testing.T, cases []drawCase) {
	t.Helper()
	for _, tt := range cases {
		open, closing := Render(tt.name, tt.attrs, nil)
		got := open.String() + "|" + closing.String()
		rest := got
		for _, w := range tt.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("%s %v: no %s (in order) in %s", tt.name, tt.attrs, w, got)
				break
			}
			rest = rest[i+len(w):]
		}
		for _, n := range tt.not {
			if strings.Contains(got, n) {
				t.Errorf("%s %v: %s in %s", tt.name, tt.attrs, n, got)
			}
		}
		warned := len(Unrendered(tt.name, tt.attrs, "p.mdx", 1)) > 0
		if want := slices.Contains(tt.not, warns); warned != want {
			t.Errorf("%s %v: warned %t, want %t: %q", tt.name, tt.attrs, warned, want, Unrendered(tt.name, tt.attrs, "p.mdx", 1))
		}
	}
}

// warns, in a drawCase's not, says the case is one Unrendered warns
// about; every other case draws all its attributes without a warning.
const warns = "(warns)"

// TestRender_badge: every prop of the Badge page draws: the colours,
// sizes and shapes as classes (nothing for the defaults or a value the
// platform does not take), stroke, disabled, an icon and className.
func TestRender_badge(t *testing.T) {
	checkDrawn(t, []drawCase{
		{"Badge", nil, []string{`<span class="badge">`, `|</span>`}, nil},
		{"Badge", map[string]string{"color": "surface-destructive", "size": "lg", "shape": "pill"},
			[]string{`<span class="badge badge-surface-destructive badge-lg badge-pill">`}, nil},
		{"Badge", map[string]string{"color": "blue", "stroke": "true", "disabled": "true", "className": " mt-2  beta "},
			[]string{`<span class="badge badge-blue badge-stroke badge-disabled mt-2 beta" aria-disabled="true">`}, nil},
		{"Badge", map[string]string{"size": "md", "shape": "rounded", "color": "gray", "stroke": "false"},
			[]string{`<span class="badge badge-gray">`}, []string{"badge-md", "badge-rounded", "stroke"}},
		{"Badge", map[string]string{"icon": "circle-check"}, []string{`<span class="badge">`, `data-icon`}, nil},
	})
}

// TestRender_icon: an Icon's size and colour are its style (a value that
// is not a colour is left out), className its classes.
func TestRender_icon(t *testing.T) {
	checkDrawn(t, []drawCase{
		{"Icon", map[string]string{"icon": "flag", "size": "32", "color": "#FF5733", "className": "big"},
			[]string{`<span class="icon big" style="--icon-size:32px;color:#FF5733" role="img" aria-label="flag">`}, nil},
		{"Icon", map[string]string{"icon": "flag", "color": "red;background:url(x)"}, []string{`<span class="icon" role="img"`}, []string{"style=", warns}},
	})
}

// TestRender_callouts: each kind draws with its class and glyph; a
// Callout's colour is its style only when it is a colour.
func TestRender_callouts(t *testing.T) {
	var cases []drawCase
	for name, kind := range callouts {
		cases = append(cases, drawCase{name, nil, []string{`<div class="callout callout-` + kind + `" role="note">`, `<div class="callout-body">`, `|</div></div>`}, nil})
	}
	cases = append(cases,
		drawCase{"Callout", map[string]string{"icon": "key", "iconType": "regular", "color": "#FFC107"},
			[]string{`style="--callout:#FFC107"`, `<span class="callout-icon">`, `data-icon`}, nil},
		drawCase{"Callout", map[string]string{"color": `#fff" onclick="x`}, []string{`<div class="callout callout-callout" role="note">`}, []string{"style", "onclick", warns}})
	checkDrawn(t, cases)
}

// TestRender_card: the Card page's props: horizontal, a typed card's
// callout colours and default glyph, the icon colour, the call to
// action and the arrow (external links by default, or as arrow says).
func TestRender_card(t *testing.T) {
	checkDrawn(t, []drawCase{
		{"Card", map[string]string{"title": "Note card", "type": "note"},
			[]string{`<div class="card card-typed callout-note">`, `<span class="card-icon"><svg`, `<p class="card-title">Note card</p>`}, nil},
		{"Card", map[string]string{"title": "H", "icon": "star", "color": "#FF6B6B", "horizontal": "true"},
			[]string{`<div class="card card-horizontal">`, `<span class="card-icon" style="color:#FF6B6B">`}, nil},
		{"Card", map[string]string{"title": "Link", "href": "/components/columns", "arrow": "true", "cta": "Click here"},
			[]string{`<a class="card-title card-link" href="/components/columns">Link</a>`, `<span class="card-arrow" aria-hidden="true">`,
				`<div class="card-body">`, `|</div><span class="card-cta">Click here</span></div>`}, nil},
		{"Card", map[string]string{"title": "Out", "href": "https://example.com"}, []string{`card-arrow`}, []string{"card-cta"}},
		{"Card", map[string]string{"title": "Out", "href": "https://example.com", "arrow": "false"}, nil, []string{"card-arrow"}},
		{"Card", map[string]string{"title": "In", "href": "/in"}, nil, []string{"card-arrow"}},
		{"Card", map[string]string{"title": "No link", "cta": "Go"}, []string{`<p class="card-title">No link</p>`}, []string{"card-cta"}},
		{"Card", map[string]string{"title": "T", "type": "fancy"}, []string{`<div class="card">`}, []string{"callout-", warns}},
	})
}

// TestRender_columns: cols from 1 to 4; anything else draws 2 (and is
// warned about).
func TestRender_columns(t *testing.T) {
	checkDrawn(t, []drawCase{
		{"Columns", map[string]string{"cols": "3"}, []string{`<div class="card-group cols-3">`, `|</div>`}, nil},
		{"CardGroup", map[string]string{"cols": "1"}, []string{`<div class="card-group cols-1">`}, nil},
		{"Columns", nil, []string{`<div class="card-group cols-2">`}, nil},
		{"Columns", map[string]string{"cols": "5"}, []string{`<div class="card-group cols-2">`}, []string{warns}},
		{"Column", nil, []string{`<div class="column">|</div>`}, nil},
	})
}

// TestRender_accordion: description, id and defaultOpen.
func TestRender_accordion(t *testing.T) {
	checkDrawn(t, []drawCase{
		{"Accordion", map[string]string{"title": "Start", "description": "First steps", "id": "start-here", "defaultOpen": "true"},
			[]string{`<details class="accordion" id="start-here" open><summary><span class="accordion-head"><span class="accordion-title">Start</span><span class="accordion-desc">First steps</span></span></summary>`, `|</div></details>`}, nil},
		{"Accordion", map[string]string{"title": "Plain", "defaultOpen": "false"}, []string{`<details class="accordion"><summary>Plain</summary>`}, []string{" open", "id="}},
		{"AccordionGroup", nil, []string{`<div class="accordion-group">`}, nil},
		{"Expandable", map[string]string{"title": "user", "defaultOpen": "true"}, []string{`<details class="expandable" open>`, `Show user`, `Hide user`}, nil},
	})
}

// TestRender_steps: titleSize (on Steps and on a Step), stepNumber, id
// and noAnchor.
func TestRender_steps(t *testing.T) {
	checkDrawn(t, []drawCase{
		{"Steps", map[string]string{"titleSize": "h3"}, []string{`<ol class="steps steps-title-h3">`}, nil},
		{"Steps", map[string]string{"titleSize": "p"}, []string{`<ol class="steps">`}, nil},
		{"Step", map[string]string{"title": "Install", "titleSize": "h2", "stepNumber": "4", "id": "install"},
			[]string{`<li class="step" data-step="4"><h2 class="step-title" id="install">Install<a class="step-anchor" href="#install" aria-label="Link to this section">`, `</a></h2><div class="step-body">`, `|</div></li>`}, nil},
		{"Step", map[string]string{"title": "Quiet", "id": "q", "noAnchor": "true"}, []string{`<li class="step" id="q">`, `<p class="step-title">Quiet</p>`}, []string{"step-anchor"}},
		{"Step", map[string]string{"title": "Icon", "icon": "rocket"}, []string{`<li class="step step-with-icon"><span class="step-icon">`}, nil},
	})
}

// TestRender_tabbed: Tabs' defaultTabIndex, sync and borderBottom, a
// Tab's id, and the dropdown of code groups and examples.
func TestRender_tabbed(t *testing.T) {
	checkDrawn(t, []drawCase{
		{"Tabs", map[string]string{"defaultTabIndex": "1", "sync": "false", "borderBottom": "true"},
			[]string{`<div class="tabs tabs-border" data-tabs data-default="1" data-sync="false">`}, nil},
		{"Tabs", map[string]string{"sync": "true", "defaultTabIndex": "0"}, []string{`<div class="tabs" data-tabs>`}, []string{"data-sync", "data-default"}},
		{"Tab", map[string]string{"title": "Python", "id": "py", "icon": "python"}, []string{`<section class="tab-panel" id="py" data-title="Python"><p class="tab-title">`, `Python</p>`}, nil},
		{"CodeGroup", map[string]string{"dropdown": "true"}, []string{`<div class="code-group tabs-dropdown" data-tabs data-dropdown>`}, nil},
		{"CodeGroup", nil, []string{`<div class="code-group" data-tabs>`}, []string{"dropdown"}},
		{"RequestExample", map[string]string{"dropdown": "true"}, []string{`<div class="example example-request tabs-dropdown" data-tabs data-dropdown><p class="example-title">Request example</p>`}, nil},
		{"ResponseExample", nil, []string{`<div class="example example-response" data-tabs><p class="example-title">Response example</p>`}, nil},
	})
}

// TestRender_frame: the hint before the frame, the caption with its
// inline Markdown (an unsafe link keeps its text only).
func TestRender_frame(t *testing.T) {
	checkDrawn(t, []drawCase{
		{"Frame", map[string]string{"hint": "Get a permit first.", "caption": "**Note:** see the [guide](https://example.com/g) and `x_y` *now*"},
			[]string{`<p class="frame-hint">Get a permit first.</p><figure class="frame">|<figcaption><strong>Note:</strong> see the <a href="https://example.com/g">guide</a> and <code>x_y</code> <em>now</em></figcaption></figure>`}, nil},
		{"Frame", map[string]string{"caption": "[x](javascript:alert(1)) 2 * 3 * 4 <b>"}, []string{`<figcaption>x) 2 * 3 * 4 &lt;b&gt;</figcaption>`}, []string{"javascript", "<em>"}},
		{"Frame", nil, []string{`<figure class="frame">|</figure>`}, []string{"figcaption", "frame-hint"}},
	})
}

// TestRender_fields: a ResponseField's pre and post labels, and the
// pills of both fields.
func TestRender_fields(t *testing.T) {
	checkDrawn(t, []drawCase{
		{"ResponseField", map[string]string{"name": "id", "type": "string", "required": "true", "deprecated": "true", "default": "x", "pre": `["GET"]`, "post": `['beta', 'v2']`},
			[]string{`<span class="field-label">GET</span><code class="field-name">id</code><span class="field-label">beta</span><span class="field-label">v2</span>`,
				`<span class="field-type">string</span>`, `field-required`, `field-deprecated`, `<code>x</code>`}, nil},
		{"ParamField", map[string]string{"header": "Authorization", "type": "string"}, []string{`id="field-authorization"`, `<span class="field-in">header</span>`}, nil},
	})
}

// TestRender_tooltip: the tip, its headline and call to action are
// drawn from attributes (no text of their own in the line); an unsafe
// href gives no link.
func TestRender_tooltip(t *testing.T) {
	checkDrawn(t, []drawCase{
		{"Tooltip", map[string]string{"tip": "Application Programming Interface", "headline": "API", "cta": "Read the guide", "href": "/api-reference"},
			[]string{`<span class="tooltip" tabindex="0">|<span class="tooltip-tip" role="tooltip" data-headline="API" data-tip="Application Programming Interface"><a class="tooltip-cta" href="/api-reference" aria-label="Read the guide"></a></span></span>`}, nil},
		{"Tooltip", map[string]string{"tip": `a "quoted" <tip>`, "href": "javascript:alert(1)"}, []string{`data-tip="a &#34;quoted&#34; &lt;tip&gt;"`}, []string{"<a", "data-headline"}},
	})
}

// TestRender_update: label (its anchor), tags and description.
func TestRender_update(t *testing.T) {
	checkDrawn(t, []drawCase{
		{"Update", map[string]string{"label": "2024-10-11", "description": "v0.1.0", "tags": `["Mintlify","API"]`},
			[]string{`<section class="update" id="2024-10-11" data-tags="[&#34;Mintlify&#34;,&#34;API&#34;]"><div class="update-label">2024-10-11</div><div class="update-tags"><span class="update-tag">Mintlify</span><span class="update-tag">API</span></div><div class="update-desc">v0.1.0</div><div class="update-body">`}, nil},
	})
}

// TestRender_tree: folders open or fixed, highlight, and the tree's
// highlight colour (nothing else of its style).
func TestRender_tree(t *testing.T) {
	checkDrawn(t, []drawCase{
		{"Tree", map[string]string{"style": `{ "--tree-highlight": "rgb(59 130 246)" }`}, []string{`<ul class="tree" style="--tree-highlight:rgb(59 130 246)">`}, nil},
		{"Tree", map[string]string{"style": `--tree-highlight: #f00; color: red`}, []string{`<ul class="tree" style="--tree-highlight:#f00">`}, []string{"color:", warns}},
		{"Tree.Folder", map[string]string{"name": "app", "defaultOpen": "true", "highlight": "true"}, []string{`<li class="tree-folder tree-highlight"><details open><summary>app</summary><ul>`, `|</ul></details></li>`}, nil},
		{"Tree.Folder", map[string]string{"name": "fixed", "openable": "false"}, []string{`<li class="tree-folder tree-fixed"><span class="tree-name">fixed</span><ul>`, `|</ul></li>`}, []string{"details"}},
		{"Tree.File", map[string]string{"name": "page.tsx", "highlight": "true"}, []string{`<li class="tree-file tree-highlight">page.tsx`}, nil},
	})
}

// TestUnrendered: each attribute the export does not draw as written
// is a warning naming the page and line; drawn ones are not.
func TestUnrendered(t *testing.T) {
	tests := []struct {
		name  string
		attrs map[string]string
		want  []string
	}{
		{"Badge", map[string]string{"color": "blue", "size": "xs", "shape": "pill", "stroke": "", "disabled": "", "className": "x", "icon": "a", "iconType": "solid"}, nil},
		{"Card", map[string]string{"title": "T", "key": "1", "colour": "red"}, []string{`<Card> on line 7 of guide/a.mdx: "colour" is not a prop the platform documents for it; the export ignores it`}},
		{"Update", map[string]string{"label": "v1", "rss": `{"title": "x"}`}, nil},
		{"Update", map[string]string{"label": "v1", "rss": `"loud"`}, []string{`rss="\"loud\"" is not drawn: not an object with a title or a description`}},
		{"ParamField", map[string]string{"query": "q", "placeholder": "10"}, nil},
		{"Badge", map[string]string{"color": "pink", "size": "huge"}, []string{`color="pink" is not drawn: the platform takes gray, blue,`, `size="huge" is not drawn: the platform takes xs, sm, md, lg`}},
		{"Callout", map[string]string{"color": "url(x)"}, []string{`color="url(x)" is not drawn: not a CSS colour`}},
		{"Columns", map[string]string{"cols": "6"}, []string{`cols="6" is not drawn: the platform takes 1 to 4 columns`}},
		{"Steps", map[string]string{"titleSize": "h1"}, []string{`titleSize="h1" is not drawn`}},
		{"Prompt", map[string]string{"description": "d", "actions": `["copy","cursor"]`}, []string{`"cursor" opens the platform's service`}},
		{"Tree", map[string]string{"style": `{"color": "red"}`}, []string{`only a --tree-highlight colour is drawn`}},
		{"Update", map[string]string{"label": "v", "tags": "[1, 2]"}, []string{`tags="[1, 2]" is not drawn: not a list of strings`}},
		{"NotOurs", map[string]string{"x": "y"}, nil},
	}
	for _, tt := range tests {
		got := Unrendered(tt.name, tt.attrs, "guide/a.mdx", 7)
		if len(got) != len(tt.want) {
			t.Errorf("%s %v: %d warnings, want %d: %q", tt.name, tt.attrs, len(got), len(tt.want), got)
			continue
		}
		for i, w := range tt.want {
			if !strings.Contains(got[i], w) || !strings.HasPrefix(got[i], "<"+tt.name+"> on line 7 of guide/a.mdx: ") {
				t.Errorf("%s: warning %q does not say %q", tt.name, got[i], w)
			}
		}
	}
}

// TestProps_everyNameDocumented: Props knows every component Render
// draws, so none of their attributes escapes Unrendered.
func TestProps_everyNameDocumented(t *testing.T) {
	for _, n := range Names {
		if _, ok := documented[n]; !ok {
			t.Errorf("%s has no documented props", n)
		}
	}
}

// refComponents are the components whose props each of the platform's
// component pages documents.
var refComponents = map[string][]string{
	"accordions": {"Accordion"}, "badge": {"Badge"}, "callouts": {"Callout"}, "cards": {"Card"},
	"code-groups": {"CodeGroup"}, "color": {"Color", "Color.Row", "Color.Item"}, "columns": {"Columns"},
	"examples": {"RequestExample", "ResponseExample"}, "expandables": {"Expandable"},
	"fields": {"ParamField", "ResponseField"}, "frames": {"Frame"}, "github": {"GitHub.Repo"}, "icons": {"Icon"},
	"panel": {"Panel"}, "prompt": {"Prompt"}, "responses": {"ResponseField"}, "steps": {"Steps", "Step"},
	"tabs": {"Tabs", "Tab"}, "tiles": {"Tile"}, "tooltips": {"Tooltip"}, "tree": {"Tree.Folder", "Tree.File"},
	"update": {"Update"}, "view": {"View"}, "visibility": {"Visibility"},
}

var (
	propField = regexp.MustCompile(`(?m)^<(?:ResponseField name|ParamField body)="([^"]+)"`)
	iconProp  = regexp.MustCompile(`(?m)^<Icons(?:Optional|Required) />`)
)

// TestProps_coverTheReferencePages reads the platform's component pages
// (beside the repository, as the corpus tests do): every prop a page
// documents in its properties is one Props knows for that page's
// components, so a page the platform changes shows up here.
func TestProps_coverTheReferencePages(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "..", "shared", "reference", "platform-format", "components")
	pages, _ := filepath.Glob(filepath.Join(dir, "*.mdx"))
	if len(pages) == 0 {
		t.Skipf("the platform's component pages are not at %s", dir)
	}
	checked := 0
	for _, p := range pages {
		page := strings.TrimSuffix(filepath.Base(p), ".mdx")
		comps, ok := refComponents[page]
		if !ok {
			continue // index, banner (docs.json), mermaid-diagrams (a fence)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		i := strings.Index(src, "\n## Prop")
		if i < 0 {
			i = strings.Index(src, "\n## Steps properties") // steps: one section per component
		}
		if i < 0 {
			i = strings.Index(src, "\n## Tabs properties")
		}
		if i < 0 {
			i = strings.Index(src, "\n### Properties") // fields
			if i >= 0 {
				i = strings.Index(src, "\n## Parameter field")
			}
		}
		props := []string{}
		if i >= 0 {
			for _, m := range propField.FindAllStringSubmatch(src[i:], -1) {
				props = append(props, strings.FieldsFunc(strings.ReplaceAll(m[1], " or ", ","), func(r rune) bool { return r == ',' || r == ' ' })...)
			}
			if iconProp.MatchString(src[i:]) {
				props = append(props, "icon", "iconType")
			}
		}
		if page == "code-groups" {
			props = append(props, "dropdown") // documented in prose: "using the `dropdown` prop"
		}
		for _, prop := range props {
			if prop == "children" || prop == "response" {
				continue
			}
			known := false
			for _, c := range comps {
				known = known || slices.Contains(Props(c), prop)
			}
			if !known {
				t.Errorf("%s.mdx documents %q, which Props(%v) does not know", page, prop, comps)
			}
			checked++
		}
	}
	t.Logf("%d documented props of %d pages checked", checked, len(pages))
	if checked < 80 {
		t.Errorf("only %d props found on the pages: the reading of the pages is broken", checked)
	}
}
