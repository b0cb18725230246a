package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
)

func TestParseLevel(t *testing.T) {
	for in, want := range map[string]hclog.Level{
		"trace": hclog.Trace, "debug": hclog.Debug, "info": hclog.Info, "warn": hclog.Warn, "error": hclog.Error,
		"INFO": hclog.Info, " warn ": hclog.Warn, // hclog's own leniency, kept
	} {
		if got, err := ParseLevel(in); err != nil || got != want {
			t.Errorf("ParseLevel(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "loud", "warning", "2"} {
		if _, err := ParseLevel(in); err == nil {
			t.Errorf("ParseLevel(%q) accepted", in)
		}
	}
}

// TestParse_levelPrecedence: the flag wins over the environment, the
// environment over the default, and a bad value is a usage error only where
// it would be used.
func TestParse_levelPrecedence(t *testing.T) {
	for _, tc := range []struct {
		name, env string
		args      []string
		want      hclog.Level
		usage     string // non-empty: expect exit 2 with this on stderr
	}{
		{name: "default", want: hclog.Info},
		{name: "env", env: "debug", want: hclog.Debug},
		{name: "flag", args: []string{"--log-level", "warn"}, want: hclog.Warn},
		{name: "flag over env", env: "trace", args: []string{"--log-level=error"}, want: hclog.Error},
		{name: "flag naming the default over env", env: "trace", args: []string{"--log-level", "info"}, want: hclog.Info},
		{name: "good flag hides a bad env", env: "loud", args: []string{"--log-level", "debug"}, want: hclog.Debug},
		{name: "bad env", env: "loud", usage: `DOCSADMIN_LOG_LEVEL: unknown log level "loud"`},
		{name: "bad flag", args: []string{"--log-level", "loud"}, usage: `invalid value "loud" for flag -log-level`},
		{name: "empty flag", env: "debug", args: []string{"--log-level="}, usage: `invalid value "" for flag -log-level`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(EnvLogLevel, tc.env)
			var stderr bytes.Buffer
			log, code, ok := New("test", &stderr).Parse(tc.args)
			if tc.usage != "" {
				if ok || code != ExitUsage || !strings.Contains(stderr.String(), tc.usage) {
					t.Fatalf("ok=%v code=%d stderr=%q; want exit 2 saying %q", ok, code, stderr.String(), tc.usage)
				}
				return
			}
			if !ok {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			if got := log.GetLevel(); got != tc.want {
				t.Fatalf("level %v, want %v", got, tc.want)
			}
		})
	}
}

func TestParse_helpAndArguments(t *testing.T) {
	t.Setenv(EnvLogLevel, "")
	var stderr bytes.Buffer
	if _, code, ok := New("test", &stderr).Parse([]string{"-h"}); ok || code != ExitOK || !strings.Contains(stderr.String(), "-log-level") {
		t.Fatalf("-h: ok=%v code=%d stderr=%q", ok, code, stderr.String())
	}
	stderr.Reset()
	if _, code, ok := New("test", &stderr).Parse([]string{"stray"}); ok || code != ExitUsage || stderr.String() != "test: unexpected argument \"stray\"\n" {
		t.Fatalf("stray argument: ok=%v code=%d stderr=%q", ok, code, stderr.String())
	}
	stderr.Reset()
	if _, code, ok := New("test", &stderr).Parse([]string{"--no-such-flag"}); ok || code != ExitUsage || stderr.Len() == 0 {
		t.Fatalf("unknown flag: ok=%v code=%d stderr=%q", ok, code, stderr.String())
	}
}

// The logger writes to the command's stderr under its name.
func TestParse_loggerWritesToStderr(t *testing.T) {
	t.Setenv(EnvLogLevel, "")
	var stderr bytes.Buffer
	log, _, ok := New("serve-bundle", &stderr).Parse(nil)
	if !ok {
		t.Fatal(stderr.String())
	}
	log.Debug("hidden")
	log.Info("shown")
	if s := stderr.String(); !strings.Contains(s, "serve-bundle: shown") || strings.Contains(s, "hidden") {
		t.Fatalf("stderr %q", s)
	}
}
