package archtest

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

const (
	module    = "github.com/docsadmin/terraform-provider-docsadmin"
	tablePath = "manual/architecture.md"
	lintPath  = ".golangci.yml"
	// rootRule is the depguard rule of the module's root package (main.go):
	// golangci-lint's configuration loader splits keys at dots, so the
	// rule cannot be named after the file.
	rootRule = "main"
	// unlistedRule is the rule that keeps a package without a rule of its
	// own to the standard library.
	unlistedRule = "unlisted-packages"
)

// graph maps a package, relative to the module ("." for the root), to
// the packages of the module it imports, sorted.
type graph map[string][]string

// row is one package's line of the table.
type row struct {
	imports, importers []string
}

// TestArchitecture: the table of manual/architecture.md and the
// allow-lists of .golangci.yml say what `go list` says.
func TestArchitecture(t *testing.T) {
	root := filepath.Join("..", "..")
	code := goList(t, root)
	table, err := readTable(filepath.Join(root, tablePath), code)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range checkTable(code, table) {
		t.Errorf("%s: %s", tablePath, p)
	}
	rules, err := readRules(filepath.Join(root, lintPath))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range checkRules(code, rules) {
		t.Errorf("%s: %s", lintPath, p)
	}
}

// TestCheck_wrongImport: an import that no row allows, and a package with
// no row or rule, are named, with the line to write.
func TestCheck_wrongImport(t *testing.T) {
	code := graph{
		".":                   {"internal/provider"},
		"internal/provider":   {"internal/redact"},
		"internal/redact":     nil,
		"internal/export/mdx": nil,
	}
	table := map[string]row{
		".":                   {imports: []string{"internal/provider"}},
		"internal/provider":   {imports: []string{"internal/redact"}, importers: []string{"."}},
		"internal/redact":     {importers: []string{"internal/provider"}},
		"internal/export/mdx": {},
	}
	rules := lintRules{}
	for p, r := range table {
		rules[ruleName(p)] = lintRule{Files: []string{fileGlob(p), "!$test"}, ListMode: "strict", Allow: allowList(r.imports)}
		rules[unlistedRule] = lintRule{Files: append(rules[unlistedRule].Files, "!"+fileGlob(p)), ListMode: "strict", Allow: []string{"$gostd"}}
	}
	if got := append(checkTable(code, table), checkRules(code, rules)...); len(got) > 0 {
		t.Fatalf("a consistent graph is refused:\n%s", strings.Join(got, "\n"))
	}

	wrong := graph{}
	for p, imps := range code {
		wrong[p] = imps
	}
	wrong["internal/export/mdx"] = []string{"internal/redact"}
	wrong["internal/newpkg"] = nil
	got := strings.Join(append(checkTable(wrong, table), checkRules(wrong, rules)...), "\n")
	for _, want := range []string{
		"internal/export/mdx imports `redact`, which its row does not list",
		"internal/redact is imported by `export/mdx`, which its row does not list",
		"internal/newpkg has no row",
		"internal/export/mdx: the allow-list of its rule does not hold " + module + "/internal/redact$",
		"internal/newpkg has no rule",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the wrong import is not reported as %q; got:\n%s", want, got)
		}
	}
}

// goList returns the module's import graph of shipped code: test files
// are left out, as the table and the allow-lists leave them out.
func goList(t *testing.T, root string) graph {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	g := graph{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		p := relative(f[0])
		g[p] = nil
		for _, imp := range f[1:] {
			if imp == module || strings.HasPrefix(imp, module+"/") {
				g[p] = append(g[p], relative(imp))
			}
		}
		sort.Strings(g[p])
	}
	if len(g) == 0 {
		t.Fatal("go list reported no packages")
	}
	return g
}

func relative(importPath string) string {
	if importPath == module {
		return "."
	}
	return strings.TrimPrefix(importPath, module+"/")
}

var (
	rowLine = regexp.MustCompile("^\\| `([^`]+)` \\|.*\\| (.*) \\| (.*) \\|$")
	name    = regexp.MustCompile("`([^`]+)`")
)

// readTable reads the package table. A name in the two right-hand
// columns is a package relative to internal/ or to the module, or main.go;
// known tells which packages there are, so that a misspelt name is an
// error rather than a silent mismatch.
func readTable(path string, known graph) (map[string]row, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	rows := map[string]row{}
	for i, line := range strings.Split(string(data), "\n") {
		m := rowLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		var r row
		for c, dst := range []*[]string{&r.imports, &r.importers} {
			for _, n := range name.FindAllStringSubmatch(m[2+c], -1) {
				p, ok := resolve(n[1], known)
				if !ok {
					return nil, fmt.Errorf("%s:%d: %q names no package of the module", path, i+1, n[1])
				}
				*dst = append(*dst, p)
			}
			sort.Strings(*dst)
		}
		if _, dup := rows[m[1]]; dup {
			return nil, fmt.Errorf("%s:%d: a second row for %s", path, i+1, m[1])
		}
		rows[m[1]] = r
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no package table", path)
	}
	return rows, nil
}

func resolve(n string, known graph) (string, bool) {
	if n == "main.go" {
		return ".", true
	}
	for _, p := range []string{"internal/" + n, n} {
		if _, ok := known[p]; ok {
			return p, true
		}
	}
	return "", false
}

