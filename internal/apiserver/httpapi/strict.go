package httpapi

import (
	"net/http"
	"slices"

	"github.com/hashicorp/go-hclog"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
)

// In strict mode the server answers each operation of the real service
// only with a status that service's reference documents for it, so a
// suite run against it proves it does not depend on the statuses the
// reference server adds. The status of an error that the reference does
// not document becomes the closest one it does, with the same
// {"error": "..."} body, whose message still says the real cause.

// strictDocumented are the statuses the reference (testdata/reference,
// the real service's public OpenAPI documents) lists for each operation
// we serve; TestStrictStatuses_matchReference holds this table to those
// documents. The two update operations document only their success: for
// them it adds the errors their document lists on its other operations
// (400, 403 and 404, each {"error": "..."}), the service's own convention
// for what it does not spell out.
var strictDocumented = map[string][]int{
	http.MethodPost + " " + api.PathAgentJobs:     {201, 400, 429},
	http.MethodGet + " " + api.PathAgentJob:       {200, 404},
	http.MethodPost + " " + api.PathAgentMessage:  {200, 400, 404, 429},
	http.MethodPost + " " + api.PathExportJobs:    {202, 400, 401, 403},
	http.MethodGet + " " + api.PathExportJob:      {200, 401, 404},
	http.MethodPost + " " + api.PathExportBundle:  {200, 401, 404, 409},
	http.MethodPost + " " + api.PathProjectUpdate: {202, 400, 403, 404},
	http.MethodGet + " " + api.PathUpdateStatus:   {200, 400, 403, 404},
}

// StrictNoBody are the operations whose reference takes no request body.
// In strict mode their body is not looked at, as the real service's
// clients never send one: no 408, 413 or 415 can come of it.
var StrictNoBody = map[string]bool{
	http.MethodPost + " " + api.PathExportBundle:  true,
	http.MethodPost + " " + api.PathProjectUpdate: true,
}

// strictFallbacks are the documented statuses that stand in for one of
// ours, the first the operation documents winning:
//
//   - 401 (a missing or unknown key) and 403: 404 where documented: the
//     caller can see nothing, as another organization's caller sees
//     nothing (agent jobs, updates); else 400 (creating an agent job).
//   - Any other 4xx (an unknown project when creating an agent job; a
//     body too slow, too large or not JSON; a reused Idempotency-Key,
//     which strict mode ignores anyway): 400, else 404.
//   - 429 and 507 (over a limit) and every 5xx (the store or the bucket
//     failed; a bundle's request ended while its archive was built): the
//     documented "not now": 429 (agent jobs, "rate limit exceeded"), 409
//     (a bundle, "cannot be generated yet"), else 403 (starting an export
//     or an update: the organization may not do it now, as some services
//     answer a rate limit with 403). Retry-After is kept.
//
// An operation that documents none of them (reading an agent job or an
// export when the store fails under it) gets no answer: the connection is
// closed, as a `reset` fault does, since no documented status says "try
// again" there and a client must survive a broken connection anyway.
func strictFallbacks(status int) []int {
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return []int{http.StatusNotFound, http.StatusBadRequest}
	case status == http.StatusTooManyRequests || status == http.StatusInsufficientStorage || status >= 500:
		return []int{http.StatusTooManyRequests, http.StatusConflict, http.StatusForbidden}
	default:
		return []int{http.StatusBadRequest, http.StatusNotFound}
	}
}

// StrictStatus is the status a strict server answers for status on the
// operation op ("METHOD pattern"), and false when it must not answer at
// all. Statuses of operations the reference does not describe (the
// bundle download, the probes, unknown paths) are unchanged.
func StrictStatus(op string, status int) (int, bool) {
	documented, ok := strictDocumented[op]
	if !ok || slices.Contains(documented, status) {
		return status, true
	}
	for _, f := range strictFallbacks(status) {
		if slices.Contains(documented, f) {
			return f, true
		}
	}
	return 0, false
}

// StrictDocumented returns, for each reference operation ("METHOD
// pattern"), the statuses a strict server may answer; a copy.
func StrictDocumented() map[string][]int {
	out := make(map[string][]int, len(strictDocumented))
	for op, statuses := range strictDocumented {
		out[op] = slices.Clone(statuses)
	}
	return out
}

// StrictError turns he into what a strict server answers for r: he itself
// when its status is documented, else he with the documented status that
// stands in for it (without the 401's challenge). When no documented
// status fits, it closes the connection without an answer.
func StrictError(log hclog.Logger, r *http.Request, he *Error) *Error {
	status, ok := StrictStatus(r.Pattern, he.Status)
	if !ok {
		log.Debug("strict: no documented status stands in; closing the connection",
			"method", r.Method, "path", r.URL.Path, "status", he.Status)
		NoteFrom(r.Context()).Abort()
		panic(http.ErrAbortHandler)
	}
	if status == he.Status {
		return he
	}
	return &Error{Status: status, Msg: he.Msg, RetryAfter: he.RetryAfter}
}
