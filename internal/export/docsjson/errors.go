package docsjson

import (
	"errors"
	"strings"
)

// ErrOutside marks a path that resolves, through a symlink or "..", to a
// place outside the docs source.
var ErrOutside = errors.New("links outside the docs source")

// ErrNotRegular marks a file of the source that is neither a regular
// file nor a directory (a named pipe, a device, a socket), which the
// export refuses to open rather than wait on.
var ErrNotRegular = errors.New("not a regular file (a named pipe, a device or a socket); left out")

// IsOutside reports whether err is a refusal to leave the source root.
// os.Root does not export its sentinel; its message is pinned by
// TestConfine_rootMessage so a Go upgrade that changes it fails loudly.
func IsOutside(err error) bool {
	return errors.Is(err, ErrOutside) || err != nil && strings.Contains(err.Error(), "path escapes from parent")
}

// InputError marks a problem with the caller's input (for example a path
// that names no page) as opposed to a failure of the export itself; the
// server answers it with 400.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }
