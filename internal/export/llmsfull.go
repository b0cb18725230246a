package export

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/bundle"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/machines"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/export/markup"
)

// writeLLMsFull writes llms-full.txt: every listed page's Markdown copy,
// in reading order, each under a line naming its copy. The copies are
// read back from the bundle, where the workers wrote them, so that no
// page's Markdown stays in memory until the end of the export: on a site
// of 20,000 pages that was tens of MiB held, then copied twice more.
func (j *pipeline) writeLLMsFull(rel string) (err error) {
	out, err := j.out.create(rel)
	if err != nil {
		return fmt.Errorf("generate %s: %w", rel, err)
	}
	defer func() {
		if cerr := out.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("generate %s: %w", rel, cerr)
		}
	}()
	h := sha256.New()
	w := bufio.NewWriterSize(io.MultiWriter(out, h), 64<<10)
	var n int64
	for i, p := range j.mach.LLMsListed() {
		head := "<!-- Source: " + markup.Path("", machines.MDOut(p.Out), "").String() + " -->\n\n"
		if i > 0 {
			head = "\n---\n\n" + head
		}
		k, _ := w.WriteString(head)
		n += int64(k)
		c, err := j.copyWritten(w, machines.MDOut(p.Out))
		n += c
		if err != nil {
			return fmt.Errorf("generate %s: %w", rel, err)
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("generate %s: %w", rel, err)
	}
	j.out.record(bundle.File{Path: rel, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))})
	return nil
}

// copyWritten copies a file this export wrote into the bundle to w.
func (j *pipeline) copyWritten(w io.Writer, rel string) (int64, error) {
	f, err := j.out.to.Open(rel)
	if err != nil {
		return 0, err
	}
	defer func() { _ = f.Close() }() // read only: nothing to lose on close
	return bundle.Copy(w, f)
}
