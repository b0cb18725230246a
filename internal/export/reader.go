package export

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"sync"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/mdx"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/site"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/source"
	"gopkg.in/yaml.v2"
)

// reader reads the files of one docs source: pages, snippets (each once)
// and docs.json, confined to the source, bounded per file and charged to
// the export's budget.
type reader struct {
	src      fs.FS // the source confined to its root (see confine)
	limits   Limits
	budget   *source.Budget
	workers  int
	warn     func(format string, args ...any)
	snippets sync.Map // snippet file -> contents
	// sums holds the SHA-256 of each page's source file by page key,
	// for its input key (incremental.go).
	sums sync.Map
	// configRead, when set, is told of each file docs.json's loading
	// reads.
	configRead func(name string, b []byte, err error)
}

// ReadSource reads a whole file of the export's source, confined to the
// source root and counted against the limits; what names the kind of file
// in errors ("OpenAPI file"). Code that renders from the source (OpenAPI
// documents, $ref targets) reads through it, never through Request.Source.
func (r *reader) readSource(name, what string, limit int64) ([]byte, error) {
	b, err := source.ReadLimited(r.src, name, what, limit)
	if err != nil {
		if docsjson.IsOutside(err) {
			return nil, &docsjson.InputError{Msg: fmt.Sprintf("%s: %s is a link out of the docs source; refused", name, what)}
		}
		return nil, err
	}
	if err := r.budget.Take(name, int64(len(b))); err != nil {
		return nil, err
	}
	return b, nil
}

// readAll loads the selected pages in parallel, keeping the order of keys.
func (r *reader) readAll(keys []string, all map[string]string) ([]*page, error) {
	pages := make([]*page, len(keys))
	errs := make([]error, len(keys))
	// Every page is read so that the error reported is the first in key
	// order, the same on every run.
	_ = parallel(context.Background(), len(keys), r.workers, func(i int) error {
		pages[i], errs[i] = r.readPage(keys[i], all[keys[i]])
		return nil
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return pages, nil
}

func (r *reader) loadSnippet(file string) (string, error) {
	if v, ok := r.snippets.Load(file); ok {
		return v.(string), nil
	}
	b, err := r.readSource(file, "snippet", r.limits.MaxPageBytes)
	if err != nil {
		var ie *docsjson.InputError
		if errors.As(err, &ie) {
			r.warn("%s", ie.Msg)
		}
		return "", fmt.Errorf("snippet %s: %w", file, err)
	}
	r.snippets.Store(file, string(b))
	return string(b), nil
}

// readPage loads a page and its settings. A frontmatter error is reported
// with the file name because it is the author's to fix.
func (r *reader) readPage(key, file string) (*page, error) {
	b, err := r.readSource(file, "the page", r.limits.MaxPageBytes)
	var ie *docsjson.InputError
	if errors.As(err, &ie) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", file, err)
	}
	r.sums.Store(key, sha256.Sum256(b))
	fmb, body := mdx.SplitFrontmatter(b)
	p := &page{Key: key, File: file, Out: key + ".html", Body: body}
	if len(fmb) > 0 {
		if err := yaml.Unmarshal(fmb, &p.FM); err != nil {
			return nil, &docsjson.InputError{Msg: fmt.Sprintf("%s: invalid frontmatter: %v", file, err)}
		}
	}
	m, ok := site.ParseMode(p.FM.Mode)
	if !ok {
		r.warn("%s: unknown page mode %q; the page is shown in the default mode", file, p.FM.Mode)
	}
	p.Mode = m
	p.Title = p.FM.Title
	if p.Title == "" {
		p.Title, p.Body = site.LeadingHeading(p.Body)
	}
	p.BodyLine = 1
	if n := len(b) - len(p.Body); n >= 0 && bytes.HasSuffix(b, p.Body) {
		p.BodyLine += bytes.Count(b[:n], []byte("\n"))
	}
	if p.Title == "" {
		p.Title = site.TitleFromKey(key)
	}
	return p, nil
}

// loadConfig reads docs.json and the files it references for an export,
// once, in the worker that runs it: within the export's config bounds and
// its budget of files and bytes, and until ctx (the job's) ends.
func (r *reader) loadConfig(ctx context.Context) (*docsjson.Config, error) {
	return docsjson.Load(ctx, func(name string) ([]byte, error) {
		b, err := r.readSource(name, "the configuration file", r.limits.MaxPageBytes)
		if r.configRead != nil {
			r.configRead(name, b, err)
		}
		return b, err
	}, r.limits.Config, r.warn)
}
