package client

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// parseRetryAfter reads both forms of the header: delay-seconds and an
// HTTP date, which is measured against now (the injected clock).
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.Atoi(v); err == nil {
		if secs < 0 {
			return 0, false
		}
		return time.Duration(secs) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// escapeAll escapes path parameters once, so that an ID holding a slash
// cannot address another route.
func escapeAll(params map[string]string) map[string]string {
	out := make(map[string]string, len(params))
	for k, v := range params {
		out[k] = url.PathEscape(v)
	}
	return out
}
