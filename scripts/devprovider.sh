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
WORK="$(mktemp -d "${TMPDIR:-/tmp}/docsadmin.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

if [[ -z "${PROVIDER_BIN:-}" ]]; then
  PROVIDER_BIN="$WORK/bin/terraform-provider-docsadmin"
  echo "building the provider..." >&2
  (cd "$ROOT" && go build -o "$PROVIDER_BIN" .)
fi
PROVIDER_BIN="$(cd "$(dirname "$PROVIDER_BIN")" && pwd)/$(basename "$PROVIDER_BIN")"
[[ -x "$PROVIDER_BIN" ]] || { echo "no provider binary at $PROVIDER_BIN" >&2; exit 1; }

export TF_CLI_CONFIG_FILE="$WORK/terraformrc"
cat >"$TF_CLI_CONFIG_FILE" <<CFG
provider_installation {
  dev_overrides {
    "registry.terraform.io/docsadmin/docsadmin" = "$(dirname "$PROVIDER_BIN")"
  }
  # Nothing else may be installed: every run here is offline.
  filesystem_mirror {
    path    = "$WORK/no-mirror"
    include = []
  }
}
CFG

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
