//go:build !linux

package fsutil

import (
	"os"
	"path/filepath"
)

// SyncTree fsyncs every file and directory under root, so that the rename
// that publishes it happens after its content is durable.
func SyncTree(root string) error {
	return filepath.WalkDir(root, func(path string, _ os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		return f.Sync()
	})
}
