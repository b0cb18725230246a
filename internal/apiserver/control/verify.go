package control

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/httpapi"
)

// Verification answers the questions a suite would otherwise loop over the
// journal for: was an operation called exactly so often, in this order,
// never, and did anything else arrive. The server writes the report, so a
// suite in any language shows the same readable account of what was
// received.

// matcher is a ControlMatch checked once, its body values decoded.
type matcher struct {
	api.ControlMatch
	body map[string]any
}

// newMatcher checks m; what names it in errors ("match", "sequence[1]").
func newMatcher(m api.ControlMatch, what string) (*matcher, error) {
	if m.Path != "" && !strings.HasPrefix(m.Path, "/") {
		return nil, httpapi.BadRequest("%s.path %q: want a path starting with \"/\" (\"*\" matches anything)", what, m.Path)
	}
	if m.Since != nil && m.Until != nil && !m.Until.After(*m.Since) {
		return nil, httpapi.BadRequest("%s: until must be after since", what)
	}
	if m.Unmatched && m.Route != "" {
		return nil, httpapi.BadRequest("%s: unmatched picks requests without a route; it cannot go with route", what)
	}
	mt := &matcher{ControlMatch: m}
	if len(m.Body) > 0 {
		mt.body = make(map[string]any, len(m.Body))
		for k, raw := range m.Body {
			var v any
			if err := json.Unmarshal(raw, &v); err != nil {
				return nil, httpapi.BadRequest("%s.body.%s: %s", what, k, err.Error())
			}
			mt.body[k] = v
		}
	}
	return mt, nil
}

// matches reports whether e holds every field m gives; a nil m matches
// everything.
func (m *matcher) matches(e *api.ControlRequest) bool {
	if m == nil {
		return true
	}
	return (m.Method == "" || strings.EqualFold(m.Method, e.Method)) &&
		(m.Path == "" || globMatch(m.Path, e.Path)) &&
		(m.Route == "" || m.Route == e.Route) &&
		(!m.Unmatched || e.Route == "") &&
		(m.Organization == "" || m.Organization == e.Organization) &&
		(m.Status == 0 || m.Status == e.Status) &&
		(m.Since == nil || !e.Time.Before(*m.Since)) &&
		(m.Until == nil || e.Time.Before(*m.Until)) &&
		m.bodyMatches(e.Body)
}

// bodyMatches: every field m names is a top-level field of the JSON body
// with an equal value. A body that is not a JSON object matches none.
func (m *matcher) bodyMatches(body string) bool {
	if len(m.body) == 0 {
		return true
	}
	var got map[string]any
	if json.Unmarshal([]byte(body), &got) != nil {
		return false
	}
	for k, want := range m.body {
		v, ok := got[k]
		if !ok || !reflect.DeepEqual(v, want) {
			return false
		}
	}
	return true
}

// String describes m for a report: "POST /v1/static-export/jobs
// organization=acme body.domain="docs.acme.test"".
func (m *matcher) String() string {
	if m == nil {
		return "any request"
	}
	var parts []string
	switch {
	case m.Route != "":
		parts = append(parts, "route "+m.Route)
	case m.Method != "" || m.Path != "":
		method, path := strings.ToUpper(m.Method), m.Path
		if method == "" {
			method = "any method"
		}
		if path == "" {
			path = "any path"
		}
		parts = append(parts, method+" "+path)
	}
	if m.Route != "" && m.Method != "" {
		parts = append(parts, "method="+strings.ToUpper(m.Method))
	}
	if m.Route != "" && m.Path != "" {
		parts = append(parts, "path="+m.Path)
	}
	if m.Unmatched {
		parts = append(parts, "no route")
	}
	if m.Organization != "" {
		parts = append(parts, "organization="+m.Organization)
	}
	if m.Status != 0 {
		parts = append(parts, fmt.Sprintf("status=%d", m.Status))
	}
	keys := make([]string, 0, len(m.Body))
	for k := range m.Body {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		parts = append(parts, "body."+k+"="+string(m.Body[k]))
	}
	if m.Since != nil {
		parts = append(parts, "since="+m.Since.UTC().Format(reportTime))
	}
	if m.Until != nil {
		parts = append(parts, "until="+m.Until.UTC().Format(reportTime))
	}
	if len(parts) == 0 {
		return "any request"
	}
	return strings.Join(parts, " ")
}

