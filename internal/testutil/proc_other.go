//go:build !linux

package testutil

import (
	"os"
	"syscall"
)

// ServerProcAttr has no parent-death signal or process group outside
// Linux; the tests' own cleanup is the only thing that stops the servers.
func ServerProcAttr() *syscall.SysProcAttr { return nil }

// SignalGroup signals only p itself: without Setpgid it leads no group.
func SignalGroup(p *os.Process, sig syscall.Signal) error { return p.Signal(sig) }
