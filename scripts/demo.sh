#!/usr/bin/env bash
# The whole loop on this machine, with no registry and no network: build
# the provider, start the reference server with its embedded demo, apply
# examples/quickstart, download the bundle from the output link, verify
# every file against the bundle's manifest, roll it out with Helm to a
# local cluster that runs pods, and serve it with serve-bundle.
#
# DEMO_INIT=1 installs the provider with `terraform init` from a local
# filesystem mirror instead of dev_overrides.
#
# DEMO_KUBECONFIG=PATH (and DEMO_KUBE_CONTEXT=NAME, else its current
# context) rolls out to that cluster instead of the local one, in a
# namespace of its own (docsadmin-demo-<time>-<pid>) that is deleted when
# the demo ends. Without it the local test cluster is used; its build (15-30
# minutes on two cores, once) starts at the beginning and runs while the
# export is made and checked, so the verified bundle comes first.
#
# State that makes a second run a no-op is kept across runs in
# $DOCSADMIN_DEMO_STATE (default ~/.cache/docsadmin-demo): the reference
# server's data (jobs, bundles, signing keys, admin key), the port it was
# given on the first run (every link names it), the Terraform state, and
# the local Kubernetes cluster (kubelocal -state-dir: its CA, ports, etcd
# data with the Helm release, and the kwok node). Remove that directory to
# start over. .demo/ keeps this run's logs, the
# site and the kubeconfig to look at.
set -euo pipefail
source "$(dirname "$0")/devprovider.sh"

DEMO="$ROOT/.demo"
STATE="${DOCSADMIN_DEMO_STATE:-${XDG_CACHE_HOME:-$HOME/.cache}/docsadmin-demo}"
mkdir -p "$DEMO" "$STATE"
for tool in curl tar sha256sum jq flock; do
  command -v "$tool" >/dev/null || { echo "demo needs $tool (apt-get install $tool)" >&2; exit 1; }
done
# One demo at a time per state directory: two servers on one data dir, or
# two applies on one Terraform state, would step on each other.
exec 9>"$STATE/lock"
flock -n 9 || { echo "another make demo is using $STATE (lock $STATE/lock); wait for it or set DOCSADMIN_DEMO_STATE" >&2; exit 1; }

step() { printf '\n==> %s\n' "$*"; }

# The processes this run starts, ended by cleanup on any exit.
APISERVER_PID="" KUBE_BUILD_PID="" KUBE_PID="" SITE_PID=""
USER_KUBE="${DEMO_KUBECONFIG:-}" NS_CREATED=""
cleanup() {
  # The build runs in a session of its own (setsid): end all of it.
  if [[ -n "$KUBE_BUILD_PID" ]]; then kill -- "-$KUBE_BUILD_PID" 2>/dev/null || true; fi
  # shellcheck disable=SC2086 # the unset ones vanish
  kill $SITE_PID $KUBE_PID $APISERVER_PID 2>/dev/null || true
  wait 2>/dev/null || true
  if [[ -n "$NS_CREATED" ]]; then
    if kc delete namespace "$NS" --wait=false >/dev/null 2>&1; then
      echo "deleted namespace $NS from the cluster of $USER_KUBE"
    else
      echo "could not delete namespace $NS from the cluster of $USER_KUBE; delete it by hand" >&2
    fi
  fi
  rm -rf "$WORK"
  return 0
}
trap cleanup EXIT
# kc is kubectl on the demo's cluster.
kc() { kubectl ${DEMO_KUBE_CONTEXT:+--context "$DEMO_KUBE_CONTEXT"} "$@"; }

