package client

import (
	"context"
	"fmt"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/redact"
)

// Logger receives the client's log lines. The provider adapts tflog to it
// (which needs the request's ctx), the rollout CLI adapts hclog. Whatever
// reaches a Logger has already been redacted.
type Logger interface {
	Debug(ctx context.Context, msg string, fields map[string]any)
	Warn(ctx context.Context, msg string, fields map[string]any)
}

// HCLogger adapts an hclog.Logger; ctx is not needed by hclog.
func HCLogger(l hclog.Logger) Logger { return hcAdapter{l} }

type hcAdapter struct{ l hclog.Logger }

func (a hcAdapter) Debug(_ context.Context, msg string, f map[string]any) {
	a.l.Debug(msg, flatten(f)...)
}

func (a hcAdapter) Warn(_ context.Context, msg string, f map[string]any) {
	a.l.Warn(msg, flatten(f)...)
}

func flatten(f map[string]any) []any {
	out := make([]any, 0, 2*len(f))
	for k, v := range f {
		out = append(out, k, v)
	}
	return out
}

type nopLogger struct{}

func (nopLogger) Debug(context.Context, string, map[string]any) {}
func (nopLogger) Warn(context.Context, string, map[string]any)  {}

// redactingLogger sits between the client and the caller's Logger so that
// no code path, including resty's own warnings, can leak the key or a
// presigned link: every string goes through redact.Text, which masks URL
// queries and user info (a link is a bearer credential, and any URL a server
// quotes in an error might be one) and the API key.
type redactingLogger struct {
	next    Logger
	secrets []string
}

func (r redactingLogger) clean(msg string, f map[string]any) (string, map[string]any) {
	out := make(map[string]any, len(f))
	for k, v := range f {
		if s, ok := v.(string); ok {
			v = redact.Text(s, r.secrets...)
		}
		out[k] = v
	}
	return redact.Text(msg, r.secrets...), out
}

func (r redactingLogger) Debug(ctx context.Context, msg string, f map[string]any) {
	msg, f = r.clean(msg, f)
	r.next.Debug(ctx, msg, f)
}

func (r redactingLogger) Warn(ctx context.Context, msg string, f map[string]any) {
	msg, f = r.clean(msg, f)
	r.next.Warn(ctx, msg, f)
}

// restyLogger routes resty's internal messages through the redacting
// logger instead of resty's default stderr writer. resty's Logger has no
// ctx, so each request gets one made with its own ctx (do): under
// Terraform, tflog drops a line logged on any other ctx. The client-wide
// one, for what resty says outside a request, has only the background.
type restyLogger struct {
	ctx context.Context
	l   Logger
}

func (r restyLogger) Errorf(format string, v ...any) {
	r.l.Warn(r.ctx, fmt.Sprintf(format, v...), nil)
}
func (r restyLogger) Warnf(format string, v ...any) {
	r.l.Warn(r.ctx, fmt.Sprintf(format, v...), nil)
}
func (r restyLogger) Debugf(format string, v ...any) {
	r.l.Debug(r.ctx, fmt.Sprintf(format, v...), nil)
}
