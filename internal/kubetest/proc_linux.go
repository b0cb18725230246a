package kubetest

import "syscall"

// sysProcAttr makes the kernel kill the servers when the test binary dies,
// so a test killed by go test's -timeout does not leave etcd and
// kube-apiserver running on the shared machine.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
