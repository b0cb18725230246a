//go:build !unix

package bundleserve

import "io/fs"

// fileOwner reports no owner where the system has no uids.
func fileOwner(fs.FileInfo) (int, bool) { return 0, false }
