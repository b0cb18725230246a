package docsjson

import (
	"context"
	"fmt"
)

// Bounds limit what loading docs.json may cost. $ref makes the
// configuration a graph: a file a few kilobytes long that names another
// file ten times, which names a third ten times, describes a tree a
// thousand times its size. The bounds are on that tree as if every $ref
// were written out: its bytes, its JSON values and its nesting. Each file
// is still read and decoded only once, and a file named twice is shared,
// not copied, so what memory holds is the distinct files.
type Bounds struct {
	// MaxBytes bounds the text of docs.json with every $ref written
	// out: each use of a file counts its size again.
	MaxBytes int64
	// MaxValues bounds the JSON values (objects, arrays, strings,
	// numbers, booleans, nulls) of that tree.
	MaxValues int64
	// MaxDepth bounds how deeply that tree nests objects and arrays.
	MaxDepth int
}

// DefaultBounds fit a configuration of tens of thousands of pages with
// room to spare; the largest real ones are a few hundred kilobytes and a
// few tens of thousands of values, nested fewer than twenty deep.
var DefaultBounds = Bounds{MaxBytes: 8 << 20, MaxValues: 500_000, MaxDepth: 128}

// WithDefaults returns b with every zero or negative field set to its
// default.
func (b Bounds) WithDefaults() Bounds {
	if b.MaxBytes <= 0 {
		b.MaxBytes = DefaultBounds.MaxBytes
	}
	if b.MaxValues <= 0 {
		b.MaxValues = DefaultBounds.MaxValues
	}
	if b.MaxDepth <= 0 {
		b.MaxDepth = DefaultBounds.MaxDepth
	}
	return b
}

// size measures a JSON tree against Bounds.
type size struct {
	bytes, values int64
	depth         int
}

// add counts a subtree of size o placed at depth at.
func (s *size) add(o size, at int) {
	s.bytes += o.bytes
	s.values += o.values
	s.depth = max(s.depth, at+o.depth)
}

// over names the first bound s exceeds, or returns "".
func (b Bounds) over(s size) string {
	switch {
	case s.bytes > b.MaxBytes:
		return fmt.Sprintf("more than the limit of %d bytes", b.MaxBytes)
	case s.values > b.MaxValues:
		return fmt.Sprintf("more than the limit of %d JSON values", b.MaxValues)
	case s.depth > b.MaxDepth:
		return fmt.Sprintf("nested deeper than the limit of %d levels", b.MaxDepth)
	}
	return ""
}

// measure counts the values of a JSON text and how deeply it nests, in
// one pass over the bytes and without decoding it, so a file is held to
// the bounds before it is decoded. On text that is not JSON the counts
// mean nothing; the decoder that follows reports the error.
func measure(b []byte) size {
	s := size{bytes: int64(len(b)), values: 1} // the document itself
	// open holds a byte per enclosing container: '[' for an array
	// still waiting for its first element, 'a' for an array past it,
	// '{' for an object.
	var open []byte
	inString, escaped := false, false
	for _, c := range b {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' {
			continue
		}
		n := len(open)
		if c == ']' || c == '}' {
			if n > 0 {
				open = open[:n-1]
			}
			continue
		}
		// An array's first element is a value, later ones follow a
		// comma; an object's members each follow a colon.
		if n > 0 && open[n-1] == '[' {
			open[n-1] = 'a'
			s.values++
		}
		switch c {
		case ',':
			if n > 0 && open[n-1] == 'a' {
				s.values++
			}
		case ':':
			s.values++
		case '"':
			inString = true
		case '[', '{':
			open = append(open, c)
			s.depth = max(s.depth, len(open))
		}
	}
	return s
}

// checkCtx is how often, in values walked, resolving looks at the
// export's context.
const checkCtx = 4096

// errCancelled wraps the context's error for a load that was stopped.
func errCancelled(ctx context.Context) error {
	return fmt.Errorf("docs.json: loading stopped: %w", context.Cause(ctx))
}
