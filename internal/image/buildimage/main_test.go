package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestRun_usage: missing flags and stray arguments are usage errors (exit
// 2); a release directory without the linux zips is an error (exit 1)
// that names what is missing.
func TestRun_usage(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no revision", []string{"-created", "1"}, 2, "-revision and -created are required"},
		{"no created", []string{"-revision", "abc"}, 2, "-revision and -created are required"},
		{"stray argument", []string{"-revision", "abc", "-created", "1", "extra"}, 2, "no arguments are taken"},
		{"unknown flag", []string{"-nope"}, 2, "flag provided but not defined"},
		{"no zips", []string{"-revision", "abc", "-created", "1", "-release", t.TempDir()}, 1, "linux_amd64.zip"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(tc.args, &stdout, &stderr); code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("stderr does not say %q:\n%s", tc.want, stderr.String())
			}
			if stdout.Len() != 0 {
				t.Errorf("stdout on failure: %q", stdout.String())
			}
		})
	}
}
