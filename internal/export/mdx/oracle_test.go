package mdx

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/testutil"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/renderer/html"
	nethtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The differential test: every document of a corpus is parsed by this
// package and by the reference MDX compiler (@mdx-js/mdx with remark-gfm,
// pinned in tools/mdxoracle), and the two trees must be the same.
//
// What is compared: the element structure and the text. An element is
// its HTML tag, or for JSX the component's name as written (this side
// draws each of the platform's components as an element carrying its
// name instead of its HTML, so the comparison sees what the page is
// made of, not how the theme draws it). Attributes are not compared.
// Text is compared with each run of white space as one space, text that
// is only white space left out, and the white space at the start and
// end of an element's content trimmed: HTML shows those the same. A
// JavaScript expression the compiler leaves for run time compares as its
// source in braces, which is what this side shows for an expression it
// does not evaluate. ESM statements and comments are not content.
//
// Corpora: the generated grammar cases (oracle_cases_test.go), the pages
// of the export's fixtures, and the platform's own pages when the
// shared reference folder is beside the repository. A page that imports
// a snippet is left out of the comparison (the compiler does not read
// imports; this side inlines them) and counted.
//
// Where the trees differ is printed, every document, as the two trees
// from the first difference on. The documents that differ today are
// listed in testdata/oracle/known-differences.txt with the reason; the
// test fails when a document that agreed differs, and when a listed one
// agrees (the list must stay true). DOCSADMIN_ORACLE_UPDATE=1 rewrites
// the list from the run.

// knownDifferences is the list of documents whose trees differ today.
const knownDifferences = "testdata/oracle/known-differences.txt"

type oracleDoc struct {
	corpus, name, source string
}

func TestOracle_agreesWithTheReferenceCompiler(t *testing.T) {
	testutil.SkipShort(t, "the reference MDX compiler (make mdx-oracle)")
	script := oracleScript(t)

	docs := grammarCases()
	root := moduleRoot(t)
	fixtures, imports := pagesUnder(t, filepath.Join(root, "internal", "export", "testdata"), "fixture")
	docs = append(docs, fixtures...)
	ref := filepath.Join(root, "..", "shared", "reference", "platform-format")
	var refImports int
	if _, err := os.Stat(ref); err == nil {
		var refDocs []oracleDoc
		refDocs, refImports = pagesUnder(t, ref, "reference")
		docs = append(docs, refDocs...)
	} else {
		t.Logf("the platform's reference pages are not at %s: that corpus is not compared", ref)
	}

	for _, c := range platformCases() {
		if got := serialize(normalize(ourTree(t, c.source))); got != c.want {
			t.Errorf("%s, where the platform differs from MDX (%s):\n  ours: %s\n  want: %s", c.name, c.why, got, c.want)
		}
	}

	theirs := runOracle(t, script, docs)
	known := readKnown(t)
	type tally struct{ agree, differ, refused int }
	tallies := map[string]*tally{}
	var differing []string
	for _, d := range docs {
		tl := tallies[d.corpus]
		if tl == nil {
			tl = &tally{}
			tallies[d.corpus] = tl
		}
		res := theirs[d.name]
		if res.Error != "" {
			tl.refused++
			if d.corpus == "grammar" {
				t.Errorf("%s: the reference compiler refuses a grammar case, so it tests nothing: %s", d.name, res.Error)
			} else {
				t.Logf("%s: the reference compiler refuses the page (%s)", d.name, res.Error)
			}
			continue
		}
		want := serialize(normalize(asBrowserReads(t, res.tree)))
		got := serialize(normalize(ourTree(t, d.source)))
		if got == want {
			tl.agree++
			if _, ok := known[d.name]; ok {
				t.Errorf("%s: now agrees with the reference compiler; take it off %s", d.name, knownDifferences)
			}
			continue
		}
		tl.differ++
		differing = append(differing, d.name)
		at := firstDifference(got, want)
		msg := fmt.Sprintf("%s differs from the reference compiler:\n  ours:   %s\n  theirs: %s", d.name, excerpt(got, at), excerpt(want, at))
		if _, ok := known[d.name]; ok {
			t.Log(msg)
		} else {
			t.Error("a new difference: " + msg)
		}
	}
	names := make([]string, 0, len(tallies))
	for c := range tallies {
		names = append(names, c)
	}
	sort.Strings(names)
	for _, c := range names {
		tl := tallies[c]
		compared := tl.agree + tl.differ
		t.Logf("agreement on %s: %d of %d documents (%.1f %%); the compiler refused %d",
			c, tl.agree, compared, 100*float64(tl.agree)/float64(max(compared, 1)), tl.refused)
	}
	t.Logf("left out because they import snippets: %d fixture pages, %d reference pages", imports, refImports)
	if os.Getenv("DOCSADMIN_ORACLE_UPDATE") != "" {
		writeKnown(t, known, differing)
	}
}