if [[ -n "$USER_KUBE" ]]; then
  [[ -f "$USER_KUBE" ]] || { echo "DEMO_KUBECONFIG=$USER_KUBE: no such file" >&2; exit 2; }
  command -v kubectl >/dev/null || { echo "demo needs kubectl on PATH (any kubectl 1.3x)" >&2; exit 1; }
  export KUBECONFIG="$USER_KUBE"
  kc version >/dev/null 2>&1 || { echo "DEMO_KUBECONFIG=$USER_KUBE${DEMO_KUBE_CONTEXT:+ (context $DEMO_KUBE_CONTEXT)}: the cluster does not answer" >&2; exit 1; }
  NS="docsadmin-demo-$(date +%s)-$$"
else
  NS=docs
  # Built while the export runs; waited for before the rollout.
  : >"$DEMO/kube-build.log"
  (cd "$ROOT" && exec setsid nice -n 10 tools/kube/build.sh >"$WORK/kube-bin" 2>"$DEMO/kube-build.log") &
  KUBE_BUILD_PID=$!
fi

# start_demo_apiserver: the reference server on the port kept in
# $STATE/port (chosen by the kernel on the first run and kept), with its
# data in $STATE/apiserver, so jobs, links and the Terraform state of the
# previous run stay valid.
start_demo_apiserver() {
  local port="" addr i
  [[ -f "$STATE/port" ]] && port="$(cat "$STATE/port")"
  addr="127.0.0.1:${port:-0}"
  : >"$DEMO/apiserver.out"
  : >"$DEMO/apiserver.log"
  "$PROVIDER_BIN" apiserver --addr "$addr" --data-dir "$STATE/apiserver" >"$DEMO/apiserver.out" 2>"$DEMO/apiserver.log" &
  APISERVER_PID=$!
  APISERVER_URL=""
  for i in $(seq 1 100); do
    APISERVER_URL="$(sed -n 's/^listening on //p' "$DEMO/apiserver.out")"
    [[ -n "$APISERVER_URL" ]] && curl -fsS "$APISERVER_URL/readyz" >/dev/null 2>&1 && break
    APISERVER_URL=""
    if ! kill -0 "$APISERVER_PID" 2>/dev/null; then
      cat "$DEMO/apiserver.log" >&2
      if [[ -n "$port" ]] && grep -q 'address already in use' "$DEMO/apiserver.log"; then
        echo "port $port, kept in $STATE/port since the first run, is taken by another program;" >&2
        echo "stop it, or remove $STATE/port to take a new port (the links in the kept state then change)" >&2
      fi
      return 1
    fi
    sleep 0.1 # a child process coming up: there is nothing to wait on but the port
  done
  [[ -n "$APISERVER_URL" ]] || { echo "the server did not come up; see $DEMO/apiserver.log" >&2; return 1; }
  [[ -n "$port" ]] || echo "${APISERVER_URL##*:}" >"$STATE/port"
  APISERVER_KEY="$(cat "$STATE/apiserver/admin-key")"
}

# compare_with_previous_run NAME VALUE SAME CHANGED says whether VALUE is
# what the previous run kept under NAME in $STATE (SAME), or not (CHANGED,
# with %s for the old value), and keeps VALUE for the next run.
compare_with_previous_run() {
  local file="$STATE/$1"
  if [[ -f "$file" ]]; then
    if [[ "$(cat "$file")" == "$2" ]]; then
      echo "$3"
    else
      # shellcheck disable=SC2059 # the message is the format
      printf "$4\n" "$(cat "$file")"
    fi
  fi
  echo "$2" >"$file"
}

step "starting the reference server (embedded demo, data kept in $STATE/apiserver)"
start_demo_apiserver
echo "server at $APISERVER_URL (port kept in $STATE/port; log: $DEMO/apiserver.log)"

export DOCSADMIN_BASE_URL="$APISERVER_URL" DOCSADMIN_API_KEY="$APISERVER_KEY"
export DOCSADMIN_PROJECT_ID=demo