// short is how the table's right-hand columns name a package.
func short(p string) string {
	if p == "." {
		return "main.go"
	}
	return strings.TrimPrefix(p, "internal/")
}

func cell(ps []string) string {
	if len(ps) == 0 {
		return "none"
	}
	var b []string
	for _, p := range ps {
		b = append(b, "`"+short(p)+"`")
	}
	return strings.Join(b, ", ")
}

// checkTable lists where the table and the code disagree.
func checkTable(code graph, table map[string]row) []string {
	importers := graph{}
	for p, imps := range code {
		for _, i := range imps {
			importers[i] = append(importers[i], p)
		}
	}
	var problems []string
	for _, p := range slices.Sorted(maps.Keys(code)) {
		r, ok := table[p]
		if !ok {
			problems = append(problems, fmt.Sprintf("%s has no row; write | `%s` | its one job | %s | %s |", p, p, cell(code[p]), cell(sorted(importers[p]))))
			continue
		}
		problems = append(problems, differ(p, "imports", code[p], r.imports)...)
		problems = append(problems, differ(p, "is imported by", sorted(importers[p]), r.importers)...)
	}
	for _, p := range slices.Sorted(maps.Keys(table)) {
		if _, ok := code[p]; !ok {
			problems = append(problems, fmt.Sprintf("the row of %s names no package of the module", p))
		}
	}
	return problems
}

func differ(p, verb string, code, row []string) []string {
	var out []string
	for _, c := range code {
		if !slices.Contains(row, c) {
			out = append(out, fmt.Sprintf("%s %s `%s`, which its row does not list", p, verb, short(c)))
		}
	}
	for _, r := range row {
		if !slices.Contains(code, r) {
			out = append(out, fmt.Sprintf("%s: its row says it %s `%s`, which it does not", p, verb, short(r)))
		}
	}
	return out
}

// lintRule is the part of a depguard rule this test reads.
type lintRule struct {
	Files    []string `yaml:"files"`
	ListMode string   `yaml:"list-mode"`
	Allow    []string `yaml:"allow"`
}

type lintRules map[string]lintRule

func readRules(path string) (lintRules, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cfg struct {
		Linters struct {
			Settings struct {
				Depguard struct {
					Rules lintRules `yaml:"rules"`
				} `yaml:"depguard"`
			} `yaml:"settings"`
		} `yaml:"linters"`
	}
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return cfg.Linters.Settings.Depguard.Rules, nil
}

func ruleName(p string) string {
	if p == "." {
		return rootRule
	}
	return p
}

// fileGlob is the files a package's rule covers: its own directory's, not
// its subpackages'.
func fileGlob(p string) string {
	if p == "." {
		return "$all"
	}
	return "**/" + p + "/*.go"
}

func allowList(imports []string) []string {
	out := []string{"$gostd"}
	for _, i := range imports {
		out = append(out, module+"/"+i+"$")
	}
	return out
}

// checkRules lists where the depguard rules and the code disagree: every
// package has a strict rule over its own non-test files whose allow-list
// holds exactly its imports of ours, each exact, and is excepted from the
// rule for unlisted packages.
func checkRules(code graph, rules lintRules) []string {
	var problems []string
	unlisted, ok := rules[unlistedRule]
	if !ok || !strings.EqualFold(unlisted.ListMode, "strict") || !slices.Equal(unlisted.Allow, []string{"$gostd"}) {
		problems = append(problems, fmt.Sprintf("no rule %s, strict and allowing $gostd only, for packages without a rule of their own", unlistedRule))
	}
	for _, p := range slices.Sorted(maps.Keys(code)) {
		r, ok := rules[ruleName(p)]
		if !ok {
			problems = append(problems, fmt.Sprintf("%s has no rule; write %s: files [%q, \"!$test\"], list-mode strict, allow %q and its third-party modules", p, ruleName(p), fileGlob(p), allowList(code[p])))
			continue
		}
		if !strings.EqualFold(r.ListMode, "strict") {
			problems = append(problems, fmt.Sprintf("%s: its rule is not in strict mode (a deny-list fails open)", p))
		}
		if !slices.Contains(r.Files, fileGlob(p)) || !slices.Contains(r.Files, "!$test") {
			problems = append(problems, fmt.Sprintf("%s: its rule's files are not %q without \"!$test\"", p, fileGlob(p)))
		}
		var ours []string
		for _, a := range r.Allow {
			if a == module || strings.HasPrefix(a, module+"/") {
				if !strings.HasSuffix(a, "$") {
					problems = append(problems, fmt.Sprintf("%s: %s in its allow-list allows every package below it; end it with $", p, a))
				}
				ours = append(ours, relative(strings.TrimSuffix(a, "$")))
			}
		}
		for _, i := range code[p] {
			if !slices.Contains(ours, i) {
				problems = append(problems, fmt.Sprintf("%s: the allow-list of its rule does not hold %s/%s$", p, module, i))
			}
		}
		for _, o := range ours {
			if !slices.Contains(code[p], o) {
				problems = append(problems, fmt.Sprintf("%s: the allow-list of its rule holds %s, which it does not import (and its row does not list)", p, o))
			}
		}
		if p != "." && !slices.Contains(unlisted.Files, "!"+fileGlob(p)) {
			problems = append(problems, fmt.Sprintf("%s is not excepted from %s: add \"!%s\"", p, unlistedRule, fileGlob(p)))
		}
	}
	return problems
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	sort.Strings(s)
	return s
}
