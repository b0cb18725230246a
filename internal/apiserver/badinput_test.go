package apiserver_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/docsadmin/terraform-provider-docsadmin/internal/api"
	"github.com/docsadmin/terraform-provider-docsadmin/internal/apiserver/apiservertest"
)

// TestBadInputs sends every kind of bad request the API documents and
// checks the status and that the body is a JSON error saying why.
func TestBadInputs(t *testing.T) {
	eachBackend(t, func(t *testing.T, db apiservertest.Option) {
		env := apiservertest.Start(t, db)
		done := completedExport(t, env)
		failed := env.WaitExport(t, env.StartExport(t, api.StartExportRequest{Domain: env.FailDomain}).JobID)
		if failed.Status != api.ExportFailed {
			t.Fatalf("broken site export ended %s", failed.Status)
		}
		agent := call(t, "POST", env.URL+"/v2/agent/"+env.ProjectID+"/job", env.Key, map[string]string{"prompt": "fix typos"})
		var agentJob api.AgentJob
		agent.decode(t, &agentJob)
		link, err := url.Parse(env.Bundle(t, done).BundleURL)
		if err != nil {
			t.Fatal(err)
		}
		// Links are ours or, with an object store, the store's SigV4
		// links; the same tampering must fail either way.
		sigParam, expParam, laterExpiry := "signature", "expires", "99999999999"
		if env.ObjectStore != "" {
			sigParam, expParam, laterExpiry = "X-Amz-Signature", "X-Amz-Expires", "604800"
		}
		tamper := func(f func(u *url.URL, q url.Values)) string {
			u := *link
			q := u.Query()
			f(&u, q)
			u.RawQuery = q.Encode()
			return u.String()
		}

		const (
			keyAcme  = "acme"
			keyOther = "other"
			keyPro   = "pro"
			noKey    = ""
		)
		keys := map[string]string{keyAcme: env.Key, keyOther: env.OtherKey, keyPro: env.ProKey}
		agentJobs := "/v2/agent/" + env.ProjectID + "/job"
		exports := "/v1/static-export/jobs"
		message := agentJobs + "/" + agentJob.ID + "/message"
		longPrompt := `{"prompt": "` + strings.Repeat("a", 64<<10+1) + `"}`
		huge := `{"prompt": "` + strings.Repeat("a", api.MaxRequestBodyBytes) + `"}`

		tests := []struct {
			name    string
			method  string
			path    string // or a full URL
			key     string
			rawAuth string
			ctype   string
			body    any
			status  int
			want    string // substring of the error message
		}{
			{name: "noAuthorization", method: "GET", path: exports + "/" + done, status: 401, want: "missing Authorization"},
			{name: "notBearer", method: "GET", path: exports + "/" + done, rawAuth: "Basic " + env.Key, status: 401, want: "malformed"},
			{name: "bearerWithoutKey", method: "GET", path: exports + "/" + done, rawAuth: "Bearer", status: 401, want: "malformed"},
			{name: "wrongPrefix", method: "GET", path: exports + "/" + done, rawAuth: "Bearer mint_" + strings.TrimPrefix(env.Key, "dak_"), status: 401, want: "invalid admin API key"},
			{name: "unknownKey", method: "GET", path: exports + "/" + done, rawAuth: "Bearer dak_00000000000000000000000000000000", status: 401, want: "invalid admin API key"},
			{name: "shortSecret", method: "GET", path: exports + "/" + done, rawAuth: "Bearer dak_abc", status: 401, want: "invalid admin API key"},
			{name: "createAgentJob_emptyPrompt", method: "POST", path: agentJobs, key: keyAcme, body: `{"prompt": ""}`, status: 400, want: "prompt must not be empty"},
			{name: "createAgentJob_blankPrompt", method: "POST", path: agentJobs, key: keyAcme, body: `{"prompt": "  \n\t"}`, status: 400, want: "prompt must not be empty"},
			{name: "createAgentJob_noBody", method: "POST", path: agentJobs, key: keyAcme, status: 400, want: "empty"},
			{name: "createAgentJob_malformedJSON", method: "POST", path: agentJobs, key: keyAcme, body: `{"prompt": "x"`, status: 400, want: "truncated"},
			{name: "createAgentJob_syntaxError", method: "POST", path: agentJobs, key: keyAcme, body: `{prompt: x}`, status: 400, want: "not valid JSON"},
			{name: "createAgentJob_promptNotString", method: "POST", path: agentJobs, key: keyAcme, body: `{"prompt": 42}`, status: 400, want: `"prompt" must be string`},
			{name: "createAgentJob_unknownField", method: "POST", path: agentJobs, key: keyAcme, body: `{"prompt": "x", "promt": "y"}`, status: 400, want: `unknown field "promt"`},
			{name: "createAgentJob_duplicateKey", method: "POST", path: agentJobs, key: keyAcme, body: `{"prompt": "x", "prompt": "y"}`, status: 400, want: `"prompt" appears more than once`},
			{name: "createAgentJob_caseVariantKey", method: "POST", path: agentJobs, key: keyAcme, body: `{"Prompt": "x"}`, status: 400, want: `did you mean "prompt"`},
			{name: "startExport_caseVariantKey", method: "POST", path: exports, key: keyAcme, body: `{"DOMAIN": "docs.acme.test"}`, status: 400, want: `unknown field "DOMAIN"`},
			{name: "startExport_caseVariantDuplicate", method: "POST", path: exports, key: keyAcme, body: `{"domain": "docs.acme.test", "Domain": "docs.other.test"}`, status: 400, want: `unknown field "Domain"`},
			{name: "startExport_duplicateKey", method: "POST", path: exports, key: keyAcme, body: `{"domain": "docs.acme.test", "domain": "docs.acme.test"}`, status: 400, want: "appears more than once"},
			{name: "createAgentJob_trailingData", method: "POST", path: agentJobs, key: keyAcme, body: `{"prompt": "x"} {"prompt": "y"}`, status: 400, want: "single JSON object"},
			{name: "createAgentJob_arrayBody", method: "POST", path: agentJobs, key: keyAcme, body: `["x"]`, status: 400, want: "must be a JSON object"},
			{name: "createAgentJob_wrongContentType", method: "POST", path: agentJobs, key: keyAcme, ctype: "text/plain", body: `{"prompt": "x"}`, status: 415, want: "text/plain"},
			{name: "createAgentJob_hugeBody", method: "POST", path: agentJobs, key: keyAcme, body: huge, status: 413, want: "exceeds"},
			{name: "createAgentJob_unknownProject", method: "POST", path: "/v2/agent/proj_nope/job", key: keyAcme, body: `{"prompt": "x"}`, status: 404, want: `project "proj_nope" not found`},
			{name: "createAgentJob_otherOrgProject", method: "POST", path: "/v2/agent/" + apiservertest.OtherProjectID + "/job", key: keyAcme, body: `{"prompt": "x"}`, status: 404, want: "not found"},
			{name: "getAgentJob_unknown", method: "GET", path: agentJobs + "/aj_0000000000000000", key: keyAcme, status: 404, want: "not found"},
			{name: "getAgentJob_traversal", method: "GET", path: agentJobs + "/..%2F..%2Fstate.db", key: keyAcme, status: 404, want: "not found"},
			{name: "getAgentJob_otherOrg", method: "GET", path: agentJobs + "/" + agentJob.ID, key: keyOther, status: 404, want: "not found"},
			{name: "getAgentJob_otherProject", method: "GET", path: "/v2/agent/" + env.FailProjectID + "/job/" + agentJob.ID, key: keyAcme, status: 404, want: "not found"},
			{name: "sendAgentMessage_emptyPrompt", method: "POST", path: message, key: keyAcme, body: `{"prompt": ""}`, status: 400, want: "prompt must not be empty"},
			{name: "sendAgentMessage_blankPrompt", method: "POST", path: message, key: keyAcme, body: `{"prompt": " \n"}`, status: 400, want: "prompt must not be empty"},
			{name: "sendAgentMessage_missingPrompt", method: "POST", path: message, key: keyAcme, body: `{}`, status: 400, want: "prompt must not be empty"},
			{name: "createAgentJob_promptTooLong", method: "POST", path: agentJobs, key: keyAcme, body: longPrompt, status: 400, want: "prompt exceeds 65536 bytes"},
			{name: "sendAgentMessage_promptTooLong", method: "POST", path: message, key: keyAcme, body: longPrompt, status: 400, want: "prompt exceeds 65536 bytes"},
			{name: "sendAgentMessage_noBody", method: "POST", path: message, key: keyAcme, status: 400, want: "empty"},
			{name: "sendAgentMessage_malformedJSON", method: "POST", path: message, key: keyAcme, body: `{"prompt": "x"`, status: 400, want: "truncated"},
			{name: "sendAgentMessage_promptNotString", method: "POST", path: message, key: keyAcme, body: `{"prompt": ["x"]}`, status: 400, want: `"prompt" must be string`},
			{name: "sendAgentMessage_unknownField", method: "POST", path: message, key: keyAcme, body: `{"prompt": "x", "message": "y"}`, status: 400, want: `unknown field "message"`},
			{name: "sendAgentMessage_duplicateKey", method: "POST", path: message, key: keyAcme, body: `{"prompt": "x", "prompt": "y"}`, status: 400, want: `"prompt" appears more than once`},
			{name: "sendAgentMessage_wrongContentType", method: "POST", path: message, key: keyAcme, ctype: "text/plain", body: `{"prompt": "x"}`, status: 415, want: "text/plain"},
			{name: "sendAgentMessage_hugeBody", method: "POST", path: message, key: keyAcme, body: huge, status: 413, want: "exceeds"},
			{name: "sendAgentMessage_noAuthorization", method: "POST", path: message, body: `{"prompt": "x"}`, status: 401, want: "missing Authorization"},
			{name: "sendAgentMessage_unknownJob", method: "POST", path: agentJobs + "/aj_0000000000000000/message", key: keyAcme, body: `{"prompt": "x"}`, status: 404, want: "not found"},
			{name: "sendAgentMessage_traversal", method: "POST", path: agentJobs + "/..%2F..%2Fstate.db/message", key: keyAcme, body: `{"prompt": "x"}`, status: 404, want: "not found"},
			{name: "sendAgentMessage_otherOrg", method: "POST", path: "/v2/agent/" + apiservertest.OtherProjectID + "/job/" + agentJob.ID + "/message", key: keyOther, body: `{"prompt": "x"}`, status: 404, want: "not found"},
			{name: "sendAgentMessage_otherOrgKey", method: "POST", path: message, key: keyOther, body: `{"prompt": "x"}`, status: 404, want: "not found"},
			{name: "sendAgentMessage_otherProject", method: "POST", path: "/v2/agent/" + env.FailProjectID + "/job/" + agentJob.ID + "/message", key: keyAcme, body: `{"prompt": "x"}`, status: 404, want: "not found"},
			{name: "sendAgentMessage_wrongMethod", method: "GET", path: message, key: keyAcme, status: 405, want: "not allowed"},
			{name: "startExport_missingDomain", method: "POST", path: exports, key: keyAcme, body: `{}`, status: 400, want: "domain is required"},
			{name: "startExport_domainWithScheme", method: "POST", path: exports, key: keyAcme, body: `{"domain": "https://docs.acme.test"}`, status: 400, want: "without a scheme"},
			{name: "startExport_domainWithPath", method: "POST", path: exports, key: keyAcme, body: `{"domain": "docs.acme.test/docs"}`, status: 400, want: "without a path"},
			{name: "startExport_domainTrailingSlash", method: "POST", path: exports, key: keyAcme, body: `{"domain": "docs.acme.test/"}`, status: 400, want: "trailing slash"},
			{name: "startExport_domainNotHostname", method: "POST", path: exports, key: keyAcme, body: `{"domain": "docs acme_test"}`, status: 400, want: "not a valid hostname"},
			{name: "startExport_domainWithPort", method: "POST", path: exports, key: keyAcme, body: `{"domain": "docs.acme.test:443"}`, status: 400, want: "not a valid hostname"},
			{name: "startExport_unknownDomain", method: "POST", path: exports, key: keyAcme, body: `{"domain": "docs.nowhere.test"}`, status: 400, want: "unknown domain"},
			{name: "startExport_otherOrgDomain", method: "POST", path: exports, key: keyAcme, body: `{"domain": "` + apiservertest.OtherDomain + `"}`, status: 400, want: "unknown domain"},
			{name: "startExport_pathTraversal", method: "POST", path: exports, key: keyAcme, body: `{"domain": "docs.acme.test", "paths": ["../../etc/passwd"]}`, status: 400, want: `".."`},
			{name: "startExport_absolutePath", method: "POST", path: exports, key: keyAcme, body: `{"domain": "docs.acme.test", "paths": ["/index"]}`, status: 400, want: "leading slash"},
			{name: "startExport_urlPath", method: "POST", path: exports, key: keyAcme, body: `{"domain": "docs.acme.test", "paths": ["https://evil.test/x"]}`, status: 400, want: "not a URL"},
			{name: "startExport_unknownPage", method: "POST", path: exports, key: keyAcme, body: `{"domain": "docs.acme.test", "paths": ["no/such/page"]}`, status: 400, want: "no/such/page"},
			{name: "startExport_pathsNotArray", method: "POST", path: exports, key: keyAcme, body: `{"domain": "docs.acme.test", "paths": "index"}`, status: 400, want: `"paths" must be`},
			{name: "startExport_labelTooLong", method: "POST", path: exports, key: keyAcme, body: `{"domain": "docs.acme.test", "version": "` + strings.Repeat("v", 200) + `"}`, status: 400, want: "version label"},
			{name: "startExport_proPlan", method: "POST", path: exports, key: keyPro, body: `{"domain": "docs.beta.test"}`, status: 403, want: "enterprise"},
			{name: "getExport_unknown", method: "GET", path: exports + "/se_0123456789abcdef", key: keyAcme, status: 404, want: "not found"},
			{name: "getExport_malformedID", method: "GET", path: exports + "/se_..%2F..%2Fsigning.key", key: keyAcme, status: 404, want: "not found"},
			{name: "getExport_otherOrg", method: "GET", path: exports + "/" + done, key: keyOther, status: 404, want: "not found"},
			{name: "generateBundle_unknown", method: "POST", path: exports + "/se_0123456789abcdef/bundle", key: keyAcme, status: 404, want: "not found"},
			{name: "generateBundle_otherOrg", method: "POST", path: exports + "/" + done + "/bundle", key: keyOther, status: 404, want: "not found"},
			{name: "generateBundle_failedJob", method: "POST", path: exports + "/" + failed.JobID + "/bundle", key: keyAcme, status: 409, want: "failed"},
			{name: "download_badSignature", method: "GET", path: tamper(func(_ *url.URL, q url.Values) { q.Set(sigParam, strings.Repeat("0", 64)) }), status: 403, want: "signature"},
			{name: "download_noSignature", method: "GET", path: tamper(func(_ *url.URL, q url.Values) { q.Del(sigParam) }), status: 403, want: "not valid"},
			{name: "download_laterExpiry", method: "GET", path: tamper(func(_ *url.URL, q url.Values) { q.Set(expParam, laterExpiry) }), status: 403, want: "not valid"},
			{name: "download_otherJob", method: "GET", path: tamper(func(u *url.URL, _ url.Values) { u.Path = strings.Replace(u.Path, done, failed.JobID, 1) }), status: 403, want: "not valid"},
			{name: "download_otherFile", method: "GET", path: tamper(func(u *url.URL, _ url.Values) { u.Path = strings.Replace(u.Path, "bundle.tar.gz", "state.db", 1) }), status: 403, want: "not valid"},
			{name: "createAgentJob_chunkedWrongContentType", method: "POST", path: agentJobs, key: keyAcme, ctype: "text/plain", body: chunked(`{"prompt": "x"}`), status: 415, want: "text/plain"},
			{name: "wrongMethod", method: "DELETE", path: exports + "/" + done, key: keyAcme, status: 405, want: "not allowed"},
			{name: "wrongMethodCollection", method: "PUT", path: exports, key: keyAcme, status: 405, want: "not allowed"},
			{name: "unknownPath", method: "GET", path: "/v1/nothing-here", key: keyAcme, status: 404, want: "no such endpoint"},
			{name: "uncleanPath", method: "GET", path: "/v1/static-export/jobs/../../healthz", status: 404, want: "no such endpoint"},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				u := tc.path
				if strings.HasPrefix(u, "/") {
					u = env.URL + u
				}
				hdr := map[string]string{}
				if tc.rawAuth != "" {
					hdr["Authorization"] = tc.rawAuth
				}
				if tc.ctype != "" {
					hdr["Content-Type"] = tc.ctype
				}
				r := callWith(t, tc.method, u, keys[tc.key], tc.body, hdr)
				if env.ObjectStore != "" && strings.HasPrefix(tc.name, "download_") {
					// Refused by the store itself, in its own words: 403,
					// or 400 for a link missing a SigV4 parameter.
					if (r.status != http.StatusForbidden && r.status != http.StatusBadRequest) || !strings.Contains(string(r.body), "<Error>") {
						t.Fatalf("status %d, want the store's refusal: %s", r.status, r.body)
					}
					return
				}
				if r.status != tc.status {
					t.Fatalf("status %d, want %d: %s", r.status, tc.status, r.body)
				}
				if msg := r.errorMessage(t); !strings.Contains(msg, tc.want) {
					t.Fatalf("error %q does not mention %q", msg, tc.want)
				}
				switch tc.status {
				case http.StatusUnauthorized:
					if !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Bearer") {
						t.Fatalf("401 without a Bearer challenge: %v", r.header)
					}
				case http.StatusMethodNotAllowed:
					if r.header.Get("Allow") == "" {
						t.Fatal("405 without Allow")
					}
				}
			})
		}
	})
}

// chunked hides a body's length, so the client sends it chunked.
func chunked(s string) io.Reader { return io.MultiReader(strings.NewReader(s)) }
