package testutil

import (
	"os"
	"syscall"
)

// ServerProcAttr is for servers that tests start as child processes
// (kube-apiserver, etcd, MinIO): a process group of their own, so stopping
// one reaches anything it started too, and a kernel SIGKILL when the test
// binary dies, so a test killed by go test's -timeout does not leave
// servers running on the shared machine.
func ServerProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// SignalGroup sends sig to the process group that p leads.
func SignalGroup(p *os.Process, sig syscall.Signal) error {
	return syscall.Kill(-p.Pid, sig)
}
