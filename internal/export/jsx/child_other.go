//go:build !linux

package jsx

import (
	"os"
	"syscall"
)

// childAttr: only Linux can tie an evaluator's life to its export's
// process; elsewhere it ends when its input closes.
func childAttr() *syscall.SysProcAttr { return nil }

// bindSelf: outside Linux the evaluator has no memory or CPU limit of
// the kernel's; the export's deadline (it kills the process) still
// bounds a page's time.
func bindSelf(int64) error { return nil }

func exceededCPU(*os.ProcessState) bool { return false }
