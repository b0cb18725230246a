package pgtest

import "syscall"

// procAttr runs a PostgreSQL program as cred (nil: as ourselves) and has
// the kernel kill it when the test binary dies, so a crashed or killed
// test run leaves no server behind holding a port.
func procAttr(cred *syscall.Credential) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGKILL, Setpgid: true}
}
