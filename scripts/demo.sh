#!/usr/bin/env bash
# The whole loop on this machine, with no registry and no network: build
# the provider, start the reference server with its embedded demo, apply
# examples/quickstart, download the bundle from the output link, verify
# every file against the bundle's manifest, and say where the site is.
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
"$PROVIDER_BIN" apiserver --addr 127.0.0.1:0 --data-dir "$DEMO/apiserver" \
  >"$DEMO/apiserver.out" 2>"$DEMO/apiserver.log" &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; rm -rf "$WORK"' EXIT

base=""
for _ in $(seq 1 100); do
  base="$(sed -n 's/^listening on //p' "$DEMO/apiserver.out")"
  [[ -n "$base" ]] && curl -fsS "$base/readyz" >/dev/null 2>&1 && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$DEMO/apiserver.log" >&2; exit 1; }
  sleep 0.1 # waiting for a child process to listen: there is nothing to poll but the port
done
[[ -n "$base" ]] || { echo "the server did not come up; see $DEMO/apiserver.log" >&2; exit 1; }
echo "server at $base (log: $DEMO/apiserver.log)"

export DOCSADMIN_BASE_URL="$base"
DOCSADMIN_API_KEY="$(cat "$DEMO/apiserver/admin-key")"
export DOCSADMIN_API_KEY
export DOCSADMIN_PROJECT_ID=demo

step "terraform apply in examples/quickstart (provider from dev_overrides, no init)"
# A working copy, so that state never lands in the examples.
mkdir -p "$DEMO/quickstart"
cp "$ROOT"/examples/quickstart/*.tf "$DEMO/quickstart/"
cd "$DEMO/quickstart"
# The server's port changes between runs, and so do its jobs: start from
# a clean state so the demo never plans against a previous server.
rm -f terraform.tfstate terraform.tfstate.backup
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

step "done"
echo "The static site is in $DEMO/site; open $DEMO/site/index.html,"
echo "or serve it:  python3 -m http.server --directory $DEMO/site 8000"
