package machines

import (
	"encoding/xml"
	"strings"
	"testing"
)

// TestFeed: each update is an entry titled by its label, or one entry
// per heading in it, or the one its rss prop gives; an entry's text is
// the update's prose without code, components, tags or description; the
// feed is XML, whatever the text holds.
func TestFeed(t *testing.T) {
	content := `<h2 id="intro">Intro</h2><p>Not an update.</p>` +
		`<section class="update" id="march"><div class="update-label">March</div>` +
		`<div class="update-tags"><span class="update-tag">API</span></div><div class="update-desc">v2</div>` +
		`<div class="update-body"><p>Faster <strong>exports</strong>.</p><pre><code>go run .</code></pre>` +
		`<div class="callout callout-note"><p>A note.</p></div><ul><li>One</li><li>Two ]]&gt; end</li></ul></div></section>` +
		`<section class="update" id="february"><div class="update-label">February</div><div class="update-body">` +
		`<h2 id="new-search">New search</h2><p>Answers at once.</p><h3 id="fixes">Fixes</h3><p>Links.</p></div></section>` +
		`<section class="update" id="january" data-rss='{"title":"January - redesign","description":"A new look."}'>` +
		`<div class="update-label">January</div><div class="update-body"><p>Hidden from the feed.</p></div></section>`
	feed := Feed([]byte(content), "Changelog", "What changed", "https://docs.example.com/changelog")
	var parsed struct {
		Channel struct {
			Title       string `xml:"title"`
			Description string `xml:"description"`
			Link        string `xml:"link"`
			Items       []struct {
				Title       string `xml:"title"`
				Link        string `xml:"link"`
				GUID        string `xml:"guid"`
				Description string `xml:"description"`
			} `xml:"item"`
		} `xml:"channel"`
	}
	if err := xml.Unmarshal(feed, &parsed); err != nil {
		t.Fatal(err)
	}
	ch := parsed.Channel
	if ch.Title != "Changelog" || ch.Description != "What changed" || ch.Link != "https://docs.example.com/changelog" {
		t.Errorf("channel: %+v", ch)
	}
	want := []struct{ title, id, text string }{
		{"March", "march", "Faster exports.\nOne\nTwo ]]> end"},
		{"New search", "new-search", "Answers at once."},
		{"Fixes", "fixes", "Links."},
		{"January - redesign", "january", "A new look."},
	}
	if len(ch.Items) != len(want) {
		t.Fatalf("%d entries, want %d:\n%s", len(ch.Items), len(want), feed)
	}
	for i, w := range want {
		it := ch.Items[i]
		link := "https://docs.example.com/changelog#" + w.id
		if it.Title != w.title || it.Link != link || it.GUID != link || it.Description != w.text {
			t.Errorf("entry %d: %+v, want %s %s %q", i, it, w.title, link, w.text)
		}
	}
	if strings.Contains(string(feed), "lastBuildDate") || strings.Contains(string(feed), "Not an update") {
		t.Errorf("the feed holds a build date or what is not an update:\n%s", feed)
	}
	if Feed([]byte(`<p>No updates.</p>`), "T", "D", "https://x.test/") != nil {
		t.Error("a page without updates has a feed")
	}
}

// TestFeedOut: the feed is at the page's address with /rss.xml appended.
func TestFeedOut(t *testing.T) {
	for in, want := range map[string]string{
		"changelog.html":        "changelog/rss.xml",
		"guides/changelog.html": "guides/changelog/rss.xml",
		"index.html":            "rss.xml",
		"guides/index.html":     "guides/rss.xml",
	} {
		if got := FeedOut(in); got != want {
			t.Errorf("FeedOut(%q) = %q, want %q", in, got, want)
		}
	}
}