# A working copy, so that state never lands in the examples. Its
# terraform.tfstate is kept: the server, its port and its jobs are the same
# as last time, so a second run plans no change.
mkdir -p "$STATE/quickstart"
cp "$ROOT"/examples/quickstart/*.tf "$STATE/quickstart/"
cd "$STATE/quickstart"
if [[ "${DEMO_INIT:-0}" == 1 ]]; then
  step "terraform init from a local filesystem mirror (offline)"
  use_filesystem_mirror
  terraform init -input=false -no-color | grep -v '^ *$'
  step "terraform apply in examples/quickstart"
else
  step "terraform apply in examples/quickstart (provider from dev_overrides, no init; DEMO_INIT=1 to init from a mirror)"
fi
start_ms=$(($(date +%s%N) / 1000000))
terraform apply -auto-approve -input=false -no-color | grep -v '^ *$'
echo "apply took $(($(date +%s%N) / 1000000 - start_ms)) ms"

step "downloading the bundle with a link the API makes for the job"
# The quickstart keeps no link in state (the rollout fetches its own), so
# the demo asks the API for one, as any script would; the key goes to curl
# in a header file, never on its command line.
printf 'Authorization: Bearer %s\n' "$DOCSADMIN_API_KEY" >"$WORK/auth-header"
bundle="$(curl -fsS -X POST -H @"$WORK/auth-header" -H 'Content-Type: application/json' --data '{}' \
  "$APISERVER_URL/v1/static-export/jobs/$(terraform output -raw job_id)/bundle")"
rm -f "$WORK/auth-header"
url="$(jq -r .bundleUrl <<<"$bundle")"
rm -rf "$DEMO/bundle.tar.gz" "$DEMO/site"
curl -fsS -o "$DEMO/bundle.tar.gz" "$url"
echo "$(stat -c %s "$DEMO/bundle.tar.gz") bytes (expected $(jq -r .sizeBytes <<<"$bundle")), link valid until $(jq -r .expiresAt <<<"$bundle")"
# same_as_before NAME VALUE WHAT: says whether VALUE matches the previous
# run's, kept in $STATE as a hash (a link is a secret: only its hash is
# written down, and neither is printed).
same_as_before() {
  local file="$STATE/$1.sha256" sum
  sum="$(printf '%s' "$2" | sha256sum | cut -d' ' -f1)"
  if [[ -f "$file" ]]; then
    if [[ "$(cat "$file")" == "$sum" ]]; then echo "same $3 as the previous run"; else echo "$3 differs from the previous run's"; fi
  fi
  echo "$sum" >"$file"
}

step "checking the bundle against its manifest"
mkdir -p "$DEMO/site"
tar -xzf "$DEMO/bundle.tar.gz" -C "$DEMO/site"
cd "$DEMO/site"
manifest=manifest.json
[[ -f "$manifest" ]] || { echo "bundle has no $manifest" >&2; exit 1; }
jq -r '.files[] | "\(.sha256)  \(.path)"' "$manifest" | sha256sum --quiet -c -
jq -r '.files[] | "\(.size) \(.path)"' "$manifest" | while read -r size path; do
  [[ "$(stat -c %s "$path")" == "$size" ]] || { echo "size mismatch: $path" >&2; exit 1; }
done
listed="$(jq -r '.files[].path' "$manifest" | sort)"
present="$(find . -type f ! -name "$manifest" | sed 's#^\./##' | sort)"
if [[ "$listed" != "$present" ]]; then
  echo "files in the bundle differ from the manifest:" >&2
  diff <(echo "$listed") <(echo "$present") >&2 || true
  exit 1
fi
echo "$(echo "$listed" | wc -l) files match manifest version $(jq -r .version "$manifest") ($(jq -r .pageCount "$manifest") pages, domain $(jq -r .domain "$manifest"))"

job_id="$(cd "$STATE/quickstart" && terraform output -raw job_id)"
compare_with_previous_run job_id "$job_id" \
  "same export job as the previous run: $job_id (nothing exported again)" \
  "export job $job_id replaces %s of the previous run"

if [[ -n "$USER_KUBE" ]]; then
  step "rolling the bundle out with Helm to your cluster ($USER_KUBE${DEMO_KUBE_CONTEXT:+, context $DEMO_KUBE_CONTEXT}), namespace $NS"
  kc create namespace "$NS" >/dev/null
  NS_CREATED=1
  # A new namespace every run: what a previous run kept says nothing here.
  rm -f "$STATE/release_revision" "$STATE/release_link.sha256"
else
step "rolling the bundle out with Helm to a local Kubernetes cluster that runs pods"
# kubelocal keeps the cluster in $STATE/kube (-state-dir): the first run
# creates it and installs the release; later runs start the same cluster
# (same CA, ports, objects and node), find the release there and change
# nothing while its link is fresh.
KUBE_STATE="$STATE/kube"
if [[ -f "$KUBE_STATE/cluster.json" ]]; then
  echo "Starting the cluster kept in $KUBE_STATE since the first run (same CA, ports, etcd data and node)."
else
  echo "Creating the cluster, kept in $KUBE_STATE for later runs (remove it to start a new one)."
  # What the previous run saw in a release that this new cluster lacks.
  rm -f "$STATE/release_revision" "$STATE/release_link.sha256"
fi
# The test cluster of the Helm tier (tools/kube/build.sh, `make kube`): etcd,
# kube-apiserver, the controller manager and scheduler on loopback, and kwok
# playing a node, so Deployments roll and pods turn Ready without Docker.
command -v kubectl >/dev/null || { echo "demo needs kubectl on PATH to read the release's Secret and pods (any kubectl 1.3x; https://kubernetes.io/docs/tasks/tools/)" >&2; exit 1; }
# build.sh started with the demo; when it has to build, its log says so and
# names each binary as it lands.
if kill -0 "$KUBE_BUILD_PID" 2>/dev/null; then
  echo "The test cluster is still being built from Go modules (started with the demo; 15-30 minutes on two cores, once; later runs reuse it)."
  echo "Progress: $DEMO/kube-build.log. DEMO_KUBECONFIG=PATH uses a cluster of your own instead."
fi
build_ok=1
wait "$KUBE_BUILD_PID" || build_ok=""
KUBE_BUILD_PID=""
if [[ -z "$build_ok" ]]; then
  tail -n 20 "$DEMO/kube-build.log" >&2
  echo "building the local test cluster failed; see $DEMO/kube-build.log" >&2
  exit 1
fi
kube_bin="$(cat "$WORK/kube-bin")"
export DOCSADMIN_KUBE_BIN="$kube_bin"
kubelocal="$WORK/kubelocal"
(cd "$ROOT" && go build -o "$kubelocal" ./internal/kubetest/kubelocal)
: >"$DEMO/kube.out"
(cd "$ROOT" && exec "$kubelocal" -nodes -state-dir "$KUBE_STATE" -kubeconfig-out "$DEMO/kubeconfig" -namespace docs) >"$DEMO/kube.out" 2>"$DEMO/kube.log" &
KUBE_PID=$!
kube_ready=""
for _ in $(seq 1 1200); do
  grep -q '^ready' "$DEMO/kube.out" && { kube_ready=1; break; }
  kill -0 "$KUBE_PID" 2>/dev/null || break
  sleep 0.1 # processes coming up: nothing to wait on but their output
done
if [[ -z "$kube_ready" ]]; then
  tail -n 5 "$DEMO/kube.log" >&2
  echo "the local Kubernetes cluster did not start; see $DEMO/kube.log (its servers' logs are in $KUBE_STATE)" >&2
  exit 1
fi
sed 's/^ready: /local /' "$DEMO/kube.out"
export KUBECONFIG="$DEMO/kubeconfig"
fi

# --wait on top of atomic (the default): the revision counts only once the
# pods are Ready on the kwok node, and a failure rolls back.
rollout() {
  "$PROVIDER_BIN" rollout --release docs --namespace "$NS" --kubeconfig "$KUBECONFIG" ${DEMO_KUBE_CONTEXT:+--kube-context "$DEMO_KUBE_CONTEXT"} \
    --job-id "$job_id" --chart "$ROOT/examples/self-hosted-chart" --wait --timeout 2m "$@"
}
# Helm keeps a release's revisions in Secrets labelled owner=helm.
if [[ -z "$(kc -n "$NS" get secrets -l owner=helm,name=docs -o name)" ]]; then
  echo "install: the first revision, pods Ready before it counts"
  rollout --install
  step "renewing the link as if it expired within the hour: the release is upgraded, pods Ready again"
  # The link lives an hour; a renew-before longer than that makes it due
  # now, which is what a cron run an hour later would find.
  rollout --renew-before 61m
  kc -n "$NS" get deployments,pods -o wide
  step "running the rollout again, as cron would: nothing to do while the link is fresh"
else
  step "the release is still there from the previous run: rolling out again, as cron would"
  kc -n "$NS" get deployments,pods -o wide
fi
again="$(rollout 2>&1)"
echo "$again"
if [[ "$again" != *"nothing to do"* ]]; then
  # Only a link that expired since the previous run (it lives an hour)
  # may change the release here; anything else is a failure.
  [[ "$again" == *"revision"* ]] || { echo "the rollout failed" >&2; exit 1; }
  echo "the link had come within --renew-before of expiry since the previous run: renewed, the release upgraded"
fi
revision="$(printf '%s' "$again" | sed -n 's/.*revision \([0-9][0-9]*\).*/\1/p' | head -1)"
compare_with_previous_run release_revision "$revision" \
  "same release revision $revision as the previous run: nothing upgraded" \
  "release revision $revision; the previous run left revision %s"

