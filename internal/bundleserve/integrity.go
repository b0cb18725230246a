package bundleserve

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"
)

// stamp is what a cheap check compares of a served file: its size and
// modification time, and where the system has them its inode and change
// time, which no user can set back by hand (touch -r sets mtime only).
// A file rewritten or replaced after it was verified changes its stamp.
type stamp struct {
	size  int64
	mtime time.Time
	sys   sysStamp
}

func stampOf(fi fs.FileInfo) stamp {
	return stamp{size: fi.Size(), mtime: fi.ModTime(), sys: sysStampOf(fi)}
}

// snapshot maps every regular file of a site (slash paths relative to its
// directory) to its stamp, taken right after the files were verified by
// hash. Checking a site against it costs one stat per file, no reading.
type snapshot map[string]stamp

// errChanged marks a site whose files no longer match their snapshot.
var errChanged = errors.New("served files changed since they were verified")

// takeSnapshot stamps every file under dir. Anything but directories and
// regular files is refused: unpack never writes one.
func takeSnapshot(dir string) (snapshot, error) {
	snap := snapshot{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("%s is not a regular file", p)
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		snap[filepath.ToSlash(rel)] = stampOf(fi)
		return nil
	})
	return snap, err
}

// check compares the files under dir with the snapshot: a file changed,
// replaced, added or removed is an error wrapping errChanged that names it
// (for the log; the probes say only "files-changed").
func (snap snapshot) check(dir string) error {
	seen := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		want, ok := snap[rel]
		if !ok {
			return fmt.Errorf("%w: %s was added", errChanged, rel)
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if !fi.Mode().IsRegular() || stampOf(fi) != want {
			return fmt.Errorf("%w: %s was modified or replaced", errChanged, rel)
		}
		seen++
		return nil
	})
	if err != nil {
		if !errors.Is(err, errChanged) {
			err = fmt.Errorf("%w: %w", errChanged, err)
		}
		return err
	}
	if seen != len(snap) {
		return fmt.Errorf("%w: %d of %d files are missing", errChanged, len(snap)-seen, len(snap))
	}
	return nil
}
