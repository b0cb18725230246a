package rolloutcmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// progress shows an export's progress: a bar redrawn in place on a
// terminal, or one line per change of status or tenth of progress
// otherwise, so CI logs stay short.
type progress struct {
	out      io.Writer
	tty      bool
	id       string
	status   string
	lastStep int
	drawn    bool
}

func newProgress(out io.Writer, tty bool, id string) *progress {
	return &progress{out: out, tty: tty, id: id, lastStep: -1}
}

const barWidth = 30

func (p *progress) update(j api.ExportJob) {
	if p.tty {
		filled := int(j.Progress) * barWidth / 100
		fmt.Fprintf(p.out, "\rexport %s [%s%s] %3.0f%% %d pages %-9s",
			p.id, strings.Repeat("#", filled), strings.Repeat(".", barWidth-filled), j.Progress, j.PageCount, j.Status)
		p.drawn = true
		return
	}
	step := int(j.Progress) / 10
	if j.Status == p.status && step == p.lastStep {
		return
	}
	p.status, p.lastStep = j.Status, step
	fmt.Fprintf(p.out, "export %s: %s %.0f%% (%d pages)\n", p.id, j.Status, j.Progress, j.PageCount)
}

// done ends the bar's line so that the next output starts on its own.
// It may be called more than once.
func (p *progress) done() {
	if p.tty && p.drawn {
		fmt.Fprintln(p.out)
		p.drawn = false
	}
}

// printWarnings lists what the export warned about, so the operator sees
// what the bundle left out or replaced even when the export succeeded.
func printWarnings(out io.Writer, id string, w *api.ExportWarnings) {
	if w == nil || w.Count == 0 {
		return
	}
	fmt.Fprintf(out, "export %s: %d warning(s):\n", id, w.Count)
	for _, m := range w.Messages {
		fmt.Fprintf(out, "  warning: %s\n", m)
	}
	if more := w.Count - len(w.Messages); more > 0 {
		fmt.Fprintf(out, "  ... and %d more\n", more)
	}
}
