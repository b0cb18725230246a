package highlight

import (
	"fmt"
	"strings"
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
	html := strings.Repeat("x", 4<<10)
	m.put("go", "hot", html)
	for i := range 4 * memoBytes / len(html) {
		m.put("go", fmt.Sprint("block ", i), html)
		if _, ok := m.get("go", "hot"); !ok {
			t.Fatalf("after %d blocks the block met each time is gone", i)
		}
	}
	total := 0
	for _, g := range []map[memoKey]string{m.cur, m.old} {
		for k, v := range g {
			total += len(k.lang) + len(k.code) + len(v)
		}
	}
	if total > 2*memoBytes || m.curBytes > memoBytes {
		t.Fatalf("memo holds %d bytes (current %d), want at most %d", total, m.curBytes, 2*memoBytes)
	}
	m.put("go", "huge", strings.Repeat("y", memoBytes))
	if _, ok := m.get("go", "huge"); ok {
		t.Fatal("a block larger than a sixteenth of a generation was kept")
	}
}
