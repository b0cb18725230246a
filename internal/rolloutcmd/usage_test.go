package rolloutcmd

import (
	"syscall"
	"testing"
	"time"
)

// rusage is the process's CPU time so far and its peak resident set.
type rusage struct {
	user, sys time.Duration
	maxRSS    int64 // bytes
}

func processUsage(t *testing.T) rusage {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Skipf("getrusage: %v", err)
	}
	return rusage{user: time.Duration(ru.Utime.Nano()), sys: time.Duration(ru.Stime.Nano()), maxRSS: ru.Maxrss * 1024}
}
