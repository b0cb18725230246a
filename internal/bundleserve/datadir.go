package bundleserve

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// DataDirError is a data dir serve-bundle refuses to use: one it cannot
// create, one another user owns, or one others may write to. Whoever can
// write there can swap the site being served, so this is not a usage
// error but a failure to start (exit 1).
type DataDirError struct {
	Dir string
	Err error
}

func (e *DataDirError) Error() string { return fmt.Sprintf("data dir %s: %v", e.Dir, e.Err) }
func (e *DataDirError) Unwrap() error { return e.Err }

// DefaultDataDir is the per-user state directory serve-bundle keeps its
// sites in when --data-dir is not given: $XDG_STATE_HOME/docsadmin/serve-bundle,
// else $HOME/.local/state/docsadmin/serve-bundle (the XDG default). Never
// a shared path such as /tmp, where another user could create it first.
func DefaultDataDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "docsadmin", "serve-bundle"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil || !filepath.IsAbs(home) {
		return "", errors.New("no per-user state directory (neither XDG_STATE_HOME nor HOME is set): give --data-dir")
	}
	return filepath.Join(home, ".local", "state", "docsadmin", "serve-bundle"), nil
}

// prepareDataDir creates dir (and its missing parents) with mode 0700 and
// checks that it is safe to serve from: a directory owned by uid that
// neither group nor others may write to. A directory that exists is
// checked as it is, never chmod-ed: if someone else could write there,
// they may already have.
func prepareDataDir(dir string, uid int) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return &DataDirError{Dir: dir, Err: err}
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return &DataDirError{Dir: dir, Err: err}
	}
	if !fi.IsDir() {
		return &DataDirError{Dir: dir, Err: errors.New("not a directory")}
	}
	if err := checkPrivate(fi, uid); err != nil {
		return &DataDirError{Dir: dir, Err: err}
	}
	return nil
}

// checkPrivate refuses a directory that another user owns or that group
// or others may write to. Where files have no owner or permission bits
// (Windows), there is nothing to check.
func checkPrivate(fi fs.FileInfo, uid int) error {
	owner, ok := fileOwner(fi)
	if !ok {
		return nil
	}
	if owner != uid {
		return fmt.Errorf("owned by uid %d, not by this user (uid %d): another user could swap the site; give a directory of your own", owner, uid)
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Errorf("mode %04o lets group or others write to it: another user could swap the site; chmod go-w it or give another directory", perm)
	}
	return nil
}
