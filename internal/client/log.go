package client

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/go-hclog"
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

// Redacted is what replaces a secret in log lines.
const Redacted = "[REDACTED]"

// Presigned bundle links are bearer credentials too, and any URL a server
// puts in an error message might be one, so log lines carry no URL at all.
var urlPattern = regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9+.-]*://[^\s"']+`)

// Redact removes every URL and every given secret from s.
func Redact(s string, secrets ...string) string {
	s = urlPattern.ReplaceAllString(s, Redacted)
	for _, sec := range secrets {
		if sec != "" {
			s = strings.ReplaceAll(s, sec, Redacted)
		}
	}
	return s
}

// redactingLogger sits between the client and the caller's Logger so that
// no code path, including resty's own warnings, can leak the key.
type redactingLogger struct {
	next    Logger
	secrets []string
}

func (r redactingLogger) clean(msg string, f map[string]any) (string, map[string]any) {
	out := make(map[string]any, len(f))
	for k, v := range f {
		if s, ok := v.(string); ok {
			v = Redact(s, r.secrets...)
		}
		out[k] = v
	}
	return Redact(msg, r.secrets...), out
}

func (r redactingLogger) Debug(ctx context.Context, msg string, f map[string]any) {
	msg, f = r.clean(msg, f)
	r.next.Debug(ctx, msg, f)
}

func (r redactingLogger) Warn(ctx context.Context, msg string, f map[string]any) {
	msg, f = r.clean(msg, f)
	r.next.Warn(ctx, msg, f)
}

// restyLogger routes resty's internal messages (which have no ctx) through
// the redacting logger instead of resty's default stderr writer.
type restyLogger struct{ l Logger }

func (r restyLogger) Errorf(format string, v ...any) {
	r.l.Warn(context.Background(), fmt.Sprintf(format, v...), nil)
}
func (r restyLogger) Warnf(format string, v ...any) {
	r.l.Warn(context.Background(), fmt.Sprintf(format, v...), nil)
}
func (r restyLogger) Debugf(format string, v ...any) {
	r.l.Debug(context.Background(), fmt.Sprintf(format, v...), nil)
}
