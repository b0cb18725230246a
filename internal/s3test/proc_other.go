//go:build !linux

package s3test

import (
	"os"
	"syscall"
)

// sysProcAttr has no parent-death signal or process group outside Linux;
// the cleanup (Main, Stop) is the only thing that stops the
// servers there.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// signalGroup signals only p itself: without Setpgid it leads no group.
func signalGroup(p *os.Process, sig syscall.Signal) error { return p.Signal(sig) }
