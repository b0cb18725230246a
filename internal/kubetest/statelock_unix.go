//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package kubetest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// lockDir takes an exclusive lock on dir's lock file and returns its
// release. flock rather than a pid file: the kernel drops the lock when
// the holder dies, so a crashed or killed start never leaves a stale lock
// behind, and two opens in one process conflict too, which the tests use.
func lockDir(dir string) (func(), error) {
	path := filepath.Join(dir, "lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock state directory: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: %s is locked (%s); stop the cluster running there or use another directory",
				ErrStateLocked, dir, path)
		}
		return nil, fmt.Errorf("lock state directory %s: %w", dir, err)
	}
	// Closing the file releases the lock; nothing was written to it.
	return func() { _ = f.Close() }, nil
}
