package export

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func githubCardSource(kind Kind) Request {
	return Request{Kind: kind, Source: mapFS(map[string]string{
		"docs.json": `{"name": "G", "navigation": {"pages": ["index", "plain"]}}`,
		"index.mdx": "# Repo\n\n<GitHub.Repo repo=\"https://github.com/acme/widgets\" variant=\"flat\" />\n",
		"plain.mdx": "# Plain\n\nNo card.\n",
	})}
}

// TestExport_githubCardReadsGitHubWhereAllowed: a page with a GitHub card
// may read from GitHub's API (its policy names it); a page without one
// may not; an air-gapped bundle never does, and says so.
func TestExport_githubCardReadsGitHubWhereAllowed(t *testing.T) {
	dir, _ := exportTo(t, githubCardSource(KindCloud))
	page, plain := readFile(t, filepath.Join(dir, "index.html")), readFile(t, filepath.Join(dir, "plain.html"))
	if !strings.Contains(page, `data-github-repo="acme/widgets"`) || !strings.Contains(page, " https://api.github.com; object-src") {
		t.Errorf("index.html: no card to fill or no policy for it:\n%s", page)
	}
	if strings.Contains(plain, "api.github.com") {
		t.Errorf("plain.html may read from GitHub")
	}
	req := githubCardSource(KindAirGapped)
	var warnings []Warning
	req.Warn = func(w Warning) { warnings = append(warnings, w) }
	dir, _ = exportTo(t, req)
	if page := readFile(t, filepath.Join(dir, "index.html")); strings.Contains(page, "api.github.com") {
		t.Errorf("an air-gapped page may read from GitHub")
	}
	found := false
	for _, w := range warnings {
		found = found || w.Kind == WarnRemote && strings.Contains(w.Message, "index.mdx") && strings.Contains(w.Message, "GitHub.Repo")
	}
	if !found {
		t.Errorf("no warning for the card's missing details: %+v", warnings)
	}
}

// TestBrowser_githubCardFilled: from file://, the card shows the
// description and counts GitHub's API answers (Chromium's request
// interception stands in for GitHub; nothing leaves the machine).
func TestBrowser_githubCardFilled(t *testing.T) {
	bin := chromium(t)
	dir, _ := exportTo(t, githubCardSource(KindCloud))
	b, ctx, must := browserSession(t, bin, 60*time.Second)
	var paused []string
	var asked []string
	b.onEvent = func(method string, params json.RawMessage) {
		if method != "Fetch.requestPaused" {
			return
		}
		var p struct {
			RequestID string `json:"requestId"`
			Request   struct{ URL string }
		}
		if json.Unmarshal(params, &p) == nil {
			paused = append(paused, p.RequestID)
			asked = append(asked, p.Request.URL)
		}
	}
	must(b.call("Fetch.enable", map[string]any{"patterns": []map[string]any{{"urlPattern": "https://api.github.com/*"}}}, nil))
	u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "index.html")}).String()
	must(b.call("Page.navigate", map[string]any{"url": u}, nil))
	answer := base64.StdEncoding.EncodeToString([]byte(`{"description": "Widgets for everyone", "stargazers_count": 12345, "forks_count": 67}`))
	for deadline := time.Now().Add(30 * time.Second); len(asked) == 0 && time.Now().Before(deadline); {
		must(b.eval("1", nil)) // reads the events that came meanwhile
	}
	for _, id := range paused {
		must(b.call("Fetch.fulfillRequest", map[string]any{"requestId": id, "responseCode": 200, "body": answer,
			"responseHeaders": []map[string]string{{"name": "Content-Type", "value": "application/json"}, {"name": "Access-Control-Allow-Origin", "value": "*"}}}, nil))
	}
	if len(asked) != 1 || asked[0] != "https://api.github.com/repos/acme/widgets" {
		t.Fatalf("requests to GitHub: %q", asked)
	}
	must(b.waitFor(ctx, `!document.querySelector(".github-repo-counts").hidden`))
	var got struct{ Desc, Stars, Forks string }
	must(b.eval(`({Desc: document.querySelector(".github-repo-desc").textContent, Stars: document.querySelector(".github-stars").textContent,
		Forks: document.querySelector(".github-forks").textContent})`, &got))
	if got.Desc != "Widgets for everyone" || got.Stars != "★ 12.3k" || got.Forks != "67 forks" {
		t.Errorf("card: %+v", got)
	}
}