// check is a ControlVerify checked once.
type check struct {
	within   *matcher
	match    *matcher
	min, max int // max < 0: no bound
	sequence []*matcher
	only     []*matcher
}

func newCheck(v api.ControlVerify) (*check, error) {
	c := &check{max: -1}
	var err error
	if v.Within != nil {
		if c.within, err = newMatcher(*v.Within, "within"); err != nil {
			return nil, err
		}
	}
	counting := v.Match != nil || v.Count != nil || v.AtLeast != nil || v.AtMost != nil
	kinds := 0
	for _, k := range []bool{counting, len(v.Sequence) > 0, len(v.Only) > 0} {
		if k {
			kinds++
		}
	}
	if kinds != 1 {
		return nil, httpapi.BadRequest("want exactly one check: match (with count, atLeast or atMost), sequence, or only")
	}
	if counting {
		if v.Match != nil {
			if c.match, err = newMatcher(*v.Match, "match"); err != nil {
				return nil, err
			}
		}
		if err := c.setBounds(v); err != nil {
			return nil, err
		}
	}
	for i, m := range v.Sequence {
		mt, err := newMatcher(m, fmt.Sprintf("sequence[%d]", i))
		if err != nil {
			return nil, err
		}
		c.sequence = append(c.sequence, mt)
	}
	for i, m := range v.Only {
		mt, err := newMatcher(m, fmt.Sprintf("only[%d]", i))
		if err != nil {
			return nil, err
		}
		c.only = append(c.only, mt)
	}
	return c, nil
}

// setBounds reads count, atLeast and atMost; none of them means at least
// once.
func (c *check) setBounds(v api.ControlVerify) error {
	for name, p := range map[string]*int{"count": v.Count, "atLeast": v.AtLeast, "atMost": v.AtMost} {
		if p != nil && *p < 0 {
			return httpapi.BadRequest("%s must not be negative", name)
		}
	}
	switch {
	case v.Count != nil && (v.AtLeast != nil || v.AtMost != nil):
		return httpapi.BadRequest("count is exact: it cannot go with atLeast or atMost")
	case v.Count != nil:
		c.min, c.max = *v.Count, *v.Count
	case v.AtLeast == nil && v.AtMost == nil:
		c.min = 1
	}
	if v.AtLeast != nil {
		c.min = *v.AtLeast
	}
	if v.AtMost != nil {
		c.max = *v.AtMost
	}
	if c.max >= 0 && c.min > c.max {
		return httpapi.BadRequest("atLeast %d is more than atMost %d", c.min, c.max)
	}
	return nil
}

// wantCount says what a counting check wants: "exactly 2 requests".
func (c *check) wantCount() string {
	switch {
	case c.max == 0:
		return "no request"
	case c.min == c.max:
		return fmt.Sprintf("exactly %d %s", c.min, requests(c.min))
	case c.max < 0:
		return fmt.Sprintf("at least %d %s", c.min, requests(c.min))
	case c.min == 0:
		return fmt.Sprintf("at most %d %s", c.max, requests(c.max))
	}
	return fmt.Sprintf("%d to %d requests", c.min, c.max)
}

// requests is "request" or "requests", as n asks.
func requests(n int) string {
	if n == 1 {
		return "request"
	}
	return "requests"
}

// lossMatters reports whether requests the journal let go could turn
// the answer ok around: they can only add matches, so a sequence found or
// an "at least" met stands, and an "only" that failed fails anyway.
func (c *check) lossMatters(ok bool) bool {
	switch {
	case len(c.sequence) > 0:
		return !ok
	case len(c.only) > 0:
		return ok
	}
	return !ok || c.max >= 0
}

// startsAfter reports whether the check looks only at requests that
// arrived after t, so none the journal let go by then.
func (c *check) startsAfter(t time.Time) bool {
	for _, m := range []*matcher{c.within, c.match} {
		if m != nil && m.Since != nil && m.Since.After(t) {
			return true
		}
	}
	return false
}

