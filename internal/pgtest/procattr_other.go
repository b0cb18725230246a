//go:build !linux

package pgtest

import "syscall"

// procAttr runs a PostgreSQL program as cred; outside Linux there is no
// parent-death signal, and Stop is the only cleanup.
func procAttr(cred *syscall.Credential) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: cred, Setpgid: true}
}
