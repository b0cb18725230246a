//go:build !linux

package kubetest

import "syscall"

// sysProcAttr has no parent-death signal outside Linux; the cleanup
// registered by launch is the only thing that stops the servers there.
func sysProcAttr() *syscall.SysProcAttr { return nil }
