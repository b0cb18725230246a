package components

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// The platform's components beyond the first set: audience, views,
// tiles, prompts, colour palettes, the side panel, GitHub cards and
// columns of free content.

// moreComponent draws the components of this file; ok is false for a
// name it does not know.
func moreComponent(t *tag, l *Labels) (openHTML, closeHTML markup.HTML, ok bool) {
	var b markup.Builder
	switch t.name {
	case "Visibility":
		// for="agents" is for the Markdown copies only; on the page it
		// is hidden. Anything else (humans, or unset) shows.
		if strings.TrimSpace(t.attr("for")) == "agents" {
			return markup.Const(`<div class="visibility-agents" hidden>`), markup.Const(`</div>`), true
		}
		return markup.Const(`<div class="visibility-humans">`), markup.Const(`</div>`), true
	case "View":
		b.Markup(`<section class="view-panel"`)
		b.Attr("data-title", t.attr("title"))
		b.Markup(`><p class="view-title">`)
		b.HTML(iconOf(t))
		b.HTML(t.text("title"))
		b.Markup(`</p>`)
		return b.Fragment(), markup.Const(`</section>`), true
	case "Tile":
		return tile(t)
	case "Prompt":
		b.Markup(`<div class="prompt"><div class="prompt-head">`)
		b.HTML(iconOf(t))
		b.Markup(`<span class="prompt-desc">`)
		b.HTML(t.text("description"))
		b.Markup(`</span>`)
		if promptAction(t, "copy") {
			b.Markup(`<button class="copy prompt-copy" type="button">`)
			b.Text(l.Copy)
			b.Markup(`</button>`)
		}
		b.Markup(`</div><div class="prompt-body">`)
		return b.Fragment(), markup.Const(`</div></div>`), true
	case "Color":
		variant := "compact"
		if t.attr("variant") == "table" {
			variant = "table"
		}
		b.Markup(`<div`)
		b.Attr("class", "color-palette color-"+variant)
		b.Markup(`>`)
		return b.Fragment(), markup.Const(`</div>`), true
	case "Color.Row":
		b.Markup(`<div class="color-row"><p class="color-row-title">`)
		b.HTML(t.text("title"))
		b.Markup(`</p><div class="color-row-items">`)
		return b.Fragment(), markup.Const(`</div></div>`), true
	case "Color.Item":
		return colorItem(t)
	case "Panel":
		return markup.Const(`<aside class="side-panel">`), markup.Const(`</aside>`), true
	case "GitHub.Repo":
		return githubRepo(t)
	case "Column":
		return markup.Const(`<div class="column">`), markup.Const(`</div>`), true
	}
	return markup.HTML{}, markup.HTML{}, false
}

// tile is a link whose children are its preview, with a title and a
// description under it.
func tile(t *tag) (markup.HTML, markup.HTML, bool) {
	var b markup.Builder
	if u, ok := componentURL(t.attr("href")); ok && t.attr("href") != "" {
		b.Markup(`<a class="tile" href="`)
		b.URL(u)
		b.Markup(`">`)
	} else {
		b.Markup(`<div class="tile">`)
	}
	b.Markup(`<div class="tile-preview">`)
	var c markup.Builder
	c.Markup(`</div>`)
	if t.has("title") {
		c.Markup(`<p class="tile-title">`)
		c.HTML(t.text("title"))
		c.Markup(`</p>`)
	}
	if t.has("description") {
		c.Markup(`<p class="tile-desc">`)
		c.HTML(t.text("description"))
		c.Markup(`</p>`)
	}
	if t.attr("href") != "" {
		c.Markup(`</a>`)
	} else {
		c.Markup(`</div>`)
	}
	return b.Fragment(), c.Fragment(), true
}

// promptAction reports whether a Prompt offers action (its actions
// attribute, a JSON array; copy when unset). Opening in Cursor needs the
// platform's service and is not offered.
func promptAction(t *tag, action string) bool {
	v, ok := t.attrs["actions"]
	if !ok {
		return action == "copy"
	}
	var actions []string
	if json.Unmarshal([]byte(v), &actions) != nil {
		return action == "copy"
	}
	for _, a := range actions {
		if a == action {
			return true
		}
	}
	return false
}

