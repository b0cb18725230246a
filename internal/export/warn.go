package export

import (
	"fmt"
	"sync"
)

// warnings collects what a docs author should know about an export that
// still succeeded: settings left out, references that resolve to nothing,
// content replaced. Each distinct message is kept once.
type warnings struct {
	mu   sync.Mutex
	seen map[string]bool
	sink func(string)
}

// warn records a user-visible warning; the message names the file or
// setting at fault. It is safe for concurrent use, and Request.Warn is
// never called concurrently.
func (j *job) warn(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	w := &j.warnings
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.seen[msg] {
		return
	}
	if w.seen == nil {
		w.seen = map[string]bool{}
	}
	w.seen[msg] = true
	j.e.log.Warn(msg)
	if w.sink != nil {
		w.sink(msg)
	}
}
