package provider

import (
	"context"
	"fmt"
	"io"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/client"
)

var (
	_ hclog.SinkAdapter = tflogSink{}
	_ client.Logger     = tfLogger{}
)

// The provider's dependencies log in their own ways: rollout through an
// hclog.Logger, the API client through client.Logger. Inside a provider
// call their lines must go to tflog with the RPC's ctx, or Terraform never
// sees them (a logger on context.Background() is silently dropped). This
// file is the one bridge; both faces below end in toTFLog, so a level or
// field is mapped the same way whichever package logged it.

// rolloutLogger returns the hclog.Logger, named "rollout", for one
// provider call: its lines reach Terraform's log through ctx. Its own
// output is discarded and its level is Off, so the sink is the only place
// a line goes. Lines are not redacted here: rollout redacts bundle links
// itself.
func rolloutLogger(ctx context.Context) hclog.Logger {
	log := hclog.NewInterceptLogger(&hclog.LoggerOptions{Name: "rollout", Output: io.Discard, Level: hclog.Off})
	log.RegisterSink(tflogSink{ctx: ctx})
	return log
}

// tflogSink is the hclog face of the bridge. hclog has no ctx of its own,
// so the sink carries the RPC's; make one per call, never keep it.
type tflogSink struct{ ctx context.Context }

// Accept forwards one hclog line, its key/value pairs as tflog fields.
func (s tflogSink) Accept(name string, level hclog.Level, msg string, args ...interface{}) {
	fields := make(map[string]any, len(args)/2+1)
	fields["logger"] = name
	for i := 0; i+1 < len(args); i += 2 {
		fields[fmt.Sprint(args[i])] = fieldValue(args[i+1])
	}
	toTFLog(s.ctx, level, msg, fields)
}

// tfLogger is the client.Logger face of the bridge. The client passes each
// request's ctx, so one value serves the provider's whole lifetime. The
// client has already redacted what it hands over.
type tfLogger struct{}

func (tfLogger) Debug(ctx context.Context, msg string, f map[string]any) {
	toTFLog(ctx, hclog.Debug, msg, f)
}

func (tfLogger) Warn(ctx context.Context, msg string, f map[string]any) {
	toTFLog(ctx, hclog.Warn, msg, f)
}

// fieldValue keeps the scalar types tflog's JSON renders natively and
// prints anything else (durations, errors, structs) with fmt, as hclog's
// own text output would.
func fieldValue(v any) any {
	switch v.(type) {
	case string, bool, int, int64, float64:
		return v
	}
	return fmt.Sprint(v)
}

// toTFLog writes one line at the tflog level matching an hclog level; a
// level without a match (Trace, NoLevel) is logged as trace.
func toTFLog(ctx context.Context, level hclog.Level, msg string, fields map[string]any) {
	logf, ok := tflogAt[level]
	if !ok {
		logf = tflog.Trace
	}
	logf(ctx, msg, fields)
}

var tflogAt = map[hclog.Level]func(context.Context, string, ...map[string]any){
	hclog.Debug: tflog.Debug, hclog.Info: tflog.Info, hclog.Warn: tflog.Warn, hclog.Error: tflog.Error,
}
