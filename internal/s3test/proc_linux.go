package s3test

import (
	"os"
	"syscall"
)

// sysProcAttr puts MinIO in a process group of its own, so stopping
// it reaches anything MinIO started too, and makes the kernel kill it when
// the test binary dies, so a test killed by go test's -timeout does not
// leave servers running on the shared machine.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// signalGroup sends sig to the process group that p leads.
func signalGroup(p *os.Process, sig syscall.Signal) error {
	return syscall.Kill(-p.Pid, sig)
}