// run checks the journal's entries. marks holds a note for each entry
// the check is about, by index in entries.
func (c *check) run(entries []api.ControlRequest) (ok bool, headline string, picked []int, marks map[int]string) {
	marks = map[int]string{}
	switch {
	case len(c.sequence) > 0:
		return c.runSequence(entries, marks)
	case len(c.only) > 0:
		for i := range entries {
			if !slices.ContainsFunc(c.only, func(m *matcher) bool { return m.matches(&entries[i]) }) {
				picked = append(picked, i)
				marks[i] = "not allowed"
			}
		}
		allowed := make([]string, len(c.only))
		for i, m := range c.only {
			allowed[i] = m.String()
		}
		headline = fmt.Sprintf("want no request but %s; got %d other %s",
			strings.Join(allowed, "; or "), len(picked), requests(len(picked)))
		return len(picked) == 0, headline, picked, marks
	}
	for i := range entries {
		if c.match.matches(&entries[i]) {
			picked = append(picked, i)
			marks[i] = "match"
		}
	}
	n := len(picked)
	ok = n >= c.min && (c.max < 0 || n <= c.max)
	headline = fmt.Sprintf("want %s matching %s; got %d", c.wantCount(), c.match, n)
	return ok, headline, picked, marks
}

// runSequence finds the steps in order, each at the first matching
// request after the previous step's.
func (c *check) runSequence(entries []api.ControlRequest, marks map[int]string) (bool, string, []int, map[int]string) {
	steps := make([]string, len(c.sequence))
	for i, m := range c.sequence {
		steps[i] = fmt.Sprintf("%d. %s", i+1, m)
	}
	want := "want in this order: " + strings.Join(steps, "; ")
	var picked []int
	from := 0
	for s, m := range c.sequence {
		at := -1
		for i := from; i < len(entries); i++ {
			if m.matches(&entries[i]) {
				at = i
				break
			}
		}
		if at < 0 {
			after := "at all"
			if from > 0 {
				after = fmt.Sprintf("after request %d (step %d)", from, s)
			}
			for i := range from {
				if m.matches(&entries[i]) && marks[i] == "" {
					marks[i] = fmt.Sprintf("matches step %d, but too early", s+1)
				}
			}
			return false, fmt.Sprintf("%s\nstep %d (%s) was not received %s", want, s+1, m, after), picked, marks
		}
		marks[at] = fmt.Sprintf("step %d", s+1)
		picked = append(picked, at)
		from = at + 1
	}
	return true, want + "\nall received in order", picked, marks
}

// verify runs v against the journal as it stands.
func (j *Journal) verify(v api.ControlVerify) (api.ControlVerification, error) {
	c, err := newCheck(v)
	if err != nil {
		return api.ControlVerification{}, err
	}
	var entries []api.ControlRequest
	for _, e := range j.entries() {
		if c.within.matches(&e) {
			entries = append(entries, e)
		}
	}
	ok, headline, picked, marks := c.run(entries)
	if n, upTo := j.droppedSince(); n > 0 && c.lossMatters(ok) && !c.startsAfter(upTo) {
		ok = false
		headline += fmt.Sprintf("\nbut the journal let %d older %s go to make room (it keeps %d; the newest it let go arrived %s), "+
			"and they could change the answer: raise its size (control.journalSize, --journal-size) or empty it (DELETE %s) before the requests to check",
			n, requests(int(n)), j.size, upTo.UTC().Format(reportTime), api.PathControlRequests)
	}
	out := api.ControlVerification{OK: ok, Count: len(picked), Requests: make([]api.ControlRequest, 0, len(picked))}
	for _, i := range picked {
		out.Requests = append(out.Requests, entries[i])
	}
	out.Report = report(headline, c.within, entries, marks)
	if !ok {
		out.Error = out.Report
	}
	return out, nil
}

// controlVerify answers POST /_control/v1/requests/verify: 200 when the
// check holds, 409 with the report as the error when it does not.
func (j *Journal) controlVerify(w http.ResponseWriter, r *http.Request) error {
	var req api.ControlVerify
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		return err
	}
	out, err := j.verify(req)
	if err != nil {
		return err
	}
	status := http.StatusOK
	if !out.OK {
		status = http.StatusConflict
	}
	httpapi.WriteJSON(w, status, out)
	return nil
}
