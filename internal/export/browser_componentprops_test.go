package export

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/theme"
)

// TestBrowser_componentPropsBothModes opens a page of badges in every
// colour the platform offers (filled and outlined), a typed card and a
// tooltip in Chromium from file://, in light and dark mode: each badge's
// text reads at WCAG AA's 4.5:1 on the badge as the reader sees it (its
// tinted background over the page's), and the tooltip shows its
// headline and tip on keyboard focus.
func TestBrowser_componentPropsBothModes(t *testing.T) {
	bin := chromium(t)
	var page strings.Builder
	page.WriteString("# Props\n\n")
	for _, c := range []string{"gray", "blue", "green", "yellow", "orange", "red", "purple", "white", "surface", "white-destructive", "surface-destructive"} {
		page.WriteString(`<Badge color="` + c + `">` + c + `</Badge> <Badge color="` + c + `" stroke>` + c + "</Badge>\n")
	}
	page.WriteString("\n<Card title=\"Careful\" type=\"warning\">\n  Typed.\n</Card>\n\n" +
		"Read the <Tooltip headline=\"API\" tip=\"Application Programming Interface\" cta=\"Guide\" href=\"/index\">API</Tooltip> docs.\n")
	src := mapFS(map[string]string{
		"docs.json": `{"name": "P", "navigation": {"pages": ["index"]}}`,
		"index.mdx": page.String(),
	})
	dir, _ := exportTo(t, Request{Source: src, Kind: KindAirGapped})
	b, ctx, must := browserSession(t, bin, 90*time.Second)
	u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "index.html")}).String()
	must(b.call("Page.navigate", map[string]any{"url": u}, nil))
	must(b.waitFor(ctx, `document.readyState === "complete" && document.documentElement.classList.contains("js")`))
	// seen paints a colour over another on a canvas: what the reader
	// sees of a translucent colour (color-mix with transparent).
	const badges = `(() => {
		const cv = document.createElement("canvas"); cv.width = cv.height = 1;
		const x = cv.getContext("2d", {willReadFrequently: true});
		const seen = (under, c) => { x.fillStyle = under; x.fillRect(0, 0, 1, 1); x.fillStyle = c; x.fillRect(0, 0, 1, 1);
			return "#" + Array.from(x.getImageData(0, 0, 1, 1).data.slice(0, 3)).map(v => v.toString(16).padStart(2, "0")).join(""); };
		const page = seen("#000", getComputedStyle(document.body).backgroundColor);
		return Array.from(document.querySelectorAll(".prose .badge")).map(el => {
			const s = getComputedStyle(el), bg = seen(page, s.backgroundColor);
			return [el.className, seen(bg, s.color), bg];
		});
	})()`
	for _, mode := range []string{"light", "dark"} {
		must(b.eval(`document.documentElement.dataset.theme = "`+mode+`"`, nil))
		var got [][3]string
		must(b.eval(badges, &got))
		if len(got) != 22 {
			t.Fatalf("%s mode: %d badges, want 22", mode, len(got))
		}
		for _, g := range got {
			if r, ok := theme.ContrastRatio(g[1], g[2]); !ok || r < theme.MinTextContrast {
				t.Errorf("%s mode: %q: %s on %s reads at %.2f:1", mode, g[0], g[1], g[2], r)
			}
		}
		var typed string
		must(b.eval(`getComputedStyle(document.querySelector(".card-typed")).borderTopColor`, &typed))
		if typed == "" || typed == "rgba(0, 0, 0, 0)" {
			t.Errorf("%s mode: the typed card has no border colour", mode)
		}
		must(b.eval(`document.querySelector(".tooltip").focus()`, nil))
		var tip []string
		must(b.eval(`(t => [getComputedStyle(t).display, getComputedStyle(t, "::before").content, getComputedStyle(t, "::after").content,
			getComputedStyle(t.querySelector(".tooltip-cta"), "::after").content])(document.querySelector(".tooltip-tip"))`, &tip))
		if len(tip) != 4 || tip[0] != "flex" || tip[1] != `"API"` || tip[2] != `"Application Programming Interface"` || !strings.HasPrefix(tip[3], `"Guide`) {
			t.Errorf("%s mode: the focused tooltip shows %q", mode, tip)
		}
		must(b.eval(`document.activeElement.blur()`, nil))
	}
}
