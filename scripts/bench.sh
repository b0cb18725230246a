#!/usr/bin/env bash
# Provider benchmarks against the reference server, printed as ratios and
# delays (never pass/fail on timing):
#
# 1. plan time, with refresh, of 50 docsadmin_static_export_bundle
#    resources, as a ratio to the same plan of 50 terraform_data
#    resources (goal <= 2x);
# 2. delay between the server marking an export completed (the job's
#    updatedAt) and Terraform seeing the provider's Create return (the
#    apply_complete event of `terraform apply -json`) (goal <= 1s).
#
# 3. the same plan of 50 bundles (+1 export) as a ratio to 50 time_static
#    (+1 time_rotating) of hashicorp's terraform-provider-time, built from
#    the Go module proxy into BENCH_CACHE, both through dev_overrides, so
#    that both sides pay for starting a plugin (goal <= 1.5x);
# 4. the plan of 50 rollouts with job_id, one release each, on the test
#    Kubernetes API server, against the same baseline (reported, no goal;
#    skipped when the test binaries are not built).
#
# BENCH_RUNS (default 5) plans are timed per side; the median counts. For
# 3 and 4 the two sides alternate run by run, so that load from other
# work on the machine falls on both.
set -euo pipefail
source "$(dirname "$0")/devprovider.sh"
RUNS="${BENCH_RUNS:-5}"
for tool in curl jq; do
  command -v "$tool" >/dev/null || { echo "bench needs $tool" >&2; exit 1; }
done

start_apiserver "$WORK/apiserver"
export DOCSADMIN_BASE_URL="$APISERVER_URL" DOCSADMIN_API_KEY="$APISERVER_KEY"
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# median_plan_ms DIR: median wall time of RUNS refreshing plans in DIR.
median_plan_ms() {
  local times=() i t0
  for ((i = 0; i < RUNS; i++)); do
    t0=$(now_ms)
    (cd "$1" && terraform plan -input=false -lock=false -detailed-exitcode >/dev/null)
    times+=($(($(now_ms) - t0)))
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$((RUNS / 2 + 1))p"
}

mkdir -p "$WORK/bundles" "$WORK/data" "$WORK/exports" "$WORK/one"
write_required_providers "$WORK/bundles"
cat >"$WORK/bundles/main.tf" <<'TF'
resource "docsadmin_static_export" "site" {
  domain = "docs.demo.test"
}

resource "docsadmin_static_export_bundle" "b" {
  count  = 50
  job_id = docsadmin_static_export.site.id
}
TF
# One export alone: what any plan with this provider pays before the
# first bundle (three plugin launches, each with its TLS handshake).
write_required_providers "$WORK/one"
cat >"$WORK/one/main.tf" <<'TF'
resource "docsadmin_static_export" "site" {
  domain = "docs.demo.test"
}
TF
cat >"$WORK/data/main.tf" <<'TF'
resource "terraform_data" "d" {
  count = 50
  input = "bundle-${count.index}"
}
TF

echo "setting up: 50 bundles of one export, and 50 terraform_data"
(cd "$WORK/bundles" && terraform apply -auto-approve -input=false >/dev/null)
(cd "$WORK/data" && terraform apply -auto-approve -input=false >/dev/null)
(cd "$WORK/one" && terraform apply -auto-approve -input=false >/dev/null)

# Warm the OS caches of both binaries before timing either side.
median_plan_ms "$WORK/bundles" >/dev/null
bundles_ms=$(median_plan_ms "$WORK/bundles")
data_ms=$(median_plan_ms "$WORK/data")
one_ms=$(median_plan_ms "$WORK/one")
ratio=$(awk -v a="$bundles_ms" -v b="$data_ms" 'BEGIN { printf "%.2f", a / b }')

# The plugin baseline: terraform-provider-time, built once from the module
# proxy (a pinned version), served like ours through dev_overrides.
TIME_VERSION="v0.13.1"
BENCH_CACHE="${BENCH_CACHE:-$HOME/.cache/docsadmin-bench}"
time_bin="$BENCH_CACHE/time-$TIME_VERSION/terraform-provider-time"
if [[ ! -x "$time_bin" ]]; then
  echo "building terraform-provider-time $TIME_VERSION from the module proxy (once)"
  GOBIN="$(dirname "$time_bin")" go install "github.com/hashicorp/terraform-provider-time@$TIME_VERSION"
fi
add_dev_override "registry.terraform.io/hashicorp/time" "$(dirname "$time_bin")"
mkdir -p "$WORK/time"
cat >"$WORK/time/main.tf" <<'TF'
terraform {
  required_providers {
    time = {
      source = "hashicorp/time"
    }
  }
}

resource "time_rotating" "r" {
  rotation_days = 1
}

resource "time_static" "s" {
  count    = 50
  triggers = { n = count.index }
}
TF
(cd "$WORK/time" && terraform apply -auto-approve -input=false >/dev/null)

# alternate_ms A B: RUNS pairs of plans, A then B, printing the medians.
alternate_ms() {
  local a=() b=() i t0
  for ((i = 0; i < RUNS; i++)); do
    t0=$(now_ms)
    (cd "$1" && terraform plan -input=false -lock=false -detailed-exitcode >/dev/null)
    a+=($(($(now_ms) - t0)))
    t0=$(now_ms)
    (cd "$2" && terraform plan -input=false -lock=false -detailed-exitcode >/dev/null)
    b+=($(($(now_ms) - t0)))
  done
  echo "$(printf '%s\n' "${a[@]}" | sort -n | sed -n "$((RUNS / 2 + 1))p") $(printf '%s\n' "${b[@]}" | sort -n | sed -n "$((RUNS / 2 + 1))p")"
}
median_plan_ms "$WORK/time" >/dev/null # warm
read -r pair_bundles_ms time_ms < <(alternate_ms "$WORK/bundles" "$WORK/time")
time_ratio=$(awk -v a="$pair_bundles_ms" -v b="$time_ms" 'BEGIN { printf "%.2f", a / b }')

