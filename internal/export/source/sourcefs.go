// Package source reads a docs source safely: every read confined to its
// root (os.Root for a Dir, links resolved and checked for other file
// systems), the files its .mintignore names hidden, each file bounded in
// size and all reads counted against the export's Limits. It knows files,
// sizes and limits only, and reports what a docs author must fix as a
// docsjson.InputError: nothing of pages, docs.json's meaning, HTML or the
// facade that calls it.
package source

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
)

// Dir is a docs source on disk. Every read of it goes through os.Root, so
// a symlink in the source (a page, a snippet, an image, a logo, a whole
// folder) can point anywhere inside the source but never outside it: a
// repository must not be able to copy the server's signing key or config
// into a bundle. Servers pass Dir, never os.DirFS, as Request.Source.
type Dir string

// Open implements fs.FS. Open, Stat and ReadFile open a fresh root per
// call: a Dir stays valid when its directory is replaced (a new checkout),
// and these calls serve only the cheap request-time checks. An export
// opens one root for its whole run (see confine).
func (d Dir) Open(name string) (fs.File, error) {
	r, err := os.OpenRoot(string(d))
	if err != nil {
		return nil, err
	}
	defer closeRoot(r)
	return rootFS{r}.Open(name)
}

// Stat implements fs.StatFS.
func (d Dir) Stat(name string) (fs.FileInfo, error) {
	r, err := os.OpenRoot(string(d))
	if err != nil {
		return nil, err
	}
	defer closeRoot(r)
	return fs.Stat(r.FS(), name)
}

// ReadFile implements fs.ReadFileFS.
func (d Dir) ReadFile(name string) ([]byte, error) {
	r, err := os.OpenRoot(string(d))
	if err != nil {
		return nil, err
	}
	defer closeRoot(r)
	return fs.ReadFile(rootFS{r}, name)
}

// closeRoot closes a root only read from; a close error loses nothing.
func closeRoot(r *os.Root) { _ = r.Close() }

// Confine returns the view of src an export reads: a Dir becomes one
// os.Root held for the export; any other source that can report links
// (os.DirFS, fstest.MapFS) is wrapped in linkGuard, which resolves each
// link itself and refuses those leaving the root. Sources without links
// (embedded files) are used as they are.
func Confine(src fs.FS) (fs.FS, func(), error) {
	switch s := src.(type) {
	case Dir:
		r, err := os.OpenRoot(string(s))
		if err != nil {
			return nil, nil, fmt.Errorf("open docs source: %w", err)
		}
		return rootFS{r}, func() { _ = r.Close() }, nil
	case fs.ReadLinkFS:
		return linkGuard{s}, func() {}, nil
	}
	return src, func() {}, nil
}

// rootFS reads a Dir through its os.Root, opening only regular files
// and directories. A named pipe or a device in a source would block the
// open (a pipe waits for a writer) or never end a read, beyond any
// context; such a file is opened without blocking, seen for what it is
// and refused.
type rootFS struct{ r *os.Root }

// errNotRegular is a file of the source that is neither a regular file
// nor a directory.
var errNotRegular = docsjson.ErrNotRegular

func (f rootFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	file, err := f.r.OpenFile(name, os.O_RDONLY|nonBlocking, 0)
	if err != nil {
		return nil, err
	}
	st, err := file.Stat()
	if err != nil {
		_ = file.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() && !st.IsDir() {
		_ = file.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: errNotRegular}
	}
	return file, nil
}

// Stat and ReadDir never block, whatever the file: the root's own.
func (f rootFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(f.r.FS(), name) }

func (f rootFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(f.r.FS(), name) }

// maxLinkHops bounds link chains, as the kernel's ELOOP does.
const maxLinkHops = 40

// linkGuard confines an fs.FS that exposes its links: every path is
// resolved component by component, following links lexically, before the
// underlying FS sees it. It is the fallback for sources that are not a
// Dir; a Dir is confined by the kernel through os.Root.
type linkGuard struct{ fsys fs.ReadLinkFS }

// resolve returns name with every link replaced by its target, or an
// error wrapping errOutside when a link leaves the root.
func (g linkGuard) resolve(name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	hops := 0
	done := "."
	rest := name
	for rest != "" && rest != "." {
		comp, tail, _ := strings.Cut(rest, "/")
		rest = tail
		next := path.Join(done, comp)
		fi, err := g.fsys.Lstat(next)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return path.Join(next, rest), nil // the caller reports the missing file
			}
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			done = next
			continue
		}
		if hops++; hops > maxLinkHops {
			return "", &fs.PathError{Op: "open", Path: name, Err: errors.New("too many levels of links")}
		}
		target, err := g.fsys.ReadLink(next)
		if err != nil {
			return "", err
		}
		joined := path.Join(done, target)
		if path.IsAbs(target) || joined == ".." || strings.HasPrefix(joined, "../") {
			return "", &fs.PathError{Op: "open", Path: name, Err: docsjson.ErrOutside}
		}
		// Resolve the target from the root again: it may hold links too.
		done, rest = ".", path.Join(joined, rest)
	}
	return done, nil
}

func (g linkGuard) Open(name string) (fs.File, error) {
	p, err := g.resolve(name)
	if err != nil {
		return nil, err
	}
	return g.fsys.Open(p)
}

func (g linkGuard) Stat(name string) (fs.FileInfo, error) {
	p, err := g.resolve(name)
	if err != nil {
		return nil, err
	}
	return fs.Stat(g.fsys, p)
}

func (g linkGuard) ReadDir(name string) ([]fs.DirEntry, error) {
	p, err := g.resolve(name)
	if err != nil {
		return nil, err
	}
	return fs.ReadDir(g.fsys, p)
}

// ReadLimited reads a whole file of src, refusing one larger than limit
// bytes with an *InputError naming what and the limit. The size is
// checked while reading, not only from a stat, since a file may grow.
func ReadLimited(src fs.FS, name, what string, limit int64) ([]byte, error) {
	f, err := src.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(512)
	if st, err := f.Stat(); err == nil {
		if st.Size() > limit {
			return nil, TooLarge(name, what, st.Size(), limit)
		}
		// One byte more, so that the read that meets the end needs no
		// room: io.ReadAll grows its buffer by doubling, and a page's
		// source is kept until the page renders (a quarter to half as
		// much again on a 25,000-page site).
		size = st.Size() + 1
	}
	b, err := readAllSized(io.LimitReader(f, limit+1), size)
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, TooLarge(name, what, int64(len(b)), limit)
	}
	return b, nil
}

// readAllSized is io.ReadAll starting from a buffer of size bytes, grown
// as io.ReadAll grows it only if r holds more (a file that grew).
func readAllSized(r io.Reader, size int64) ([]byte, error) {
	b := make([]byte, 0, size)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// TooLarge is the *docsjson.InputError of a file of the source over its
// limit: what names the kind of file, size is what was seen of it.
func TooLarge(name, what string, size, limit int64) error {
	return &docsjson.InputError{Msg: fmt.Sprintf("%s: %s is larger than the limit of %s (at least %s); split it or raise the limit",
		name, what, ByteSize(limit), ByteSize(size))}
}

// ByteSize prints a size the way a docs author reads it.
func ByteSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
