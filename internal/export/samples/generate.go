package samples

import "strings"

// aliases maps the language names and aliases docs.json may list in
// api.examples.languages to the generator that writes them.
var aliases = map[string]string{"bash": "bash", "curl": "bash", "sh": "bash", "shell": "bash",
	"python": "python", "py": "python", "javascript": "javascript", "js": "javascript", "go": "go", "golang": "go",
	"ruby": "ruby", "rb": "ruby", "php": "php", "java": "java", "csharp": "csharp", "c#": "csharp",
	"node": "node", "nodejs": "node", "node.js": "node"}

// Lookup returns the generator of a language name or alias as docs.json
// writes it ("curl", "Python", "c#"), and false for a language without one.
func Lookup(name string) (string, bool) {
	k, ok := aliases[strings.ToLower(strings.TrimSpace(name))]
	return k, ok
}

// Default is the generators used when docs.json lists no languages.
var Default = []string{"bash", "python", "javascript"}

// generators are the languages in the order of their keys, with the title
// of their tab and the language their code is highlighted as.
var generators = map[string]struct {
	title, lang string
	write       func(Request) string
}{
	"bash":       {"cURL", "bash", Request.curl},
	"python":     {"Python", "python", Request.python},
	"javascript": {"JavaScript", "javascript", Request.javascript},
	"node":       {"Node.js", "javascript", Request.node},
	"go":         {"Go", "go", Request.golang},
	"ruby":       {"Ruby", "ruby", Request.ruby},
	"php":        {"PHP", "php", Request.php},
	"java":       {"Java", "java", Request.java},
	"csharp":     {"C#", "csharp", Request.csharp},
}

// Generate writes r in the language of generator key (one Lookup
// returns): the title of its tab, the language to highlight it as and its
// code. ok is false for an unknown key.
func Generate(r Request, key string) (title, lang, code string, ok bool) {
	g, ok := generators[key]
	if !ok {
		return "", "", "", false
	}
	return g.title, g.lang, g.write(r), true
}
