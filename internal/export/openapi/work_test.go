package openapi

import (
	"context"
	"errors"
	"testing"
)

func TestWork_stopsAtBudgetAndOnCancel(t *testing.T) {
	w := NewWork(context.Background(), 10)
	n := 0
	for w.spend() {
		n++
	}
	if n != 10 || !w.Stopped() || w.Err() != nil {
		t.Errorf("spent %d of 10, stopped %v, err %v", n, w.Stopped(), w.Err())
	}

	ctx, cancel := context.WithCancel(context.Background())
	w = NewWork(ctx, 1<<20)
	cancel()
	n = 0
	for w.spend() {
		n++
	}
	if n > checkEvery || !errors.Is(w.Err(), context.Canceled) {
		t.Errorf("after cancel: %d more steps, err %v; want at most %d and context.Canceled", n, w.Err(), checkEvery)
	}

	var none *Work
	if !none.spend() || none.Stopped() || none.Err() != nil {
		t.Error("a nil Work must never stop")
	}
}

// TestFlatten_cutWhenWorkRunsOut: past the page's work a schema is named,
// not expanded, and its type label says so.
func TestFlatten_cutWhenWorkRunsOut(t *testing.T) {
	spec := &Spec{Root: mustObj(t, `{"components": {"schemas": {"A": {"type": "object", "properties": {"x": {"type": "string"}}}}}}`)}
	v := &View{Spec: spec, Work: NewWork(context.Background(), 0)}
	ref := NewObj()
	ref.Set("$ref", "#/components/schemas/A")
	f := v.Flatten(ref)
	if !f.Cut || f.Name != "A" || len(f.Props.Keys) != 0 {
		t.Fatalf("Flatten = %+v, want A cut", f)
	}
	if got := v.TypeLabel(f); got != "A …" {
		t.Errorf("TypeLabel = %q, want %q", got, "A …")
	}
	if v.Work.Cut != 1 {
		t.Errorf("Work.Cut = %d, want 1", v.Work.Cut)
	}
}

func mustObj(t *testing.T, js string) *Obj {
	t.Helper()
	v, err := decodeJSONOrdered([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return v.(*Obj)
}
