package export

import (
	"slices"
	"testing"
	"time"
)

// TestBrowser_treeKeyboard: from file://, a file tree written as a
// Markdown list is used with the keyboard only, as the platform's tree
// component documents: the first item is the one in the tab order;
// ArrowDown and ArrowUp move over the items shown, ArrowRight opens a
// closed folder and then enters it, ArrowLeft closes an open folder and
// then goes to the parent, Home and End, Enter toggles, * opens the
// folders beside the item, and typing jumps to an item by its first
// letters. Folders say whether they are expanded.
func TestBrowser_treeKeyboard(t *testing.T) {
	bin := chromium(t)
	index := "---\ntitle: Tree\n---\n\n<FileTree>\n\n- docs/\n  - index.mdx\n  - guides/\n    - setup.mdx\n- src/\n- lib/\n- readme.md\n\n</FileTree>\n"
	dir, _ := exportTo(t, Request{Kind: KindAirGapped, Source: mapFS(map[string]string{
		"docs.json": `{"name": "T", "navigation": {"pages": ["index"]}}`,
		"index.mdx": index,
	})})
	b, ctx, must := browserSession(t, bin, 60*time.Second)
	must(b.openFile(ctx, dir, "index.html"))
	must(b.waitFor(ctx, `document.querySelector("ul.tree[role=tree]") !== null`))
	focused := func() string {
		var s string
		must(b.eval(`(() => { const a = document.activeElement; const li = a && a.closest("li"); return li ? (a.textContent.trim().split("\n")[0] + (li.hasAttribute("aria-expanded") ? "|" + li.getAttribute("aria-expanded") : "")) : "none"; })()`, &s))
		return s
	}
	var tabbable []string
	must(b.eval(`[...document.querySelectorAll("ul.tree [tabindex='0']")].map(e => e.textContent.trim().split("\n")[0])`, &tabbable))
	if !slices.Equal(tabbable, []string{"docs"}) {
		t.Fatalf("items in the tab order: %q, want the first only", tabbable)
	}
	must(b.eval(`document.querySelector("ul.tree summary").focus()`, nil))
	steps := []struct{ key, want string }{
		{"ArrowDown", "index.mdx"},
		{"ArrowDown", "guides|true"},
		{"ArrowLeft", "guides|false"}, // closes it
		{"ArrowDown", "src|false"},    // setup.mdx is hidden now
		{"ArrowUp", "guides|false"},
		{"ArrowRight", "guides|true"}, // opens it
		{"ArrowRight", "setup.mdx"},   // enters it
		{"ArrowLeft", "guides|true"},  // to the parent
		{"End", "readme.md"},
		{"Home", "docs|true"},
		{"Enter", "docs|false"},
		{"Enter", "docs|true"},
		{"r", "readme.md"},
		{"ArrowUp", "lib|false"},
		{"*", "lib|true"},
		{" ", "lib|false"}, // Space toggles, once
	}
	for _, s := range steps {
		if len(s.key) == 1 {
			must(b.typeChar(s.key))
		} else {
			must(b.key(s.key))
		}
		if got := focused(); got != s.want {
			t.Fatalf("after %s: focus on %q, want %q", s.key, got, s.want)
		}
	}
	var open []bool
	must(b.eval(`[...document.querySelectorAll("ul.tree > li > details")].map(d => d.open)`, &open))
	if !slices.Equal(open, []bool{true, true, false}) {
		t.Errorf("after * and Space: top-level folders open %v, want the first two", open)
	}
}

// typeChar types one printable character on the focused element.
func (b *browser) typeChar(c string) error {
	for _, t := range []string{"keyDown", "keyUp"} {
		ev := map[string]any{"type": t, "key": c}
		if t == "keyDown" {
			ev["text"] = c
		}
		if err := b.call("Input.dispatchKeyEvent", ev, nil); err != nil {
			return err
		}
	}
	return nil
}
