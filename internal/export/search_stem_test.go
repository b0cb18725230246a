package export

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dop251/goja"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/machines"
)

// stemCases are words that exercise each rule of Porter2 (exceptions,
// the gener/commun/arsen regions, y as a consonant, every step's
// suffixes and their conditions), with the stems the published
// algorithm gives them.
var stemCases = map[string]string{
	"running": "run", "hopping": "hop", "hoped": "hope", "caresses": "caress", "ties": "tie", "cries": "cri",
	"gaps": "gap", "gas": "gas", "kiwis": "kiwi", "skies": "sky", "dying": "die", "news": "news",
	"generously": "generous", "communism": "communism", "arsenal": "arsenal", "consignment": "consign",
	"knackered": "knacker", "speed": "speed", "feed": "feed", "luxuriating": "luxuri", "happy": "happi",
	"say": "say", "by": "by", "youth": "youth", "enjoying": "enjoy", "inning": "inning", "proceed": "proceed",
	"configuration": "configur", "configured": "configur", "configuring": "configur", "relational": "relat",
	"rational": "ration", "hopefulness": "hope", "electrical": "electr", "adjustment": "adjust",
	"adoption": "adopt", "controlling": "control", "roll": "roll", "analogies": "analog", "fluently": "fluentli",
	"formative": "format", "deploy": "deploy", "deployments": "deploy", "webhooks": "webhook", "signature": "signatur",
	"a": "a", "is": "is", "api": "api", "v2": "v2", "café": "café", "ｘ": "ｘ",
}

// TestStem_jsAgreesWithGo runs search.js's stemmer (the query side, in
// the reader's browser) in goja against machines.Stem (the index side)
// over the known cases and every word of the repository's Markdown, test
// sites and the reference server's source (its comments are English): a word they stem apart is a word a reader cannot find.
func TestStem_jsAgreesWithGo(t *testing.T) {
	src, err := assets.ReadFile("assets/search.js")
	if err != nil {
		t.Fatal(err)
	}
	vm := goja.New()
	if err := vm.Set("window", vm.NewObject()); err != nil {
		t.Fatal(err)
	}
	if _, err := vm.RunString(string(src)); err != nil {
		t.Fatal(err)
	}
	var stem func(string) string
	if err := vm.ExportTo(vm.Get("window").ToObject(vm).Get("__docsSearchEngine").ToObject(vm).Get("stem"), &stem); err != nil {
		t.Fatal(err)
	}
	for w, want := range stemCases {
		if got := machines.Stem(w); got != want {
			t.Errorf("Go: stem(%q) = %q, want %q", w, got, want)
		}
	}
	words := map[string]bool{}
	for w := range stemCases {
		words[w] = true
	}
	repo := filepath.Join("..", "..")
	for _, dir := range []string{filepath.Join(repo, "docs"), filepath.Join(repo, "README.md"), "testdata", filepath.Join(repo, "internal", "demosite"), filepath.Join(repo, "internal", "apiserver")} {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !slices.Contains([]string{".md", ".mdx", ".yaml", ".json", ".go"}, filepath.Ext(p)) {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, w := range strings.FieldsFunc(strings.ToLower(string(b)), func(r rune) bool { return r < 'a' || r > 'z' }) {
				words[w] = true
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(words) < 3000 {
		t.Fatalf("only %d words to compare; the word list's sources moved", len(words))
	}
	differ := 0
	for w := range words {
		if js, goStem := stem(w), machines.Stem(w); js != goStem {
			differ++
			if differ <= 20 {
				t.Errorf("stem(%q): JS %q, Go %q", w, js, goStem)
			}
		}
	}
	t.Logf("%d words stemmed alike by search.js and machines.Stem, %d apart", len(words)-differ, differ)
}

// searchText is every script of the search index in export dir, for
// tests that look for what was indexed.
func searchText(t *testing.T, dir string) string {
	t.Helper()
	s := readOut(t, dir, "_static/search-index.js")
	shards, err := filepath.Glob(filepath.Join(dir, "_static", "search", "*.js"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range shards {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		s += string(b)
	}
	return s
}
