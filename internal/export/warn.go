package export

import (
	"fmt"
	"strings"
	"sync"

	"github.com/hashicorp/go-hclog"
)

// warnings collects what a docs author should know about an export that
// still succeeded: settings left out, references that resolve to nothing,
// content replaced. Each distinct message is kept once.
type warnings struct {
	mu   sync.Mutex
	seen map[string]bool
	sink func(Warning)
	log  hclog.Logger
	// untraced, when set, is told of each warning that does not come
	// from a page's trace (pageTrace): the pages rendering then cannot
	// be reused (inflight.taint).
	untraced func()
}

// as returns the warning function of one kind, for a part of the export
// whose warnings are all of it.
func (w *warnings) as(kind string) func(format string, args ...any) {
	return func(format string, args ...any) { w.add(kind, format, args...) }
}

// add records a user-visible warning of a kind; the message names the
// file or setting at fault. It is safe for concurrent use, and
// Request.Warn is never called concurrently.
func (w *warnings) add(kind, format string, args ...any) {
	if w.untraced != nil {
		w.untraced()
	}
	w.put(kind, fmt.Sprintf(format, args...))
}

// put is add of a formatted message, from a page's trace.
func (w *warnings) put(kind, msg string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.seen[msg] {
		return
	}
	if w.seen == nil {
		w.seen = map[string]bool{}
	}
	w.seen[msg] = true
	w.log.Warn(msg, "kind", kind)
	if w.sink != nil {
		w.sink(Warning{Kind: kind, Message: msg})
	}
}

// warnAPI reports a problem with a spec or an endpoint reference as one of
// the export's user-visible warnings, its key-value details appended.
func (w *warnings) detail(msg string, kv ...any) {
	var b strings.Builder
	b.WriteString(msg)
	for i := 0; i+1 < len(kv); i += 2 {
		fmt.Fprintf(&b, "; %v: %v", kv[i], kv[i+1])
	}
	w.add(WarnAPI, "%s", b.String())
}
