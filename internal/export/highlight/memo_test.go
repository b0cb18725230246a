package highlight

import (
	"crypto/rand"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// A block met again comes from the export's memo: the same HTML as
// highlighting it, whatever the case of its language's name, and without
// tokenising it again.
func TestBudget_memoSameHTML(t *testing.T) {
	code := "func main() {\n\tfmt.Println(\"hi\")\n}\n"
	want, err := Code("go", code)
	if err != nil {
		t.Fatal(err)
	}
	b := NewBudget(time.Minute)
	for i, lang := range []string{"go", "Go", "GO"} {
		got, err := b.Code(lang, code)
		if err != nil || got.String() != want.String() {
			t.Fatalf("%s: %v\n%s\nwant\n%s", lang, err, got, want)
		}
		var sb strings.Builder
		if err := b.Write(&sb, lang, code); err != nil || sb.String() != want.String() {
			t.Fatalf("Write %s: %v\n%s", lang, err, sb.String())
		}
		if n := len(b.memo.cur) + len(b.memo.old); n != 1 {
			t.Fatalf("after %d blocks the memo holds %d, want the one", i+1, n)
		}
	}
	h, ok := b.memo.get("go", code)
	if !ok || h != want.String() {
		t.Fatalf("memo: %v %q", ok, h)
	}
}

// A block cut short is never kept: with no budget left, even a block
// highlighted before shows plain, and a hostile block's timeout leaves
// nothing in the memo.
func TestBudget_memoKeepsOnlyWholeBlocks(t *testing.T) {
	hostile := hostileBlocks()[0]
	b := NewBudget(time.Millisecond)
	if err := b.Write(&strings.Builder{}, hostile.lang, hostile.code); err == nil {
		t.Fatal("a hostile block within a millisecond's budget")
	}
	if _, ok := b.memo.get(hostile.lang, hostile.code); ok {
		t.Fatal("a block cut short was kept")
	}
}

// The memo stays within two generations of memoBytes, however many
// distinct blocks an export holds, and keeps the blocks met again.
func TestMemo_bounded(t *testing.T) {
	var m memo
	// HTML that does not deflate, so that each block takes its room.
	noise := func(n int) string {
		b := make([]byte, n)
		_, _ = rand.Read(b) // never fails
		return string(b)
	}
	hot := noise(4 << 10)
	m.put("go", "hot", hot)
	for i := range 4 * memoBytes / (4 << 10) {
		m.put("go", fmt.Sprint("block ", i), noise(4<<10))
		if h, ok := m.get("go", "hot"); !ok || h != hot {
			t.Fatalf("after %d blocks the block met each time is gone or changed", i)
		}
	}
	total := 0
	for _, g := range []map[memoKey][]byte{m.cur, m.old} {
		for k, v := range g {
			total += len(k) + len(v)
		}
	}
	if total > 2*memoBytes || m.curBytes > memoBytes || len(m.old) == 0 {
		t.Fatalf("memo holds %d bytes (current %d, %d blocks old), want at most %d and a generation passed", total, m.curBytes, len(m.old), 2*memoBytes)
	}
	m.put("go", "huge", noise(memoBytes/8))
	if _, ok := m.get("go", "huge"); ok {
		t.Fatal("a block larger than a sixteenth of a generation was kept")
	}
}

// Deflated or not, a kept block's HTML comes back as it went in, from
// many goroutines at once (the writers and readers are pooled).
func TestMemo_roundTrip(t *testing.T) {
	var m memo
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				code := fmt.Sprint("block ", w, i)
				html := strings.Repeat(`<span class="kd">`+code+`</span>`, i%7+1)
				m.put("go", code, html)
				if h, ok := m.get("Go", code); !ok || h != html {
					t.Errorf("%s: %v %q", code, ok, h)
					return
				}
			}
		}()
	}
	wg.Wait()
	if _, ok := m.get("python", "block 0 0"); ok {
		t.Error("a block found under another language")
	}
}
