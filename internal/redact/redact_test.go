package redact

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

const presigned = "https://bundles.example.com/se_1/bundle.tar.gz?X-Amz-Expires=3600&X-Amz-Signature=topsecret123"

func TestURL(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"presigned query", presigned, "https://bundles.example.com/se_1/bundle.tar.gz?REDACTED"},
		{"reference server link", "http://127.0.0.1:8080/bundles/se_0123/bundle.tar.gz?expires=1&signature=ab12",
			"http://127.0.0.1:8080/bundles/se_0123/bundle.tar.gz?REDACTED"},
		{"userinfo and query", "https://u:p@host.example/path?X-Amz-Signature=x", "https://REDACTED@host.example/path?REDACTED"},
		{"user without password", "https://token@host.example/x", "https://REDACTED@host.example/x"},
		{"fragment", "https://host.example/x?a=1#access_token=s", "https://host.example/x?REDACTED#REDACTED"},
		{"no query", "https://host.example/docs/page", "https://host.example/docs/page"},
		{"no path", "https://host.example", "https://host.example"},
		{"port and ipv6", "http://[::1]:8080/b?sig=1", "http://[::1]:8080/b?REDACTED"},
		{"empty query kept marked", "https://host.example/x?", "https://host.example/x?REDACTED"},
		{"unparsable", "https://host.example/%zz?sig=abcdef01", "https://REDACTED"},
		{"no host", "file:///etc/passwd?x", "file://REDACTED"},
		{"not a url", "not a url", "REDACTED"},
		{"bare secret", "dak_0123456789abcdef", "REDACTED"},
		{"empty", "", "REDACTED"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := URL(c.in)
			if got != c.want {
				t.Fatalf("URL(%q) = %q, want %q", c.in, got, c.want)
			}
			if again := URL(got); again != got && got != Marker {
				t.Errorf("redacting again changed %q to %q", got, again)
			}
		})
	}
}

// A redacted URL is still a URL, so whatever parses log lines still can.
func TestURL_resultParses(t *testing.T) {
	u, err := url.Parse(URL("https://u:p@host.example/a/b?sig=1#f"))
	if err != nil {
		t.Fatal(err)
	}
	if u.Host != "host.example" || u.Path != "/a/b" || u.RawQuery != Marker || u.User.Username() != Marker {
		t.Fatalf("parsed back as %#v", u)
	}
}

func TestText(t *testing.T) {
	for _, c := range []struct {
		name, in string
		secrets  []string
		want     string
	}{
		{"net/http error", `Get "` + presigned + `": dial tcp 10.0.0.1:443: connect: connection refused`, nil,
			`Get "https://bundles.example.com/se_1/bundle.tar.gz?REDACTED": dial tcp 10.0.0.1:443: connect: connection refused`},
		{"two urls", `failed to apply "` + presigned + `" and https://other.example/?a=b`, nil,
			`failed to apply "https://bundles.example.com/se_1/bundle.tar.gz?REDACTED" and https://other.example/?REDACTED`},
		{"hclog key=value", "bundle_url=" + presigned + " version=v1", nil,
			"bundle_url=https://bundles.example.com/se_1/bundle.tar.gz?REDACTED version=v1"},
		{"json body", `{"bundleUrl":"` + presigned + `"}`, nil,
			`{"bundleUrl":"https://bundles.example.com/se_1/bundle.tar.gz?REDACTED"}`},
		{"yaml manifest", "  bundleUrl: '" + presigned + "'\n", nil,
			"  bundleUrl: 'https://bundles.example.com/se_1/bundle.tar.gz?REDACTED'\n"},
		{"userinfo in text", "proxy http://admin:hunter2@proxy.internal:3128 refused", nil,
			"proxy http://REDACTED@proxy.internal:3128 refused"},
		{"url without query", "GET https://api.example.com/v1/static-export/jobs/se_1: 404", nil,
			"GET https://api.example.com/v1/static-export/jobs/se_1: 404"},
		{"trailing punctuation is masked with the query", "see https://h.example/p?sig=abc.", nil,
			"see https://h.example/p?REDACTED"},
		{"secret and url", `bad key dak_123 for https://h/b?sig=1 "x"`, []string{"dak_123", ""},
			`bad key REDACTED for https://h/b?REDACTED "x"`},
		{"non-url text", "release \"docs\" has no deployed revision: 3 pending", nil,
			"release \"docs\" has no deployed revision: 3 pending"},
		{"scheme-less host is not a url", "host.example/path?sig=1", nil, "host.example/path?sig=1"},
		{"empty", "", nil, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Text(c.in, c.secrets...); got != c.want {
				t.Fatalf("Text(%q) =\n %q, want\n %q", c.in, got, c.want)
			}
		})
	}
}

func TestError(t *testing.T) {
	if Error(nil) != nil {
		t.Fatal("Error(nil) is not nil")
	}
	inner := fmt.Errorf("upgrade: %w: %q", context.DeadlineExceeded, presigned)
	err := fmt.Errorf("release %q: %w", "docs", Error(inner))
	if strings.Contains(err.Error(), "topsecret123") {
		t.Fatalf("signature in error: %s", err)
	}
	if !strings.Contains(err.Error(), "bundle.tar.gz?REDACTED") {
		t.Errorf("error lost the redacted link: %s", err)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Error("errors.Is no longer sees the wrapped cause")
	}
}

// FuzzText checks, for any text, that every URL left in the output carries
// no query, fragment or user info other than Marker, and that redacting
// twice changes nothing (so a log pipeline may redact again safely).
func FuzzText(f *testing.F) {
	for _, s := range []string{presigned, "x https://u:p@h/p?q#f y", `Get "http://[::1]:80/%zz?a": EOF`, "a://b", "A0://0%", "no url"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		if again := Text(out); again != out {
			t.Fatalf("Text not idempotent: %q -> %q -> %q", s, out, again)
		}
		for _, found := range urlPattern.FindAllString(out, -1) {
			u, err := url.Parse(found)
			if err != nil {
				if !strings.HasSuffix(found, "://"+Marker) {
					t.Fatalf("unparsable %q left in %q (from %q)", found, out, s)
				}
				continue
			}
			if (u.RawQuery != "" && u.RawQuery != Marker) || (u.Fragment != "" && u.Fragment != Marker) ||
				(u.User != nil && u.User.String() != Marker) {
				t.Fatalf("%q left in %q (from %q)", found, out, s)
			}
		}
	})
}
