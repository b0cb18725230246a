//go:build !linux

package bundleserve

import "io/fs"

// sysStamp is empty where the change time is not read portably: size and
// mtime still catch a rewritten file that was not set back on purpose.
type sysStamp struct{}

func sysStampOf(fs.FileInfo) sysStamp { return sysStamp{} }
