// Package testutil holds small helpers shared by the tests of several
// packages: Eventually, SkipShort (what make check leaves out), FreePorts,
// child-process attributes. Only _test.go files and the other test helper
// packages (apiservertest, kubetest, pgtest, s3test) import it; depguard
// holds that line.
package testutil

import (
	"bytes"
	"sync"
)

// SyncBuffer is an io.Writer that goroutines (a server's, Helm's) may write
// to while a test reads what was written.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns everything written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
