// Package fsutil holds the crash-safe file writes that the server's state
// (keys, the demo key, each export's site before its rename into place)
// and the test cluster's kept state share.
package fsutil

import (
	"os"
	"path/filepath"
)

// WriteFileAtomic writes data under a temporary name, syncs it, renames it
// into place and syncs the directory, so a crash leaves either the old
// file or the new one, never a torn one.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	// The first error wins; Close is checked even after a successful
	// write, since that is where some file systems report a lost one.
	err = tmp.Chmod(perm)
	if err == nil {
		_, err = tmp.Write(data)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name()) // best effort: the error above is the one to report
		return err
	}
	return SyncDir(filepath.Dir(path))
}

// SyncDir makes a rename or create in dir durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close() //nolint:errcheck // opened read-only for Sync, whose error is returned
	return d.Sync()
}
