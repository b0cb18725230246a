package source

import (
	"bufio"
	"bytes"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ignoreFile lists, with gitignore's rules, files and folders of a docs
// source that are never published: agent instructions, tooling, writing
// guides kept next to the docs.
const ignoreFile = ".mintignore"

// maxIgnoreBytes bounds the .mintignore an export reads.
const maxIgnoreBytes = 256 << 10

// WithIgnore returns src with the files and folders its .mintignore
// names hidden from every read: they are not pages, not specs, not
// assets, and do not exist for links. Patterns follow gitignore
// (negation with "!", "/" anchoring, "**", a trailing "/" for folders),
// matched by go-git's implementation of those rules, which git's own test
// cases hold. docs.json itself is never hidden. A source without the file
// is returned as it is.
func WithIgnore(src fs.FS) fs.FS {
	f, err := src.Open(ignoreFile)
	if err != nil {
		return src
	}
	defer f.Close()
	var data bytes.Buffer
	if _, err := data.ReadFrom(io.LimitReader(f, maxIgnoreBytes)); err != nil {
		return src
	}
	var patterns []gitignore.Pattern
	sc := bufio.NewScanner(&data)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if t := strings.TrimSpace(line); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		patterns = append(patterns, gitignore.ParsePattern(line, nil))
	}
	if len(patterns) == 0 {
		return src
	}
	return &ignoring{fsys: src, m: gitignore.NewMatcher(patterns)}
}

// ignoring hides what a .mintignore matches. A path is hidden when it or
// any folder above it matches, as git does (a file inside an ignored
// folder cannot be brought back).
type ignoring struct {
	fsys fs.FS
	m    gitignore.Matcher
}

func (g *ignoring) hidden(name string, dir bool) bool {
	if name == "." || name == "docs.json" || name == ignoreFile {
		return false
	}
	parts := strings.Split(name, "/")
	for i := 1; i < len(parts); i++ {
		if g.m.Match(parts[:i], true) {
			return true
		}
	}
	return g.m.Match(parts, dir)
}

// notExist is the error of a hidden path, as if it were not there.
func notExist(op, name string) error { return &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist} }

// Open opens name and then asks the open file what it is, so a hidden
// path costs no extra stat.
func (g *ignoring) Open(name string) (fs.File, error) {
	f, err := g.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && g.hidden(path.Clean(name), st.IsDir()) {
		_ = f.Close()
		return nil, notExist("open", name)
	}
	return f, nil
}

func (g *ignoring) Stat(name string) (fs.FileInfo, error) {
	st, err := fs.Stat(g.fsys, name)
	if err == nil && g.hidden(path.Clean(name), st.IsDir()) {
		return nil, notExist("stat", name)
	}
	return st, err
}

// ReadDir lists a folder (a folder pattern applies) without its hidden
// entries.
func (g *ignoring) ReadDir(name string) ([]fs.DirEntry, error) {
	if g.hidden(path.Clean(name), true) {
		return nil, notExist("readdir", name)
	}
	entries, err := fs.ReadDir(g.fsys, name)
	kept := entries[:0]
	for _, e := range entries {
		if !g.hidden(path.Join(name, e.Name()), e.IsDir()) {
			kept = append(kept, e)
		}
	}
	return kept, err
}

// ReadFile reads a file (a folder pattern does not apply).
func (g *ignoring) ReadFile(name string) ([]byte, error) {
	if g.hidden(path.Clean(name), false) {
		return nil, notExist("read", name)
	}
	return fs.ReadFile(g.fsys, name)
}

// ReadLink and Lstat keep links visible to the walk, as the source shows
// them (confine has already made them safe).
func (g *ignoring) ReadLink(name string) (string, error) {
	if g.hidden(path.Clean(name), false) {
		return "", notExist("readlink", name)
	}
	return fs.ReadLink(g.fsys, name)
}

func (g *ignoring) Lstat(name string) (fs.FileInfo, error) {
	st, err := fs.Lstat(g.fsys, name)
	if err == nil && g.hidden(path.Clean(name), st.IsDir()) {
		return nil, notExist("lstat", name)
	}
	return st, err
}
