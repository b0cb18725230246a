package jsx

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
)

// The evaluator process and the export speak in frames: a four-byte
// big-endian length, then one JSON message. A length says how much to
// read before anything is read, so the export refuses an oversized
// answer without holding it.

// message is every message of the protocol; Op says which fields count.
//
// From the export: "init" (Builtins), "page" (Scopes, Budget), "render"
// (Scope, Call, Raw), "math" (Tex, Display: answered with the HTML as
// Tree) and the answers to the evaluator's questions
// ("file" with File for a resolve, Code or Err for a load).
//
// From the evaluator: "ready" once it has started (Err if it cannot
// serve), "resolve" (From: the importing module's folder, Spec), "load" (File), and the end of a render:
// "done" (Tree) or "error" (Err, Kind).
type message struct {
	Op       string      `json:"op"`
	Builtins []string    `json:"builtins,omitempty"`
	Scopes   []scopeCode `json:"scopes,omitempty"`
	Budget   int64       `json:"budget,omitempty"` // nanoseconds
	Scope    int         `json:"scope,omitempty"`
	Call     int         `json:"call,omitempty"`
	Raw      int         `json:"raw,omitempty"`
	From     string      `json:"from,omitempty"`
	Spec     string      `json:"spec,omitempty"`
	File     string      `json:"file,omitempty"`
	Code     string      `json:"code,omitempty"`
	Tree     string      `json:"tree,omitempty"`
	Tex      string      `json:"tex,omitempty"`
	Display  bool        `json:"display,omitempty"`
	Err      string      `json:"err,omitempty"`
	Kind     string      `json:"kind,omitempty"`
}

// scopeCode is a page's scope transpiled to a module factory, or why it
// could not be.
type scopeCode struct {
	File string `json:"file"`
	Code string `json:"code,omitempty"`
	Err  string `json:"err,omitempty"`
}

// Kinds of a render's error that the export treats apart.
const (
	kindBudget = "budget" // the page's time budget ran out inside the evaluator
)

// maxFrame bounds one message: a render's tree is refused well before
// it, since the renderer caps a page's output at maxOutput.
const maxFrame = 4*maxOutput + 1<<20

func writeFrame(w *bufio.Writer, m *message) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if len(b) > maxFrame {
		return errFrameSize
	}
	var hdr [4]byte
	binary.BigEndian.PutUint32(hdr[:], uint32(len(b))) //nolint:gosec // bounded by maxFrame just above
	if _, err := w.Write(hdr[:]); err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		return err
	}
	return w.Flush()
}

// errFrameSize is a frame longer than maxFrame.
var errFrameSize = fmt.Errorf("a message of the component evaluator is over %d bytes", maxFrame)

func readFrame(r *bufio.Reader, m *message) error {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n > maxFrame {
		return errFrameSize
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	*m = message{}
	return json.Unmarshal(b, m)
}
