package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
)

// BenchmarkSearchFigures measures the offline search of an exported
// bundle named by SEARCH_BUNDLE (the 2,000-page corpus of
// internal/export/bench: run it with -runs 1 -work DIR, then DIR/.../out):
// index bytes per page and, in Chromium from file://, the time from the
// first keystroke to the first results. It also builds, next to the
// shipped index, a prototype of a chunked index (page list plus one
// word shard per first letter) and times loading what one query needs
// of it, for the comparison. The figures are logged (-v) and the shipped
// index's size and first-results time reported as metrics; it skips
// without SEARCH_BUNDLE. One iteration is the whole measurement:
//
//	SEARCH_BUNDLE=DIR/.../out go test -run '^$' -bench BenchmarkSearchFigures -benchtime 1x -v ./internal/export/
func BenchmarkSearchFigures(b *testing.B) {
	for b.Loop() {
		searchFigures(b)
	}
}

func searchFigures(b *testing.B) {
	dir := os.Getenv("SEARCH_BUNDLE")
	if dir == "" {
		b.Skip("SEARCH_BUNDLE not set")
	}
	bin := chromium(b)
	raw, err := os.ReadFile(filepath.Join(dir, "_static", "search-index.js"))
	if err != nil {
		b.Fatal(err)
	}
	var entries []searchEntry
	js, vocab, _ := bytes.Cut(bytes.TrimPrefix(raw, []byte("window.__docsSearchIndex=")), []byte(";\nwindow.__docsSearchWords="))
	if err := json.Unmarshal(js, &entries); err != nil {
		b.Fatal(err)
	}
	b.Logf("shipped index: %d bytes for %d pages, %d bytes a page (its word list %d bytes)", len(raw), len(entries), len(raw)/len(entries), len(vocab))
	b.ReportMetric(float64(len(raw)/len(entries)), "index-B/page")
	page := ""
	for _, e := range entries {
		if !strings.Contains(e.URL, "api") {
			page = e.URL
			break
		}
	}
	u := (&url.URL{Scheme: "file", Path: filepath.Join(dir, filepath.FromSlash(page))}).String()

	br, ctx, must := browserSession(b, bin, 5*time.Minute)
	for run := 0; run < 3; run++ {
		must(br.call("Page.navigate", map[string]any{"url": u}, nil))
		must(br.waitFor(ctx, `document.readyState === "complete" && document.documentElement.classList.contains("js")`))
		var first [3]string
		for i, q := range []string{"config service", "confg servce", "deplo"} {
			qs, _ := json.Marshal(q)
			must(br.eval(`(function () { var i = document.getElementById("search-input"); i.value = `+string(qs)+`; i.dispatchEvent(new Event("input")); })()`, nil))
			must(br.waitFor(ctx, `document.getElementById("search-results").dataset.q === `+string(qs)))
			var got [4]string
			must(br.eval(`(function (b) { return [b.dataset.firstMs || "", b.dataset.buildMs || "", b.dataset.searchMs || "", String(b.querySelectorAll(".r-group").length)]; })(document.getElementById("search-results"))`, &got))
			if i == 0 {
				first = [3]string{got[0], got[1], got[2]}
			} else {
				b.Logf("run %d: %q: search %s ms, %s pages", run, q, got[2], got[3])
			}
		}
		b.Logf("run %d: first results %s ms after the keystroke (index build %s ms, search %s ms)", run, first[0], first[1], first[2])
		if ms, err := strconv.ParseFloat(first[0], 64); err == nil && run == 2 {
			b.ReportMetric(ms, "first-results-ms")
		}
	}

	// The chunked prototype: the page list with headings (no text), and
	// for each first letter the words starting with it and where they
	// occur, in the shipped index's codes.
	post := map[string][]int{}
	type meta struct {
		T string   `json:"t"`
		U string   `json:"u"`
		H []string `json:"h"`
	}
	metas := make([]meta, len(entries))
	word := regexp.MustCompile(`[\p{L}\p{N}]+`)
	for i, e := range entries {
		metas[i] = meta{T: e.Title, U: e.URL}
		seen := map[string]bool{}
		add := func(s string, code int) {
			for _, w := range word.FindAllString(strings.ToLower(s), -1) {
				k := w + "\x00" + fmt.Sprint(code)
				if !seen[k] {
					seen[k] = true
					post[w] = append(post[w], code)
				}
			}
		}
		add(e.Title, i*4096)
		for j, x := range e.Parts {
			metas[i].H = append(metas[i].H, x[0], x[1])
			base := (i*1024 + j + 1) * 4
			add(x[0], base+1)
			add(x[2], base+2)
		}
	}
	shards := map[string]map[string][]int{}
	for w, codes := range post {
		k := "0"
		if r := []rune(w)[0]; r < 128 && unicode.IsLetter(r) {
			k = string(r)
		}
		if shards[k] == nil {
			shards[k] = map[string][]int{}
		}
		shards[k][w] = codes
	}
	write := func(name string, v any) int {
		data, err := json.Marshal(v)
		if err != nil {
			b.Fatal(err)
		}
		data = append(append([]byte("window.__sx=window.__sx||{};window.__sx["+fmt.Sprintf("%q", name)+"]="), data...), ";\n"...)
		if err := os.WriteFile(filepath.Join(dir, "_static", "sx-"+name+".js"), data, 0o644); err != nil {
			b.Fatal(err)
		}
		return len(data)
	}
	total := write("meta", metas)
	metaBytes := total
	var keys []string
	for k := range shards {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	sizes := map[string]int{}
	for _, k := range keys {
		sizes[k] = write(k, shards[k])
		total += sizes[k]
	}
	b.Logf("chunked prototype: %d bytes in all (%d a page): page list %d, shards c %d and s %d; snippets would need the text besides",
		total, total/len(entries), metaBytes, sizes["c"], sizes["s"])
	var r struct {
		Result struct {
			Value float64 `json:"value"`
		} `json:"result"`
	}
	for run := 0; run < 3; run++ {
		must(br.call("Page.navigate", map[string]any{"url": u}, nil))
		must(br.waitFor(ctx, `document.readyState === "complete"`))
		must(br.call("Runtime.evaluate", map[string]any{"awaitPromise": true, "returnByValue": true, "expression": `new Promise(function (done) {
			var t0 = performance.now(), want = ["meta", "c", "s"], left = want.length;
			want.forEach(function (n) {
				var s = document.createElement("script");
				s.src = document.documentElement.getAttribute("data-root") + "_static/sx-" + n + ".js";
				s.onload = function () {
					if (--left) return;
					var hits = {};
					[["c", "config"], ["s", "service"]].forEach(function (p) {
						var sh = window.__sx[p[0]];
						Object.keys(sh).forEach(function (w) { if (w.lastIndexOf(p[1], 0) === 0) sh[w].forEach(function (c) { hits[Math.floor(c / 4096)] = 1; }); });
					});
					done(performance.now() - t0);
				};
				document.head.appendChild(s);
			});
		})`}, &r))
		b.Logf("chunked prototype run %d: page list and two shards loaded and looked up in %.1f ms (no snippets, no typo in a first letter)", run, r.Result.Value)
	}
	for _, k := range keys {
		_ = os.Remove(filepath.Join(dir, "_static", "sx-"+k+".js"))
	}
	_ = os.Remove(filepath.Join(dir, "_static", "sx-meta.js"))
}
