// Package httprange bounds what a Range request can make a server send
// for a file. net/http's ServeContent already ignores ranges that add up
// to more than the file, but it answers every small range with a part of
// its own, and each part costs a boundary and two headers: a thousand
// one-byte ranges over a small archive came back as 4.7 times the
// archive. Limit coalesces the ranges as real servers do and drops the
// header when too many remain, so that the answer is never much more
// than the file. It knows nothing of what the file is.
package httprange

import (
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// MaxRanges is how many ranges, once coalesced, are answered as parts;
// past it the whole file is sent (200), which RFC 9110 allows and which
// is never larger than the file.
const MaxRanges = 16

// mergeGap is how close two ranges may be to be sent as one part: a part
// header (boundary, Content-Type, Content-Range) costs about this much,
// so sending the gap is cheaper than a new part.
const mergeGap = 100

type span struct{ start, end int64 } // end inclusive

// Limit rewrites r's Range header before http.ServeContent answers it
// with a file of size bytes: overlapping, adjacent and nearly adjacent
// ranges are merged into one, and a request left with more than
// MaxRanges ranges loses its Range header and gets the whole file. A
// header that is malformed, asks for one range, or has no satisfiable
// range is left for ServeContent to answer (206 or 416) as it does.
func Limit(r *http.Request, size int64) {
	h := r.Header.Get("Range")
	if h == "" || !strings.Contains(h, ",") {
		return
	}
	spans, ok := parse(h, size)
	if !ok || len(spans) == 0 {
		return
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	merged := spans[:1]
	for _, s := range spans[1:] {
		last := &merged[len(merged)-1]
		if s.start <= last.end+mergeGap {
			last.end = max(last.end, s.end)
			continue
		}
		merged = append(merged, s)
	}
	if len(merged) > MaxRanges {
		r.Header.Del("Range")
		return
	}
	var b strings.Builder
	b.WriteString("bytes=")
	for i, s := range merged {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(s.start, 10) + "-" + strconv.FormatInt(s.end, 10))
	}
	r.Header.Set("Range", b.String())
}

// parse resolves a "bytes=" header against size, dropping the ranges
// that start past the end (as ServeContent does). It reports false for a
// header it does not understand.
func parse(h string, size int64) ([]span, bool) {
	spec, ok := strings.CutPrefix(h, "bytes=")
	if !ok {
		return nil, false
	}
	var spans []span
	for part := range strings.SplitSeq(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		first, last, ok := strings.Cut(part, "-")
		if !ok {
			return nil, false
		}
		first, last = strings.TrimSpace(first), strings.TrimSpace(last)
		var s span
		if first == "" { // "-n": the last n bytes
			n, err := strconv.ParseInt(last, 10, 64)
			if err != nil || n < 0 {
				return nil, false
			}
			if n == 0 || size == 0 {
				continue
			}
			s = span{start: max(size-n, 0), end: size - 1}
		} else {
			start, err := strconv.ParseInt(first, 10, 64)
			if err != nil || start < 0 {
				return nil, false
			}
			end := size - 1
			if last != "" {
				if end, err = strconv.ParseInt(last, 10, 64); err != nil || end < start {
					return nil, false
				}
			}
			if start >= size {
				continue
			}
			s = span{start: start, end: min(end, size-1)}
		}
		spans = append(spans, s)
	}
	return spans, true
}
