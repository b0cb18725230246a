//go:build unix

package source

import "syscall"

// nonBlocking opens a named pipe without waiting for a writer; on a
// regular file or a directory it changes nothing.
const nonBlocking = syscall.O_NONBLOCK