// oracleScript returns the reference compiler's script: DOCSADMIN_MDX_ORACLE,
// or what tools/mdxoracle/build.sh installs (a no-op once cached).
func oracleScript(t *testing.T) string {
	t.Helper()
	if s := os.Getenv("DOCSADMIN_MDX_ORACLE"); s != "" {
		return s
	}
	out, err := exec.Command(filepath.Join(moduleRoot(t), "tools", "mdxoracle", "build.sh")).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			err = fmt.Errorf("%w: %s", err, ee.Stderr)
		}
		if os.Getenv("CI") != "" {
			t.Fatalf("the reference MDX compiler could not be installed: %v", err)
		}
		t.Skipf("the reference MDX compiler could not be installed (make mdx-oracle): %v", err)
	}
	return strings.TrimSpace(string(out))
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// pagesUnder returns the MDX and Markdown pages under dir, their
// frontmatter taken off, and how many were left out for importing a
// snippet.
func pagesUnder(t *testing.T, dir, corpus string) (docs []oracleDoc, imports int) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || (filepath.Ext(p) != ".mdx" && filepath.Ext(p) != ".md") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		_, body := SplitFrontmatter(b)
		if strings.Contains(esmOf(string(body)), "import ") {
			imports++
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		docs = append(docs, oracleDoc{corpus: corpus, name: corpus + "/" + filepath.ToSlash(rel), source: string(body)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return docs, imports
}

type oracleResult struct {
	Name  string          `json:"name"`
	Tree  json.RawMessage `json:"tree"`
	Error string          `json:"error"`
	tree  []*tnode
}

// runOracle runs the reference compiler once over every document.
func runOracle(t *testing.T, script string, docs []oracleDoc) map[string]oracleResult {
	t.Helper()
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	for _, d := range docs {
		if err := enc.Encode(map[string]string{"name": d.name, "source": d.source}); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", script)
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the reference compiler: %v: %s", err, stderr.Bytes())
	}
	res := map[string]oracleResult{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var r oracleResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("the reference compiler's answer: %v", err)
		}
		if r.Error == "" {
			var err error
			if r.tree, err = decodeOracleTree(r.Tree); err != nil {
				t.Fatalf("%s: the reference compiler's tree: %v", r.Name, err)
			}
		}
		res[r.Name] = r
	}
	if len(res) != len(docs) {
		t.Fatalf("the reference compiler answered %d of %d documents", len(res), len(docs))
	}
	return res
}

// tnode is a node of a compared tree: an element (name and children) or
// text.
type tnode struct {
	name string
	text string
	kids []*tnode
	elem bool
}

func decodeOracleTree(raw json.RawMessage) ([]*tnode, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, err
	}
	out := make([]*tnode, 0, len(items))
	for _, it := range items {
		var s string
		if json.Unmarshal(it, &s) == nil {
			out = append(out, &tnode{text: s})
			continue
		}
		var o struct {
			E *string         `json:"e"`
			C json.RawMessage `json:"c"`
			X *string         `json:"x"`
		}
		if err := json.Unmarshal(it, &o); err != nil {
			return nil, err
		}
		switch {
		case o.X != nil:
			if n := expressionText(*o.X); n != nil {
				out = append(out, n)
			}
		case o.E != nil && *o.E == "":
			// A fragment: its children stand in its place.
			kids, err := decodeOracleTree(o.C)
			if err != nil {
				return nil, err
			}
			out = append(out, kids...)
		case o.E != nil:
			kids, err := decodeOracleTree(o.C)
			if err != nil {
				return nil, err
			}
			out = append(out, &tnode{name: *o.E, kids: kids, elem: true})
		}
	}
	return out, nil
}