step "serving the release's bundle with serve-bundle, as its pods do"
# The link is read from the release's Secret, where the chart keeps it; it
# goes to serve-bundle in a file, never on a command line or in the log.
secret="$(kc -n "$NS" get secrets -l app.kubernetes.io/instance=docs -o name | grep -- '-bundle$')"
kc -n "$NS" get "$secret" -o jsonpath='{.data.bundleUrl}' | base64 -d >"$WORK/bundleUrl"
same_as_before release_link "$(cat "$WORK/bundleUrl")" "link in the release"
pin="$(kc -n "$NS" get "$secret" -o jsonpath='{.data.version}' | base64 -d)"
"$PROVIDER_BIN" serve-bundle --bundle-url-file "$WORK/bundleUrl" --pin-version "$pin" \
  --addr 127.0.0.1:0 --data-dir "$DEMO/serve-bundle" >"$DEMO/serve-bundle.out" 2>"$DEMO/serve-bundle.log" &
SITE_PID=$!
site_url=""
for _ in $(seq 1 600); do
  site_url="$(sed -n 's/^listening on //p' "$DEMO/serve-bundle.out")"
  [[ -n "$site_url" ]] && curl -fsS -o /dev/null "$site_url/readyz" 2>/dev/null && break
  site_url=""
  kill -0 "$SITE_PID" 2>/dev/null || break
  sleep 0.1 # the first download and unpack: nothing to wait on but the probe
done
[[ -n "$site_url" ]] || { echo "serve-bundle did not become ready; see $DEMO/serve-bundle.log" >&2; exit 1; }
page="$(curl -fsS "$site_url/quickstart")"
title="$(printf '%s' "$page" | sed -n 's:.*<title>\([^<]*\)</title>.*:\1:p' | head -1)"
echo "serve-bundle at $site_url serves version $pin (pinned); /healthz: $(curl -sS "$site_url/healthz")"
echo "GET $site_url/quickstart -> \"$title\""

step "done"
echo "The static site is in $DEMO/site; open $DEMO/site/index.html,"
echo "or serve it:  python3 -m http.server --directory $DEMO/site 8000"
