package bundleserve

import (
	"io/fs"
	"syscall"
)

// sysStamp is the inode and the change time (ctime), which a rename over
// the file or any write moves and nobody can set back without root.
type sysStamp struct {
	ino   uint64
	ctime syscall.Timespec
}

func sysStampOf(fi fs.FileInfo) sysStamp {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return sysStamp{}
	}
	return sysStamp{ino: st.Ino, ctime: st.Ctim}
}
