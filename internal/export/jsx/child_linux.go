package jsx

import (
	"fmt"
	"os"
	"syscall"
)

// childAttr makes the kernel kill an evaluator whose export's process
// dies, so none outlives the server.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// bindSelf sets the limits the kernel enforces on this evaluator before
// it reads any of a source's code: RLIMIT_DATA bounds the memory it maps
// (heap, stacks, anonymous mappings: the Go runtime's out-of-memory end
// when a page asks for more), RLIMIT_CPU its CPU time (SIGKILL past the
// hard limit), RLIMIT_NOFILE the files it could open were a bug to let it
// try, and RLIMIT_CORE a dump of its memory.
func bindSelf(mem int64) error {
	if mem <= 0 {
		return fmt.Errorf("memory bound %d", mem)
	}
	for _, l := range []struct {
		name     string
		res      int
		cur, max uint64
	}{
		{"RLIMIT_DATA", syscall.RLIMIT_DATA, uint64(mem), uint64(mem)},
		{"RLIMIT_CPU", syscall.RLIMIT_CPU, childCPULimit, childCPULimit + 5},
		{"RLIMIT_NOFILE", syscall.RLIMIT_NOFILE, 16, 16},
		{"RLIMIT_CORE", syscall.RLIMIT_CORE, 0, 0},
	} {
		if err := syscall.Setrlimit(l.res, &syscall.Rlimit{Cur: l.cur, Max: l.max}); err != nil {
			return fmt.Errorf("%s: %w", l.name, err)
		}
	}
	return nil
}

// exceededCPU reports whether the process ended for its CPU limit.
func exceededCPU(st *os.ProcessState) bool {
	ws, ok := st.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && ws.Signal() == syscall.SIGXCPU
}
