package archtest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// handWritten are the pages written by hand: the README and the manual,
// and the provider guides tfplugindocs renders into docs/guides (docs/
// itself is generated and checked by scripts/docs.sh).
var handWritten = []string{"README.md", "manual/*.md", "templates/guides/*.md.tmpl"}

// topDirs are the folders a path in a page may start with; a path written
// in backticks that starts with one of them must exist.
var topDirs = []string{"docs/", "docsadmintest/", "examples/", "internal/", "manual/", "scripts/", "templates/", "testdata/", "tools/"}

// TestDocs_links: every link of the hand-written pages leads to a file of
// the repository (and its #anchor to a heading there), every repository
// path they name in backticks exists, and every `make` target they name is
// in GNUmakefile. Run by `make docs-check` and `make check`.
func TestDocs_links(t *testing.T) {
	root := filepath.Join("..", "..")
	targets, err := makeTargets(filepath.Join(root, "GNUmakefile"))
	if err != nil {
		t.Fatal(err)
	}
	var pages []string
	for _, g := range handWritten {
		m, err := filepath.Glob(filepath.Join(root, g))
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, m...)
	}
	if len(pages) < 3 {
		t.Fatalf("found only %d hand-written pages under %s", len(pages), root)
	}
	for _, p := range pages {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		for _, problem := range checkPage(root, rel, string(data), targets) {
			t.Errorf("%s: %s", rel, problem)
		}
	}
}

// TestDocs_checkPage: what the page check refuses.
func TestDocs_checkPage(t *testing.T) {
	root := t.TempDir()
	for name, body := range map[string]string{
		"manual/a.md":          "# A page\n\n## Its second part\n",
		"internal/x/x.go":      "package x\n",
		"GNUmakefile":          "build:\n\ttrue\n",
		"README.md":            "",
		"templates/guides/g.t": "",
	} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	targets, err := makeTargets(filepath.Join(root, "GNUmakefile"))
	if err != nil {
		t.Fatal(err)
	}
	good := "See [a](manual/a.md#its-second-part), [top](#title), `internal/x/x.go`, `make build` and [out](https://example.com/).\n\n# Title\n"
	if got := checkPage(root, "README.md", good, targets); len(got) > 0 {
		t.Errorf("a page whose links hold is refused: %q", got)
	}
	for _, tc := range []struct{ body, want string }{
		{"[a](manual/b.md)", `link "manual/b.md" leads to no file`},
		{"[a](manual/a.md#no-such-part)", `link "manual/a.md#no-such-part": manual/a.md has no heading "no-such-part"`},
		{"[a](#nowhere)", `link "#nowhere": README.md has no heading "nowhere"`},
		{"see `internal/y/y.go`", "`internal/y/y.go` names no file or folder of the repository"},
		{"run `make bench`", "`make bench` names no target of GNUmakefile"},
		{"```sh\nmake demo\n```", "`make demo` names no target of GNUmakefile"},
	} {
		got := strings.Join(checkPage(root, "README.md", tc.body, targets), "\n")
		if !strings.Contains(got, tc.want) {
			t.Errorf("%q: got %q, want %q", tc.body, got, tc.want)
		}
	}
}

var (
	linkRE = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	codeRE = regexp.MustCompile("`([^`\n]+)`")
	// makeRE finds a make command in backticks, makeLineRE one at the
	// start of a code block's line; "make" in prose is a verb.
	makeRE     = regexp.MustCompile("`make ([a-z][a-z0-9-]*)")
	makeLineRE = regexp.MustCompile(`^make ([a-z][a-z0-9-]*)`)
	headingRE  = regexp.MustCompile(`(?m)^#{1,6} (.+)$`)
	targetRE   = regexp.MustCompile(`(?m)^([a-z][a-z0-9 -]*):`)
)

// checkPage lists the broken links, paths and make targets of one page,
// rel being its path from root.
func checkPage(root, rel, body string, targets []string) []string {
	var problems []string
	for _, m := range linkRE.FindAllStringSubmatch(body, -1) {
		link := m[1]
		if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
			continue
		}
		file, anchor, _ := strings.Cut(link, "#")
		target := rel
		if file != "" {
			target = filepath.Join(filepath.Dir(rel), file)
			if _, err := os.Stat(filepath.Join(root, target)); err != nil {
				problems = append(problems, fmt.Sprintf("link %q leads to no file", link))
				continue
			}
		}
		if anchor == "" {
			continue
		}
		text := body
		if file != "" {
			data, err := os.ReadFile(filepath.Join(root, target))
			if err != nil {
				problems = append(problems, fmt.Sprintf("link %q: %v", link, err))
				continue
			}
			text = string(data)
		}
		if !slices.Contains(anchors(text), anchor) {
			problems = append(problems, fmt.Sprintf("link %q: %s has no heading %q", link, filepath.ToSlash(target), anchor))
		}
	}
	for _, m := range codeRE.FindAllStringSubmatch(body, -1) {
		p := strings.TrimSuffix(m[1], "/")
		if !isRepoPath(p) {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			problems = append(problems, fmt.Sprintf("`%s` names no file or folder of the repository", m[1]))
		}
	}
	named := makeRE.FindAllStringSubmatch(body, -1)
	inCode := false
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
		} else if m := makeLineRE.FindStringSubmatch(line); inCode && m != nil {
			named = append(named, m)
		}
	}
	for _, m := range named {
		if !slices.Contains(targets, m[1]) {
			problems = append(problems, fmt.Sprintf("`make %s` names no target of GNUmakefile", m[1]))
		}
	}
	return problems
}

// isRepoPath tells a path of the repository from a placeholder, a glob or
// a path somewhere else.
func isRepoPath(p string) bool {
	if strings.ContainsAny(p, " <>*{}$:=,|") {
		return false
	}
	for _, d := range topDirs {
		if strings.HasPrefix(p, d) {
			return true
		}
	}
	return false
}

// anchors are the ids GitHub gives a page's headings: lower case, spaces
// to hyphens, other punctuation dropped.
func anchors(page string) []string {
	var out []string
	inCode := false
	for _, line := range strings.Split(page, "\n") {
		if strings.HasPrefix(line, "```") {
			inCode = !inCode
			continue
		}
		m := headingRE.FindStringSubmatch(line)
		if inCode || m == nil {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 0x7f:
				b.WriteRune(r)
			}
		}
		out = append(out, b.String())
	}
	return out
}

// makeTargets are the targets GNUmakefile defines.
func makeTargets(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range targetRE.FindAllStringSubmatch(string(data), -1) {
		out = append(out, strings.Fields(m[1])...)
	}
	return out, nil
}
