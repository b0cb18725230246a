package apiconfig

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseConfig_errors(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "site"), 0o755); err != nil {
		t.Fatal(err)
	}
	base := "organizations:\n  - id: acme\n    plan: enterprise\n    apiKeys: [dak_0123456789abcdef0123]\n"
	tests := []struct{ name, yaml, want string }{
		{"unknownField", "keyPrefx: dak\n" + base, "keyPrefx"},
		{"badPlan", strings.Replace(base, "enterprise", "gold", 1), `plan "gold"`},
		{"badKey", strings.Replace(base, "dak_0123456789abcdef0123", "mint_0123456789abcdef", 1), "apiKeys"},
		{"badDigest", strings.Replace(base, "dak_0123456789abcdef0123", "sha256:abc", 1), "64 hex"},
		{"badDuration", "bundleLinkTTL: soon\n" + base, "soon"},
		{"noOrganizations", "keyPrefix: dak\n", "at least one organization"},
		{"badKind", base + "    projects:\n      - id: p\n        repository: r\n        deployments:\n          - {domain: d.test, source: ./site, kind: moon}\n", "moon"},
		{"missingSource", base + "    projects:\n      - id: p\n        repository: r\n        deployments:\n          - {domain: d.test, source: ./nope}\n", "not a directory"},
		{"badOutcome", base + "    projects:\n      - id: p\n        repository: r\n        agent: {outcome: maybe}\n", "maybe"},
		{"wildcardOrigin", "corsAllowedOrigins: [\"*\"]\n" + base, "is not an origin"},
		{"originWithPath", "corsAllowedOrigins: [https://docs.test/x]\n" + base, "is not an origin"},
		{"wildcardScheme", "corsAllowedOrigins: [\"https://*\"]\n" + base, "is not an origin"},
		{"wildcardNoScheme", "corsAllowedOrigins: [\"*.acme.test\"]\n" + base, "is not an origin"},
		{"wildcardInside", "corsAllowedOrigins: [\"https://a.*.acme.test\"]\n" + base, "is not an origin"},
		{"wildcardInLabel", "corsAllowedOrigins: [\"https://*acme.test\"]\n" + base, "is not an origin"},
		{"wildcardTwice", "corsAllowedOrigins: [\"https://*.*.acme.test\"]\n" + base, "is not an origin"},
		{"wildcardTopLevel", "corsAllowedOrigins: [\"https://*.test\"]\n" + base, "top-level domain"},
		{"wildcardWithPath", "corsAllowedOrigins: [\"https://*.acme.test/x\"]\n" + base, "is not an origin"},
		{"airGappedAssistant", base + "    projects:\n      - id: p\n        repository: r\n        deployments:\n          - {domain: d.test, source: ./site, kind: air-gapped, features: [assistant]}\n", "may list only playground"},
		{"unknownFeature", base + "    projects:\n      - id: p\n        repository: r\n        deployments:\n          - {domain: d.test, source: ./site, kind: client-hosted, features: [chat]}\n", `unknown feature "chat"`},
		{"badBasePath", base + "    projects:\n      - id: p\n        repository: r\n        deployments:\n          - {domain: d.test, source: ./site, basePath: \"/docs?x\"}\n", "invalid base path"},
		{"badDomain", base + "    projects:\n      - id: p\n        repository: r\n        deployments:\n          - {domain: https://d.test, source: ./site}\n", "not a hostname"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseConfig([]byte(tc.yaml), dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

func TestParseConfig_hashedKey(t *testing.T) {
	key := "dak_0123456789abcdef0123456789abcdef"
	sum := sha256.Sum256([]byte(key))
	cfg, err := ParseConfig([]byte("organizations:\n  - id: acme\n    plan: pro\n    apiKeys: [\"sha256:"+hex.EncodeToString(sum[:])+"\"]\n"), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// The server compares digests only: the listed digest is the key's.
	if d := cfg.Organizations[0].KeyDigests; len(d) != 1 || d[0] != sum {
		t.Fatalf("key digests = %x, want the one listed", d)
	}
	if cfg.KeyPrefix != "dak" || cfg.AgentJobsPerHour != DefaultAgentJobsPerHour {
		t.Fatalf("defaults not applied: %+v", cfg)
	}
}

func TestParseConfig_limits(t *testing.T) {
	base := "organizations:\n  - id: acme\n    plan: enterprise\n    apiKeys: [dak_0123456789abcdef0123]\n"
	cfg, err := ParseConfig([]byte("limits:\n  maxPageBytes: 512KiB\n  maxAssetBytes: 20MB\n  maxFiles: 300\n  maxTotalBytes: 1073741824\n"+
		"  highlightTime: 3s\n  maxConfigBytes: 2MiB\n  maxConfigValues: 1000\n  maxConfigDepth: 40\n"+base), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	got := cfg.Limits.Export()
	if got.MaxPageBytes != 512<<10 || got.MaxAssetBytes != 20e6 || got.MaxFiles != 300 || got.MaxTotalBytes != 1<<30 ||
		got.HighlightTime != 3*time.Second || got.Config.MaxBytes != 2<<20 || got.Config.MaxValues != 1000 || got.Config.MaxDepth != 40 {
		t.Fatalf("limits = %+v", got)
	}
	for name, tc := range map[string]struct{ yaml, want string }{
		"unit":         {"limits: {maxPageBytes: 4 parsecs}\n", `"4 parsecs"`},
		"negative":     {"limits: {maxAssetBytes: -1}\n", `"-1"`},
		"negativeN":    {"limits: {maxFiles: -3}\n", "maxFiles must not be negative"},
		"negativeTime": {"limits: {highlightTime: -1s}\n", `duration "-1s" is negative`},
		"negativeJSON": {"limits: {maxConfigDepth: -1}\n", "maxConfigDepth must not be negative"},
		"overflow":     {"limits: {maxTotalBytes: 9999999999TiB}\n", "too large"},
		"unknown":      {"limits: {maxPages: 3}\n", "maxPages"},
		"pageOverAll":  {"limits: {maxPageBytes: 2MiB, maxTotalBytes: 1MiB}\n", "must not exceed maxTotalBytes"},
		"assetOverAll": {"limits: {maxTotalBytes: 1MiB}\n", "maxAssetBytes (104857600)"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ParseConfig([]byte(tc.yaml+base), t.TempDir())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to mention %q", err, tc.want)
			}
		})
	}
}
