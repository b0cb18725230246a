//go:build !unix

package source

// nonBlocking is a no-op where the system has no named pipes that an
// open waits on.
const nonBlocking = 0
