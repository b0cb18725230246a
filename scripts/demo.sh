#!/usr/bin/env bash
# The whole loop on this machine, with no registry and no network: build
# the provider, start the reference server with its embedded demo, apply
# examples/quickstart, download the bundle from the output link, verify
# every file against the bundle's manifest, and say where the site is.
#
# DEMO_INIT=1 installs the provider with `terraform init` from a local
# filesystem mirror instead of dev_overrides.
#
# Leaves .demo/ behind (server data, Terraform state, the site) to look
# at; each run starts from a fresh Terraform state, since the server's
# port, and so every link in an old state, changes between runs.
set -euo pipefail
source "$(dirname "$0")/devprovider.sh"

DEMO="$ROOT/.demo"
mkdir -p "$DEMO"
for tool in curl tar sha256sum jq; do
  command -v "$tool" >/dev/null || { echo "demo needs $tool (apt-get install $tool)" >&2; exit 1; }
done

step() { printf '\n==> %s\n' "$*"; }

step "starting the reference server (embedded demo)"
start_apiserver "$DEMO/apiserver"
echo "server at $APISERVER_URL (log: $DEMO/apiserver.log)"

export DOCSADMIN_BASE_URL="$APISERVER_URL" DOCSADMIN_API_KEY="$APISERVER_KEY"
export DOCSADMIN_PROJECT_ID=demo

# A working copy, so that state never lands in the examples. The server's
# port changes between runs, and so do its jobs: start from a clean
# state so the demo never plans against a previous server.
rm -rf "$DEMO/quickstart"
mkdir -p "$DEMO/quickstart"
cp "$ROOT"/examples/quickstart/*.tf "$DEMO/quickstart/"
cd "$DEMO/quickstart"
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

step "downloading the bundle from the output link"
url="$(terraform output -raw bundle_url)"
rm -rf "$DEMO/bundle.tar.gz" "$DEMO/site"
curl -fsS -o "$DEMO/bundle.tar.gz" "$url"
echo "$(stat -c %s "$DEMO/bundle.tar.gz") bytes (expected $(terraform output -raw bundle_size_bytes)), link valid until $(terraform output -raw bundle_expires_at)"

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

job_id="$(cd "$DEMO/quickstart" && terraform output -raw job_id)"

step "rolling the bundle out with Helm to a local Kubernetes API server"
# The test API server of the Helm tier (tools/kube/build.sh, `make kube`):
# etcd and kube-apiserver on loopback, no kubelet, so nothing waits for pods.
kubelocal="$WORK/kubelocal"
(cd "$ROOT" && go build -o "$kubelocal" ./internal/kubetest/kubelocal)
: >"$DEMO/kube.out"
(cd "$ROOT" && exec "$kubelocal" -kubeconfig-out "$DEMO/kubeconfig" -namespace docs) >"$DEMO/kube.out" 2>"$DEMO/kube.log" &
KUBE_PID=$!
trap 'kill "$KUBE_PID" "$APISERVER_PID" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT
kube_ready=""
for _ in $(seq 1 300); do
  grep -q '^ready' "$DEMO/kube.out" && { kube_ready=1; break; }
  kill -0 "$KUBE_PID" 2>/dev/null || break
  sleep 0.1 # processes coming up: nothing to wait on but their output
done
if [[ -z "$kube_ready" ]]; then
  if wait "$KUBE_PID"; [[ $? == 3 ]]; then
    echo "skipped: the test Kubernetes API server is not built (make kube builds it, once, in about 8 minutes)"
  else
    echo "the local Kubernetes API server did not start; see $DEMO/kube.log" >&2
    exit 1
  fi
else
  sed 's/^ready: /local /' "$DEMO/kube.out"
  rollout=("$PROVIDER_BIN" rollout --release docs --namespace docs --kubeconfig "$DEMO/kubeconfig"
    --job-id "$job_id" --chart "$ROOT/examples/self-hosted-chart" --install --atomic=false)
  "${rollout[@]}"
  step "running the rollout again, as cron would: nothing to do while the link is fresh"
  "${rollout[@]}"
fi

step "done"
echo "The static site is in $DEMO/site; open $DEMO/site/index.html,"
echo "or serve it:  python3 -m http.server --directory $DEMO/site 8000"