// expressionText is what an expression left for run time shows: nothing
// for a comment, the value of a string or number literal, else its
// source in braces (what this side shows for an expression it does not
// evaluate).
func expressionText(src string) *tnode {
	code := strings.TrimSpace(src)
	for strings.HasPrefix(code, "/*") {
		end := strings.Index(code, "*/")
		if end < 0 {
			break
		}
		code = strings.TrimSpace(code[end+2:])
	}
	if code == "" {
		return nil
	}
	var lit any
	if json.Unmarshal([]byte(code), &lit) == nil {
		switch v := lit.(type) {
		case string:
			return &tnode{text: v}
		case float64:
			return &tnode{text: code}
		}
	}
	return &tnode{text: "{" + src + "}"}
}

// oracleMarkdown parses as the export does and writes plain HTML: no
// highlighting or anchor links, which are not the page's structure.
var oracleMarkdown = goldmark.New(append(parsing(), goldmark.WithRendererOptions(html.WithUnsafe()), structure())...)

// markerTag is the element this side draws for one of the platform's
// components in the differential test.
const markerTag = "mdx-component"

// ourTree parses src as the export does, each of the platform's
// components drawn as an element carrying its name.
func ourTree(t *testing.T, src string) []*tnode {
	t.Helper()
	m := &mdx{snippets: map[string]string{}, draw: func(name string, _ map[string]string, _ *Labels) (markup.HTML, markup.HTML) {
		var b markup.Builder
		b.Markup(`<mdx-component data-name="`)
		b.Text(name)
		b.Markup(`">`)
		return b.Fragment(), markup.Const("</mdx-component>")
	}}
	var buf bytes.Buffer
	if _, err := ToHTML(oracleMarkdown, []byte(Bound(m.run(src))), &buf); err != nil {
		t.Fatal(err)
	}
	return parseHTML(t, &buf)
}

// parseHTML builds the tree a browser builds from s, in a page's body.
func parseHTML(t *testing.T, s *bytes.Buffer) []*tnode {
	t.Helper()
	ctx := &nethtml.Node{Type: nethtml.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := nethtml.ParseFragment(s, ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]*tnode, 0, len(nodes))
	for _, n := range nodes {
		out = append(out, fromHTML(n)...)
	}
	return out
}

// asBrowserReads writes the compiler's tree as HTML (each JSX component
// as this side's marker) and parses it back, so that both trees are what
// a browser builds (a <tr> straight in a <table> gets its <tbody>).
func asBrowserReads(t *testing.T, nodes []*tnode) []*tnode {
	t.Helper()
	var b bytes.Buffer
	var write func([]*tnode, bool)
	write = func(ns []*tnode, raw bool) {
		for _, n := range ns {
			switch {
			case !n.elem && raw:
				b.WriteString(n.text) // a style or script holds text as written
			case !n.elem:
				b.WriteString(nethtml.EscapeString(n.text))
			case n.name == strings.ToLower(n.name) && !strings.Contains(n.name, "."):
				b.WriteString("<" + n.name + ">")
				write(n.kids, n.name == "style" || n.name == "script")
				if !void[n.name] {
					b.WriteString("</" + n.name + ">")
				}
			default:
				b.WriteString(`<mdx-component data-name="` + nethtml.EscapeString(n.name) + `">`)
				write(n.kids, false)
				b.WriteString("</mdx-component>")
			}
		}
	}
	write(nodes, false)
	return parseHTML(t, &b)
}

