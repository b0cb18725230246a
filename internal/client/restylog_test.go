package client

import (
	"context"
	"testing"
)

// ctxLogger records the ctx each line was logged with.
type ctxLogger struct{ ctxs *[]context.Context }

func (l ctxLogger) Debug(ctx context.Context, _ string, _ map[string]any) {
	*l.ctxs = append(*l.ctxs, ctx)
}
func (l ctxLogger) Warn(ctx context.Context, _ string, _ map[string]any) {
	*l.ctxs = append(*l.ctxs, ctx)
}

type ctxKey struct{}

// resty's own lines (it has no ctx of its own) are logged on the ctx of the
// request they belong to: under Terraform, tflog drops a line logged on any
// other ctx, context.Background() included.
func TestRestyLogger_logsOnTheRequestCtx(t *testing.T) {
	ctx := context.WithValue(context.Background(), ctxKey{}, "request")
	var got []context.Context
	r := restyLogger{ctx: ctx, l: ctxLogger{&got}}
	r.Errorf("e %d", 1)
	r.Warnf("w %d", 2)
	r.Debugf("d %d", 3)
	if len(got) != 3 {
		t.Fatalf("%d lines logged, want 3", len(got))
	}
	for i, c := range got {
		if c.Value(ctxKey{}) != "request" {
			t.Errorf("line %d was logged on another ctx than the request's", i)
		}
	}
}