// cssColor admits what CSS colour values are written with (#hex, names,
// rgb(), hsl(), oklch(), var()): nothing that could close the style
// attribute's declaration or load anything.
var cssColor = regexp.MustCompile(`^[#a-zA-Z0-9(),.%/ -]{1,64}$`)

// isCSSColor reports whether v may be written as a colour in a style
// attribute (cssColor, and no url()).
func isCSSColor(v string) bool { return cssColor.MatchString(v) && !strings.Contains(v, "url") }

// colorItem is a swatch with its name and value; value may be a JSON
// object with light and dark (the evaluator sends an object prop so),
// shown by the page's theme.
func colorItem(t *tag) (markup.HTML, markup.HTML, bool) {
	light, dark := strings.TrimSpace(t.attr("value")), ""
	var themed struct{ Light, Dark string }
	if strings.HasPrefix(light, "{") && json.Unmarshal([]byte(light), &themed) == nil {
		light, dark = strings.TrimSpace(themed.Light), strings.TrimSpace(themed.Dark)
	}
	if dark == "" {
		dark = light
	}
	var b markup.Builder
	b.Markup(`<div class="color-item"><span class="color-swatch"`)
	if isCSSColor(light) && isCSSColor(dark) {
		b.Attr("style", "--swatch:"+light+";--swatch-dark:"+dark)
	}
	b.Markup(`></span><span class="color-name">`)
	b.Text(t.attr("name"))
	b.Markup(`</span><code class="color-value">`)
	if light == dark {
		b.Text(light)
	} else {
		b.Text(light + " / " + dark)
	}
	b.Markup(`</code>`)
	return b.Fragment(), markup.Const(`</div>`), true
}

// githubRepo is a card linking to a repository, named as owner/name or
// by its URL. The platform fills in its description and counts from
// GitHub's API when the page loads; a bundle makes no such request.
func githubRepo(t *tag) (markup.HTML, markup.HTML, bool) {
	slug := strings.TrimSpace(t.attr("repo"))
	slug = strings.TrimPrefix(strings.TrimPrefix(slug, "https://"), "http://")
	slug = strings.Trim(strings.TrimPrefix(slug, "github.com/"), "/")
	variant := "inset"
	if t.attr("variant") == "flat" {
		variant = "flat"
	}
	var b markup.Builder
	b.Markup(`<div`)
	b.Attr("class", strings.TrimSpace("github-repo github-"+variant+" "+t.attr("className")))
	owner, name, ok := strings.Cut(slug, "/")
	if ok = ok && repoPart.MatchString(owner) && repoPart.MatchString(name); ok {
		b.Attr("data-github-repo", owner+"/"+name)
	}
	b.Markup(`>`)
	if !ok {
		b.Text(slug)
		return b.Fragment(), markup.Const(`</div>`), true
	}
	if u, ok := componentURL("https://github.com/" + owner + "/" + name); ok {
		b.Markup(`<a class="github-repo-link" href="`)
		b.URL(u)
		b.Markup(`">`)
		b.Text(owner + "/" + name)
		b.Markup(`</a>`)
	}
	// Filled in by app.js from GitHub's API where the page's policy lets
	// it read from there.
	b.Markup(`<p class="github-repo-desc" hidden></p><p class="github-repo-counts" hidden><span class="github-stars"></span><span class="github-forks"></span></p>`)
	return b.Fragment(), markup.Const(`</div>`), true
}

// GitHubRepoAttr marks a GitHub card that names a repository (its value
// owner/name), whose details app.js reads from GitHubAPI.
const GitHubRepoAttr = ` data-github-repo="`

// GitHubAPI is the origin of GitHub's API, which the card reads from.
const GitHubAPI = "https://api.github.com"

// repoPart is an owner or repository name as GitHub allows it.
var repoPart = regexp.MustCompile(`^[A-Za-z0-9._-]{1,100}$`)
