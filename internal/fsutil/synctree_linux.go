package fsutil

import (
	"os"

	"golang.org/x/sys/unix"
)

// SyncTree makes everything under root durable before the rename that
// publishes it. syncfs(2) flushes the whole file system in one call, which
// is far cheaper than an fsync per page on a 2,000-page export.
func SyncTree(root string) error {
	f, err := os.Open(root)
	if err != nil {
		return err
	}
	defer f.Close() //nolint:errcheck // opened read-only for Syncfs, whose error is returned
	return unix.Syncfs(int(f.Fd()))
}
