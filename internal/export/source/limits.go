package source

import (
	"fmt"
	"sync"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/docsjson"
)

// Limits bound what one export reads from its source, so that a hostile or
// runaway repository fails with a clear message instead of filling memory
// or disk. The defaults fit repositories of thousands of pages with room
// to spare; a zero field takes its default.
type Limits struct {
	// MaxPageBytes bounds one page, snippet or docs.json file.
	MaxPageBytes int64
	// MaxAssetBytes bounds one copied file (an image, a download) and one
	// file read whole by the engine, such as an OpenAPI document.
	MaxAssetBytes int64
	// MaxFiles bounds how many files an export reads or copies.
	MaxFiles int
	// MaxTotalBytes bounds the bytes read from the source in all.
	MaxTotalBytes int64
	// ComponentTime bounds how long the custom (JSX) components of one
	// page may run; past it they show their content only, with a warning.
	ComponentTime time.Duration
	// ComponentMemory bounds the memory of each process that evaluates
	// the components (0: the evaluator's default, 256 MiB); past it a
	// page's components show their content only, with a warning.
	ComponentMemory int64
	// HighlightTime bounds the syntax highlighting of one export, summed
	// over its code blocks and counted as work (rule runs, each standing
	// for a few microseconds: highlight.Budget), so that the output does
	// not depend on the machine's load; past it, blocks are shown plain,
	// with one warning that counts them.
	HighlightTime time.Duration
	// Config bounds docs.json with every $ref written out: its bytes,
	// JSON values and nesting (docsjson.Bounds).
	Config docsjson.Bounds
}

// DefaultLimits are the limits of an Engine built without its own.
var DefaultLimits = Limits{
	MaxPageBytes:  4 << 20,
	MaxAssetBytes: 100 << 20,
	MaxFiles:      50_000,
	MaxTotalBytes: 2 << 30,
	ComponentTime: 2 * time.Second,
	// Thousands of pages of code highlight in a second or two.
	HighlightTime: 10 * time.Second,
	Config:        docsjson.DefaultBounds,
}

// WithDefaults returns l with every zero or negative field set to its
// default: the limits an Engine built with l enforces.
func (l Limits) WithDefaults() Limits {
	if l.MaxPageBytes <= 0 {
		l.MaxPageBytes = DefaultLimits.MaxPageBytes
	}
	if l.MaxAssetBytes <= 0 {
		l.MaxAssetBytes = DefaultLimits.MaxAssetBytes
	}
	if l.MaxFiles <= 0 {
		l.MaxFiles = DefaultLimits.MaxFiles
	}
	if l.MaxTotalBytes <= 0 {
		l.MaxTotalBytes = DefaultLimits.MaxTotalBytes
	}
	if l.ComponentTime <= 0 {
		l.ComponentTime = DefaultLimits.ComponentTime
	}
	if l.HighlightTime <= 0 {
		l.HighlightTime = DefaultLimits.HighlightTime
	}
	l.Config = l.Config.WithDefaults()
	return l
}

// Budget counts what an export has read against its limits.
type Budget struct {
	Limits Limits
	mu     sync.Mutex
	files  int
	bytes  int64
}

// Take records one file of size bytes read from the source.
func (b *Budget) Take(name string, size int64) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.files++
	b.bytes += size
	if b.files > b.Limits.MaxFiles {
		return &docsjson.InputError{Msg: fmt.Sprintf("%s: the export reads more than the limit of %d files from the source", name, b.Limits.MaxFiles)}
	}
	if b.bytes > b.Limits.MaxTotalBytes {
		return &docsjson.InputError{Msg: fmt.Sprintf("%s: the export reads more than the limit of %s from the source", name, ByteSize(b.Limits.MaxTotalBytes))}
	}
	return nil
}
