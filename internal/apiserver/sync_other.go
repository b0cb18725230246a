//go:build !linux

package apiserver

import (
	"os"
	"path/filepath"
)

// syncTree fsyncs every file and directory under root, so that the rename
// that publishes it happens after its content is durable.
func syncTree(root string) error {
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