func fromHTML(n *nethtml.Node) []*tnode {
	switch n.Type {
	case nethtml.TextNode:
		return []*tnode{{text: n.Data}}
	case nethtml.ElementNode:
		name := n.Data
		if name == markerTag {
			for _, a := range n.Attr {
				if a.Key == "data-name" {
					name = a.Val
				}
			}
		}
		var kids []*tnode
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			kids = append(kids, fromHTML(c)...)
		}
		return []*tnode{{name: name, kids: kids, elem: true}}
	}
	return nil // comments
}

// normalize joins adjacent text, turns each run of white space into one
// space, trims the white space at the start and end of a list of
// children and leaves out text that is only white space.
func normalize(nodes []*tnode) []*tnode {
	var out []*tnode
	for _, n := range nodes {
		if n.elem {
			out = append(out, &tnode{name: n.name, kids: normalize(n.kids), elem: true})
			continue
		}
		if k := len(out); k > 0 && !out[k-1].elem {
			out[k-1] = &tnode{text: out[k-1].text + n.text}
			continue
		}
		out = append(out, &tnode{text: n.text})
	}
	kept := out[:0]
	for _, n := range out {
		if !n.elem {
			words := strings.Join(strings.Fields(n.text), " ")
			if words == "" {
				continue
			}
			if strings.TrimLeft(n.text, " \t\r\n") != n.text {
				words = " " + words
			}
			if strings.TrimRight(n.text, " \t\r\n") != n.text {
				words += " "
			}
			n.text = words
		}
		kept = append(kept, n)
	}
	if k := len(kept); k > 0 {
		if !kept[0].elem {
			kept[0].text = strings.TrimLeft(kept[0].text, " ")
		}
		if !kept[k-1].elem {
			kept[k-1].text = strings.TrimRight(kept[k-1].text, " ")
		}
	}
	return kept
}

// serialize writes a tree on one line: name(children) for an element,
// a quoted string for text.
func serialize(nodes []*tnode) string {
	var b strings.Builder
	var walk func([]*tnode)
	walk = func(ns []*tnode) {
		for i, n := range ns {
			if i > 0 {
				b.WriteByte(' ')
			}
			if !n.elem {
				fmt.Fprintf(&b, "%q", n.text)
				continue
			}
			b.WriteString(n.name)
			b.WriteByte('(')
			walk(n.kids)
			b.WriteByte(')')
		}
	}
	walk(nodes)
	return b.String()
}

func firstDifference(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// excerpt shows s around position at: a little before it, more after.
func excerpt(s string, at int) string {
	from := max(at-60, 0)
	to := min(at+240, len(s))
	out := s[from:to]
	if from > 0 {
		out = "…" + out
	}
	if to < len(s) {
		out += "…"
	}
	return out
}

func readKnown(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(knownDifferences)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}
	}
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]string{}
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, why, _ := strings.Cut(line, " ")
		known[name] = strings.TrimSpace(why)
	}
	return known
}

// writeKnown rewrites the list with the documents that differ, keeping
// the reasons already written.
func writeKnown(t *testing.T, old map[string]string, differing []string) {
	t.Helper()
	slices.Sort(differing)
	var b strings.Builder
	b.WriteString("# Documents whose tree differs from the reference MDX compiler's, one a line:\n")
	b.WriteString("# the name, then why. Kept true by TestOracle_agreesWithTheReferenceCompiler.\n")
	for _, name := range differing {
		why := old[name]
		if why == "" {
			why = "(not yet examined)"
		}
		b.WriteString(name + " " + why + "\n")
	}
	if err := os.MkdirAll(filepath.Dir(knownDifferences), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(knownDifferences, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
