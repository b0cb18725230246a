package provider

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// Lines from rollout (hclog) and from the client (client.Logger) both reach
// the tflog logger of the ctx they were made with, at the matching level
// and with their fields.
func TestLogBridge_forwardsToTFLog(t *testing.T) {
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)

	log := rolloutLogger(ctx)
	log.Trace("helm detail")
	log.Info("upgrading release", "revision", 3, "took", 2*time.Second, "atomic", true)
	log.Named("helm").Error("upgrade failed", "error", "boom")
	tfLogger{}.Debug(ctx, "admin API request", map[string]any{"status": 200})
	tfLogger{}.Warn(ctx, "admin API request failed", nil)

	lines, err := tflogtest.MultilineJSONDecode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{
		{"@level": "trace", "@message": "helm detail", "logger": "rollout"},
		{"@level": "info", "@message": "upgrading release", "logger": "rollout",
			"revision": float64(3), "took": "2s", "atomic": true},
		{"@level": "error", "@message": "upgrade failed", "logger": "rollout.helm", "error": "boom"},
		{"@level": "debug", "@message": "admin API request", "status": float64(200)},
		{"@level": "warn", "@message": "admin API request failed"},
	}
	if len(lines) != len(want) {
		t.Fatalf("got %d lines, want %d: %v", len(lines), len(want), lines)
	}
	for i, w := range want {
		for k, v := range w {
			if lines[i][k] != v {
				t.Errorf("line %d: %s = %#v, want %#v (line %v)", i, k, lines[i][k], v, lines[i])
			}
		}
	}
}
