# Sourced by the other scripts. Builds (or reuses) the provider binary and
# writes a Terraform CLI configuration whose dev_overrides point at it, so
# terraform plan/apply/validate/providers schema work with no registry and
# no `terraform init`.
#
# In:  PROVIDER_BIN  optional path of an already built binary (make build)
# Out: PROVIDER_BIN, TF_CLI_CONFIG_FILE (exported), WORK (a temp dir that
#      is removed on exit)

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CHECKPOINT_DISABLE=1
# The CLI to run. The docs and examples need Terraform 1.14 (actions, list
# resources, import by identity); the Makefile passes the one that
# tools/tfcli/build.sh builds.
TERRAFORM="${TERRAFORM:-terraform}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/docsadmin.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

if [[ -z "${PROVIDER_BIN:-}" ]]; then
  PROVIDER_BIN="$WORK/bin/terraform-provider-docsadmin"
  echo "building the provider..." >&2
  (cd "$ROOT" && go build -o "$PROVIDER_BIN" .)
fi
PROVIDER_BIN="$(cd "$(dirname "$PROVIDER_BIN")" && pwd)/$(basename "$PROVIDER_BIN")"
[[ -x "$PROVIDER_BIN" ]] || { echo "no provider binary at $PROVIDER_BIN" >&2; exit 1; }

# Both CLIs' hosts: "docsadmin/docsadmin" means registry.terraform.io to
# Terraform and registry.opentofu.org to OpenTofu, and an override or mirror
# under the other host is not used (OpenTofu then reports "not found in any
# of the search locations", or an inconsistent lock file). TERRAFORM may be
# either CLI.
export TF_CLI_CONFIG_FILE="$WORK/terraformrc"
cat >"$TF_CLI_CONFIG_FILE" <<CFG
provider_installation {
  dev_overrides {
    "registry.terraform.io/docsadmin/docsadmin" = "$(dirname "$PROVIDER_BIN")"
    "registry.opentofu.org/docsadmin/docsadmin" = "$(dirname "$PROVIDER_BIN")"
  }
  # Nothing else may be installed: every run here is offline.
  filesystem_mirror {
    path    = "$WORK/no-mirror"
    include = []
  }
}
CFG

# add_dev_override ADDRESS DIR: serve one more provider (such as a baseline
# built from the module proxy) from DIR through dev_overrides.
add_dev_override() {
  sed -i "/dev_overrides {/a\\    \"$1\" = \"$2\"" "$TF_CLI_CONFIG_FILE"
}

# use_filesystem_mirror: switch TF_CLI_CONFIG_FILE from dev_overrides to
# a filesystem_mirror holding the binary, so that `terraform init` (lock
# file and all) works offline as it would from a private mirror. It is
# published as 0.0.1: a prerelease version would need an exact constraint.
use_filesystem_mirror() {
  local platform dir host
  platform="$(go env GOOS)_$(go env GOARCH)"
  for host in registry.terraform.io registry.opentofu.org; do
    dir="$WORK/mirror/$host/docsadmin/docsadmin/0.0.1/$platform"
    mkdir -p "$dir"
    cp "$PROVIDER_BIN" "$dir/terraform-provider-docsadmin_v0.0.1"
  done
  cat >"$TF_CLI_CONFIG_FILE" <<CFG
provider_installation {
  filesystem_mirror {
    path    = "$WORK/mirror"
    include = ["registry.terraform.io/docsadmin/docsadmin", "registry.opentofu.org/docsadmin/docsadmin"]
  }
}
CFG
}

# required_providers for example directories, which leave it out.
write_required_providers() {
  cat >"$1/zz_required_providers.tf" <<'TF'
terraform {
  required_providers {
    docsadmin = {
      source = "docsadmin/docsadmin"
    }
  }
}
TF
}

# start_apiserver DATA_DIR: runs the reference server (embedded demo) on
# a free loopback port until the calling script exits, and sets
# APISERVER_URL and APISERVER_KEY. Logs go to DATA_DIR.{out,log}.
start_apiserver() {
  local data="$1"
  mkdir -p "$(dirname "$data")"
  # Create the files first: the background child opens them only later.
  : >"$data.out"
  : >"$data.log"
  "$PROVIDER_BIN" apiserver --addr 127.0.0.1:0 --data-dir "$data" >"$data.out" 2>"$data.log" &
  APISERVER_PID=$!
  trap 'kill "$APISERVER_PID" 2>/dev/null || true; wait "$APISERVER_PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT
  APISERVER_URL=""
  local i
  for i in $(seq 1 100); do
    APISERVER_URL="$(sed -n 's/^listening on //p' "$data.out")"
    [[ -n "$APISERVER_URL" ]] && curl -fsS "$APISERVER_URL/readyz" >/dev/null 2>&1 && break
    kill -0 "$APISERVER_PID" 2>/dev/null || { cat "$data.log" >&2; return 1; }
    sleep 0.1 # a child process coming up: there is nothing to wait on but the port
  done
  [[ -n "$APISERVER_URL" ]] || { echo "the server did not come up; see $data.log" >&2; return 1; }
  APISERVER_KEY="$(cat "$data/admin-key")"
}