# Five exports one after another (-parallelism=1), so each delay is that
# of a lone job rather than of a queue on a 2-core machine.
write_required_providers "$WORK/exports"
cat >"$WORK/exports/main.tf" <<'TF'
resource "docsadmin_static_export" "e" {
  count    = 5
  domain   = "docs.demo.test"
  triggers = { n = count.index }
}
TF
(cd "$WORK/exports" && terraform apply -auto-approve -input=false -parallelism=1 -json) >"$WORK/exports.jsonl"
delays=()
while read -r id ts; do
  done_at=$(curl -fsS -H "Authorization: Bearer $APISERVER_KEY" "$APISERVER_URL/v1/static-export/jobs/$id" | jq -r .updatedAt)
  delays+=($((($(date -d "$ts" +%s%N) - $(date -d "$done_at" +%s%N)) / 1000000)))
done < <(jq -r 'select(.type == "apply_complete" and .hook.resource.resource_type == "docsadmin_static_export")
                | "\(.hook.id_value) \(.["@timestamp"])"' "$WORK/exports.jsonl")
[[ ${#delays[@]} -eq 5 ]] || { echo "expected 5 completed exports, got ${#delays[@]}" >&2; exit 1; }
sorted=$(printf '%s\n' "${delays[@]}" | sort -n)

echo
echo "plan with refresh, median of $RUNS:"
echo "  50 docsadmin_static_export_bundle (+1 export): ${bundles_ms} ms"
echo "  50 terraform_data:                             ${data_ms} ms"
echo "  ratio: ${ratio}x (goal <= 2x)"
echo "  for scale, 1 docsadmin_static_export alone:   ${one_ms} ms (the provider's fixed cost)"
echo "  so each bundle adds $(awk -v a="$bundles_ms" -v b="$one_ms" 'BEGIN { printf "%.1f", (a - b) / 50 }') ms"
echo "plan with refresh against a plugin baseline, $RUNS alternated pairs (medians):"
echo "  50 docsadmin_static_export_bundle (+1 export):  ${pair_bundles_ms} ms"
echo "  50 time_static (+1 time_rotating), $TIME_VERSION: ${time_ms} ms"
echo "  ratio: ${time_ratio}x (goal <= 1.5x)"
echo "export completed -> Create returned, 5 lone exports:"
echo "  median $(echo "$sorted" | sed -n 3p) ms, max $(echo "$sorted" | tail -1) ms (goal <= 1000 ms); all: $(echo $sorted)"

# 4. 50 rollouts with job_id, one release each, on the test API server
# (etcd and kube-apiserver on loopback, no kubelet: atomic = false).
kubelocal="$WORK/kubelocal"
(cd "$ROOT" && go build -o "$kubelocal" ./internal/kubetest/kubelocal)
: >"$WORK/kube.out"
"$kubelocal" -kubeconfig-out "$WORK/kubeconfig" -namespace docs >"$WORK/kube.out" 2>"$WORK/kube.log" &
KUBE_PID=$!
trap 'kill "$KUBE_PID" "$APISERVER_PID" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT
kube_ready=""
for _ in $(seq 1 300); do
  grep -q '^ready' "$WORK/kube.out" && { kube_ready=1; break; }
  kill -0 "$KUBE_PID" 2>/dev/null || break
  sleep 0.1 # a process coming up: nothing to wait on but its output
done
if [[ -z "$kube_ready" ]]; then
  echo "50 rollouts: skipped, the test Kubernetes API server did not start (make kube builds it); see $WORK/kube.log"
  exit 0
fi
mkdir -p "$WORK/rollouts"
write_required_providers "$WORK/rollouts"
cat >"$WORK/rollouts/main.tf" <<TF
resource "docsadmin_static_export" "site" {
  domain = "docs.demo.test"
}

resource "docsadmin_static_export_rollout" "r" {
  count           = 50
  release         = "docs-\${count.index}"
  namespace       = "docs"
  kubeconfig_path = "$WORK/kubeconfig"
  chart           = "$ROOT/examples/self-hosted-chart"
  install         = true
  atomic          = false
  job_id          = docsadmin_static_export.site.id
}
TF
echo "setting up: 50 releases through 50 rollouts with job_id"
(cd "$WORK/rollouts" && terraform apply -auto-approve -input=false >/dev/null)
median_plan_ms "$WORK/rollouts" >/dev/null # warm
read -r rollouts_ms time2_ms < <(alternate_ms "$WORK/rollouts" "$WORK/time")
echo "plan with refresh, 50 docsadmin_static_export_rollout with job_id (one release each), $RUNS alternated pairs:"
echo "  50 rollouts (+1 export): ${rollouts_ms} ms"
echo "  50 time_static (+1 time_rotating): ${time2_ms} ms"
echo "  ratio: $(awk -v a="$rollouts_ms" -v b="$time2_ms" 'BEGIN { printf "%.2f", a / b }')x (reported, no goal yet)"
