package objstore

import (
	"strings"
	"testing"
)

func TestParseURL_valid(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want Config
	}{
		{"s3://docs?endpoint=http://127.0.0.1:9000&region=us-east-1&path-style=true",
			Config{Bucket: "docs", Endpoint: "http://127.0.0.1:9000", Region: "us-east-1", PathStyle: true}},
		{"s3://docs", Config{Bucket: "docs", Region: DefaultRegion}},
		{"s3://my.docs-2/?region=eu-west-1&path-style=0",
			Config{Bucket: "my.docs-2", Region: "eu-west-1"}},
		{"s3://docs?endpoint=https%3A%2F%2Fs3.example.com%2F",
			Config{Bucket: "docs", Endpoint: "https://s3.example.com", Region: DefaultRegion}},
	} {
		got, err := ParseURL(tc.raw)
		if err != nil {
			t.Errorf("ParseURL(%q): %v", tc.raw, err)
			continue
		}
		if got != tc.want {
			t.Errorf("ParseURL(%q) = %+v, want %+v", tc.raw, got, tc.want)
		}
		// String renders what ParseURL reads back to the same Config.
		again, err := ParseURL(got.String())
		if err != nil || again != got {
			t.Errorf("ParseURL(%q.String() = %q) = %+v, %v; want %+v", tc.raw, got.String(), again, err, got)
		}
	}
}

func TestParseURL_invalid(t *testing.T) {
	for _, tc := range []struct {
		raw, want string
	}{
		{"", "empty"},
		{"   ", "empty"},
		{"http://docs", `scheme "http"`},
		{"docs", `scheme ""`},
		{"s3://", "names no bucket"},
		{"s3:docs", "names no bucket"},
		{"s3://AKIA:secret@docs", "carries credentials"},
		{"s3://Docs", "not a valid bucket name"},
		{"s3://do", "not a valid bucket name"},
		{"s3://docs-", "not a valid bucket name"},
		{"s3://my..docs", "not a valid bucket name"},
		{"s3://docs:9000", "not a valid bucket name"},
		{"s3://" + strings.Repeat("a", 64), "not a valid bucket name"},
		{"s3://docs/sites", "a key prefix is not supported"},
		{"s3://docs#x", "fragment"},
		{"s3://docs?endpoint=%zz", "malformed query"},
		{"s3://docs?pathstyle=true", `unknown parameter "pathstyle"`},
		{"s3://docs?region=a&region=b", `sets "region" more than once`},
		{"s3://docs?region=", "not a region name"},
		{"s3://docs?region=us%20east", "not a region name"},
		{"s3://docs?path-style=yes", `path-style is "yes"`},
		{"s3://docs?endpoint=", `scheme ""`},
		{"s3://docs?endpoint=127.0.0.1:9000", "not a URL"},
		{"s3://docs?endpoint=ftp://host", `scheme "ftp"`},
		{"s3://docs?endpoint=http://", "names no host"},
		{"s3://docs?endpoint=http://:9000", "names no host"},
		{"s3://docs?endpoint=http://host:0", `port "0"`},
		{"s3://docs?endpoint=http://host:99999", `port "99999"`},
		{"s3://docs?endpoint=http://host/base", "has a path, query or fragment"},
		{"s3://docs?endpoint=http%3A%2F%2Fhost%3Fa%3Db", "has a path, query or fragment"},
	} {
		_, err := ParseURL(tc.raw)
		if err == nil {
			t.Errorf("ParseURL(%q) succeeded, want an error containing %q", tc.raw, tc.want)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseURL(%q) = %q, want it to contain %q", tc.raw, err, tc.want)
		}
	}
}

// Credentials put where they do not belong are refused without being
// repeated in the message, which may end up in a log.
func TestParseURL_credentialsNotQuoted(t *testing.T) {
	for _, raw := range []string{
		"s3://AKIAEXAMPLE:hunter2secret@docs",
		"s3://docs?endpoint=http://AKIAEXAMPLE:hunter2secret@127.0.0.1:9000",
		"s3://docs?endpoint=http://127.0.0.1:9000/?X-Amz-Signature=hunter2secret",
		"s3://docs?endpoint=hunter2secret",
	} {
		_, err := ParseURL(raw)
		if err == nil {
			t.Fatalf("ParseURL(%q) succeeded", raw)
		}
		if strings.Contains(err.Error(), "hunter2secret") {
			t.Errorf("ParseURL error quotes the secret: %v", err)
		}
	}
}
