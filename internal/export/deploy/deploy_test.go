package deploy

import (
	"strings"
	"testing"
)

func TestParseKind(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    Kind
		wantErr string
	}{
		{in: "", want: KindCloud},
		{in: "cloud", want: KindCloud},
		{in: "client-hosted", want: KindClientHosted},
		{in: "air-gapped", want: KindAirGapped},
		{in: "Cloud", wantErr: `unknown deployment kind "Cloud"`},
		{in: "airgapped", wantErr: `unknown deployment kind "airgapped"`},
	} {
		got, err := ParseKind(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseKind(%q) = %q, %v; want an error containing %q", tc.in, got, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseKind(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestCheckFeatures(t *testing.T) {
	for _, tc := range []struct {
		kind    Kind
		names   []string
		wantErr string
	}{
		{kind: KindCloud, names: []string{"analytics", "assistant", "playground", "search"}},
		{kind: KindClientHosted, names: []string{"assistant"}},
		{kind: KindAirGapped, names: []string{"playground", "search"}},
		{kind: KindAirGapped, names: nil},
		{kind: KindAirGapped, names: []string{"analytics"}, wantErr: `feature "analytics" reaches the network`},
		{kind: KindAirGapped, names: []string{"assistant"}, wantErr: `feature "assistant" reaches the network`},
		{kind: KindCloud, names: []string{"comments"}, wantErr: `unknown feature "comments" (want one of analytics, assistant, playground, search)`},
		// An unknown name is reported as unknown even where the kind
		// would refuse it too: the author has a typo to fix first.
		{kind: KindAirGapped, names: []string{"Search"}, wantErr: `unknown feature "Search"`},
	} {
		err := CheckFeatures(tc.kind, tc.names)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("CheckFeatures(%s, %q) = %v, want nil", tc.kind, tc.names, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("CheckFeatures(%s, %q) = %v, want an error containing %q", tc.kind, tc.names, err, tc.wantErr)
		}
	}
}

func TestCleanBasePath(t *testing.T) {
	for in, want := range map[string]string{
		"": "", "/": "", " / ": "", "docs": "/docs", "/docs": "/docs", "/docs/": "/docs",
		"docs/v2": "/docs/v2", "/a-b_c.d/e~f/": "/a-b_c.d/e~f",
		// Slashes around the path are trimmed, so this is a path, never a host.
		"//docs.example": "/docs.example",
	} {
		if got, err := CleanBasePath(in); err != nil || got != want {
			t.Errorf("CleanBasePath(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{
		"https://example.com/docs", "/docs?x=1", "/docs#top", "/a/../b", "/./a",
		`\docs`, "/do cs", "/docs%2f..", `/"docs"`, "/<script>", "/a//b",
	} {
		if got, err := CleanBasePath(in); err == nil || !strings.Contains(err.Error(), "invalid base path") {
			t.Errorf("CleanBasePath(%q) = %q, %v; want an invalid base path error", in, got, err)
		}
	}
}
