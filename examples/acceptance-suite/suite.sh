#!/usr/bin/env bash
# An acceptance suite in another language than Go, as another project
# would write it: it runs the reference server's binary with the control
# plane on and tests a small curl-based client of the admin API for
#   1. its retry of a start answered 503 with Retry-After,
#   2. its handling of an expired bundle link (ask for a fresh one),
#   3. its handling of a failed export (report the server's error),
#   4. its handling of a status answer cut short or not JSON (poll again),
# checking what the server received with the control plane's verification.
# Needs bash, curl and jq. PROVIDER_BIN names the binary (make test sets it).
# Traffic goes to 127.0.0.1 only; the server is stopped on exit.
set -euo pipefail

BIN=${PROVIDER_BIN:?set PROVIDER_BIN to the terraform-provider-docsadmin binary}
WORK=$(mktemp -d)
TOKEN="ctl_$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

fail() { echo "FAIL  $*" >&2; exit 1; }
pass() { echo "ok    $*"; }

# Start the server on a free port; read its address and demo key.
DOCSADMIN_CONTROL_TOKEN=$TOKEN "$BIN" apiserver --addr 127.0.0.1:0 --data-dir "$WORK/data" \
  >"$WORK/stdout" 2>"$WORK/stderr" &
SERVER_PID=$!
for _ in $(seq 1 100); do
  grep -q '^listening on ' "$WORK/stdout" 2>/dev/null && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/stderr" >&2; fail "the server exited"; }
  sleep 0.1
done
BASE=$(sed -n 's/^listening on //p' "$WORK/stdout")
KEY=$(sed -n 's/^demo admin key (also in .*): //p' "$WORK/stdout")
[ -n "$BASE" ] && [ -n "$KEY" ] || fail "the server did not announce its address and key"
DOMAIN=docs.demo.test

# The control plane, with the control token.
control() { # METHOD PATH [JSON]
  curl -sS --fail-with-body -X "$1" -H "Authorization: Bearer $TOKEN" \
    ${3:+-H 'Content-Type: application/json' --data "$3"} "$BASE$2"
}

# verify CHECK: ask the control plane whether the journal holds what CHECK
# says; when it does not, print the server's report of what it received.
verify() {
  local out
  out=$(curl -sS -X POST -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    --data "$1" -w '\n%{http_code}' "$BASE/_control/v1/requests/verify") || return 1
  [ "${out##*$'\n'}" = 200 ] && return 0
  jq -r '.error // .' <<<"${out%$'\n'*}" >&2
  return 1
}

# --- The client under test -------------------------------------------------
# start_export DOMAIN: POST a start, retrying 5xx answers as the server's
# Retry-After says (curl's --retry honours it, and truncates the output
# file before each retry); prints the job.
start_export() {
  curl -sS --fail --retry 3 --retry-max-time 30 -o "$WORK/start.json" -X POST \
    -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
    --data "{\"domain\": \"$1\"}" "$BASE/v1/static-export/jobs" || return 1
  cat "$WORK/start.json"
}
# wait_export ID: poll until the job finishes; prints it; fails with the
# server's error when the export failed. An answer that breaks off or is
# not JSON is polled again, three times at most.
wait_export() {
  local job status broken=0
  for _ in $(seq 1 300); do
    if ! job=$(curl -sS --fail-with-body -H "Authorization: Bearer $KEY" "$BASE/v1/static-export/jobs/$1" 2>/dev/null) ||
      ! status=$(jq -er .status <<<"$job" 2>/dev/null); then
      broken=$((broken + 1))
      [ "$broken" -le 3 ] || { echo "export $1: no readable status after $broken tries" >&2; return 1; }
      continue
    fi
    case $status in
      completed) echo "$job"; return 0 ;;
      failed) echo "export $1 failed: $(jq -r .error <<<"$job")" >&2; return 1 ;;
    esac
    sleep 0.1
  done
  echo "export $1 did not finish" >&2; return 1
}
# fetch_bundle ID OUT: download the job's archive; a link that has expired
# (403) is replaced by a fresh one, once.
fetch_bundle() {
  local link code
  for attempt in 1 2; do
    link=$(curl -sS --fail-with-body -X POST -H "Authorization: Bearer $KEY" "$BASE/v1/static-export/jobs/$1/bundle" | jq -er .bundleUrl) || return 1
    [ "$attempt" = 1 ] && [ -n "${BEFORE_DOWNLOAD:-}" ] && $BEFORE_DOWNLOAD
    code=$(curl -sS -o "$2" -w '%{http_code}' "$link")
    [ "$code" = 200 ] && return 0
    [ "$code" = 403 ] || { echo "download: $code" >&2; return 1; }
  done
  return 1
}
# ---------------------------------------------------------------------------

