package docsadmintest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// Match selects journaled requests for a verification: every field that
// is not zero must hold.
type Match struct {
	// Method is an HTTP method, in any case.
	Method string
	// Path is a path glob: "*" matches any run of characters, "/"
	// included ("/v1/static-export/jobs/*").
	Path string
	// Route is an operation's pattern as Request.Route shows it
	// ("GET /v1/static-export/jobs/{jobId}").
	Route string
	// Organization is the organization the request acted for.
	Organization string
	// Status is the status the server answered.
	Status int
	// Body names top-level fields of a JSON request body and the values
	// they must equal (as encoding/json encodes them; nested values are
	// compared whole).
	Body map[string]any
	// Since (inclusive) and Until (exclusive) bound the server clock time
	// a request arrived at.
	Since, Until time.Time
	// Unmatched picks the requests no route matched (the server's 404s
	// and 405s for unknown paths and methods).
	Unmatched bool
}

// in is m limited to organization org ("" leaves it as it is): the match
// of a Scope's Control, unless it names another organization.
func (m Match) in(org string) Match {
	if m.Organization == "" {
		m.Organization = org
	}
	return m
}

// wire is m as the control plane takes it.
func (m Match) wire() (api.ControlMatch, error) {
	out := api.ControlMatch{Method: m.Method, Path: m.Path, Route: m.Route, Organization: m.Organization,
		Status: m.Status, Unmatched: m.Unmatched}
	if len(m.Body) > 0 {
		out.Body = make(map[string]json.RawMessage, len(m.Body))
		for k, v := range m.Body {
			raw, err := json.Marshal(v)
			if err != nil {
				return out, fmt.Errorf("docsadmintest: match body field %q: %w", k, err)
			}
			out.Body[k] = raw
		}
	}
	if !m.Since.IsZero() {
		out.Since = &m.Since
	}
	if !m.Until.IsZero() {
		out.Until = &m.Until
	}
	return out, nil
}

func wireAll(ms []Match) ([]api.ControlMatch, error) {
	out := make([]api.ControlMatch, len(ms))
	for i, m := range ms {
		w, err := m.wire()
		if err != nil {
			return nil, err
		}
		out[i] = w
	}
	return out, nil
}

// Verification is the control plane's account of a check.
type Verification struct {
	// OK reports whether the check holds.
	OK bool
	// Report says what was wanted and lists every request looked at, one
	// a line, marked with what the check made of it.
	Report string
	// Requests are those the check is about: the matching ones, the
	// steps of a sequence found, or the requests Only did not allow.
	Requests []Request
}

// verify sends a check; a check that does not hold is a Verification with
// OK false, not an error.
func (c *Control) verify(ctx context.Context, v api.ControlVerify) (Verification, error) {
	var out api.ControlVerification
	status, err := c.send(ctx, http.MethodPost, api.PathControlVerify, v, &out, http.StatusConflict)
	if err != nil {
		return Verification{}, err
	}
	return Verification{OK: status == http.StatusOK && out.OK, Report: out.Report, Requests: requests(out.Requests)}, nil
}

// Count returns the journaled requests that match m. On a Scope's
// Control, this and every verification below look at the scope's
// organization only, unless the match names another.
func (c *Control) Count(ctx context.Context, m Match) (int, error) {
	wm, err := m.in(c.org).wire()
	if err != nil {
		return 0, err
	}
	zero := 0
	v, err := c.verify(ctx, api.ControlVerify{Match: &wm, AtLeast: &zero})
	return len(v.Requests), err
}

// VerifyCount checks that exactly n journaled requests match m (0: none)
// and fails t with the server's report of what it received otherwise.
func (c *Control) VerifyCount(t testing.TB, m Match, n int) {
	t.Helper()
	c.check(t, func() (api.ControlVerify, error) {
		wm, err := m.in(c.org).wire()
		return api.ControlVerify{Match: &wm, Count: &n}, err
	})
}

// VerifyNever checks that no journaled request matches m.
func (c *Control) VerifyNever(t testing.TB, m Match) {
	t.Helper()
	c.VerifyCount(t, m, 0)
}

// VerifyAtLeast checks that at least n journaled requests match m.
func (c *Control) VerifyAtLeast(t testing.TB, m Match, n int) {
	t.Helper()
	c.check(t, func() (api.ControlVerify, error) {
		wm, err := m.in(c.org).wire()
		return api.ControlVerify{Match: &wm, AtLeast: &n}, err
	})
}

// VerifySequence checks that, among the requests within selects, steps
// were received in this order (others may come between).
func (c *Control) VerifySequence(t testing.TB, within Match, steps ...Match) {
	t.Helper()
	c.checkList(t, within, steps, func(v *api.ControlVerify, l []api.ControlMatch) { v.Sequence = l })
}

// VerifyOnly checks that every request within selects matches one of
// allowed: nothing else was sent.
func (c *Control) VerifyOnly(t testing.TB, within Match, allowed ...Match) {
	t.Helper()
	c.checkList(t, within, allowed, func(v *api.ControlVerify, l []api.ControlMatch) { v.Only = l })
}

// checkList runs a check of a list of matches within a selection; set
// says which list.
func (c *Control) checkList(t testing.TB, within Match, list []Match, set func(*api.ControlVerify, []api.ControlMatch)) {
	t.Helper()
	c.check(t, func() (api.ControlVerify, error) {
		ww, err := within.in(c.org).wire()
		if err != nil {
			return api.ControlVerify{}, err
		}
		l, err := wireAll(list)
		v := api.ControlVerify{Within: &ww}
		set(&v, l)
		return v, err
	})
}

// VerifyNoUnmatched checks that every journaled request reached an
// operation: none was the server's 404 or 405 for an unknown path or
// method.
func (c *Control) VerifyNoUnmatched(t testing.TB) {
	t.Helper()
	c.VerifyNever(t, Match{Unmatched: true})
}

// Unmatched returns the journaled requests no route matched.
func (c *Control) Unmatched(ctx context.Context) ([]Request, error) {
	v, err := c.verify(ctx, api.ControlVerify{Match: &api.ControlMatch{Unmatched: true, Organization: c.org}, AtLeast: new(int)})
	return v.Requests, err
}

// check runs the check build makes and fails t with the report when it
// does not hold, or when the control plane cannot be asked.
func (c *Control) check(t testing.TB, build func() (api.ControlVerify, error)) {
	t.Helper()
	v, err := build()
	if err != nil {
		t.Fatal(err)
	}
	// Not t.Context itself: a verification in t.Cleanup runs once it is
	// done.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(t.Context()), time.Minute)
	defer cancel()
	got, err := c.verify(ctx, v)
	if err != nil {
		t.Fatalf("docsadmintest: verify: %v", err)
	}
	if !got.OK {
		t.Errorf("docsadmintest: %s", got.Report)
	}
}