# 1. Retry on 503: two starts fail, the third is accepted.
control POST /_control/v1/reset >/dev/null
control POST /_control/v1/faults '{"method": "POST", "path": "/v1/static-export/jobs", "status": 503, "retryAfter": "1s", "times": 2}' >/dev/null
job=$(start_export "$DOMAIN") || fail "retry on 503: the client gave up"
START='{"method": "POST", "path": "/v1/static-export/jobs", "organization": "demo", "body": {"domain": "'$DOMAIN'"}}'
verify '{"match": '"$START"', "count": 3}' || fail "retry on 503: not three starts"
verify '{"within": '"$START"', "sequence": [{"status": 503}, {"status": 503}, {"status": 202}]}' ||
  fail "retry on 503: not two 503s, then the 202"
id=$(jq -r .jobId <<<"$job")
wait_export "$id" >/dev/null || fail "retry on 503: the export did not complete"
pass "the client retries a start answered 503 (the server saw 503, 503, 202)"

# 2. An expired link: the clock moves past the link's hour between the
# bundle call and the download; the client asks again and gets the archive.
export BEFORE_DOWNLOAD="advance_past_link"
advance_past_link() { control POST /_control/v1/clock/advance '{"by": "61m"}' >/dev/null; }
fetch_bundle "$id" "$WORK/bundle.tar.gz" || fail "expired link: the client did not recover"
unset BEFORE_DOWNLOAD
# Listed to a file first: with pipefail, grep -q leaving early would fail tar.
tar -tzf "$WORK/bundle.tar.gz" >"$WORK/files" || fail "expired link: the download is not a .tar.gz"
grep -qx 'manifest.json' "$WORK/files" || fail "expired link: the archive has no manifest.json"
codes=$(control GET '/_control/v1/requests?path=/bundles/*' | jq -c '[.requests[].status]')
[ "$codes" = "[403,200]" ] || fail "expired link: downloads answered $codes, want [403,200]"
pass "the client replaces an expired link (downloads answered $codes)"

# 3. A failed export: the server's error reaches the client's user.
control POST /_control/v1/exports/hold "{\"organization\": \"demo\"}" >/dev/null
id=$(start_export "$DOMAIN" | jq -r .jobId)
control POST "/_control/v1/exports/$id/state" '{"status": "failed", "error": "the docs source has no docs.json"}' >/dev/null
if wait_export "$id" 2>"$WORK/err" >/dev/null; then fail "failed export: the client reported success"; fi
grep -q 'the docs source has no docs.json' "$WORK/err" || fail "failed export: the client lost the server's error: $(cat "$WORK/err")"
pass "the client reports a failed export with the server's error"

# 4. A status answer that breaks off halfway, then one that is not JSON:
# the client polls again and sees the export complete. The faults reshape
# the real answers, so the polls really reached the server.
control POST /_control/v1/exports/hold '{"organization": "demo", "hold": false}' >/dev/null
id=$(start_export "$DOMAIN" | jq -r .jobId)
control POST /_control/v1/faults '{"method": "GET", "path": "/v1/static-export/jobs/*", "response": "truncated", "times": 1}' >/dev/null
control POST /_control/v1/faults '{"method": "GET", "path": "/v1/static-export/jobs/*", "response": "malformed", "times": 1}' >/dev/null
wait_export "$id" >/dev/null || fail "broken status answers: the client gave up"
left=$(control GET /_control/v1/faults | jq '.faults | length')
[ "$left" = 0 ] || fail "broken status answers: $left of the 2 faults never struck"
POLL='{"method": "GET", "path": "/v1/static-export/jobs/'$id'"}'
verify '{"match": '"$POLL"', "atLeast": 3}' || fail "broken status answers: the client did not poll again"
verify '{"within": {"organization": "demo"}, "only": [{"route": "POST /v1/static-export/jobs"},
  {"route": "GET /v1/static-export/jobs/{jobId}"}, {"route": "POST /v1/static-export/jobs/{jobId}/bundle"},
  {"route": "GET /bundles/{jobId}/{file}"}]}' || fail "the client sent something besides starts, polls, bundle calls and downloads"
verify '{"match": {"unmatched": true}, "count": 0}' || fail "the client called a path the API does not have"
pass "the client polls again after a truncated and a malformed status answer"

# Nothing secret in the journal.
control GET /_control/v1/requests >"$WORK/journal.json"
if grep -qF -e "${KEY#dak_}" -e "$TOKEN" "$WORK/journal.json"; then fail "the journal holds a secret"; fi
pass "the journal holds no key or token"
