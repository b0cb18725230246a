#!/usr/bin/env bash
# Renders docs/ with tfplugindocs from templates/, examples/ and the
# provider's schema, entirely offline: the schema comes from
# `terraform providers schema -json` run through dev_overrides, so neither
# tfplugindocs nor terraform downloads anything.
#
#   scripts/docs.sh generate   terraform fmt the examples, rewrite docs/
#   scripts/docs.sh check      fail when docs/ differs from a fresh render
set -euo pipefail
mode="${1:-generate}"
source "$(dirname "$0")/devprovider.sh"

TFPLUGINDOCS="$WORK/bin/tfplugindocs"
(cd "$ROOT/tools" && go build -o "$TFPLUGINDOCS" github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs)

mkdir -p "$WORK/schema"
write_required_providers "$WORK/schema"
# tfplugindocs looks the schema up by the provider's short name (or under
# hashicorp/), so rename the key of our full source address.
(cd "$WORK/schema" && "$TERRAFORM" providers schema -json) |
  sed 's#"registry.terraform.io/docsadmin/docsadmin"#"docsadmin"#' >"$WORK/schema.json"

# The examples are embedded in the docs: generate formats them first.
if [[ "$mode" == generate ]]; then
  (cd "$ROOT/examples" && "$TERRAFORM" fmt -recursive provider resources data-sources ephemeral-resources actions list-resources quickstart)
fi

# tfplugindocs renders into <provider-dir>/docs; give it a copy of the
# inputs so that `check` never touches the working tree.
src="$WORK/src"
mkdir -p "$src/examples"
cp -R "$ROOT/templates" "$src/templates"
for d in provider resources data-sources ephemeral-resources actions list-resources quickstart; do
  [[ -d "$ROOT/examples/$d" ]] && cp -R "$ROOT/examples/$d" "$src/examples/$d"
done
"$TFPLUGINDOCS" generate --provider-dir "$src" --provider-name docsadmin \
  --providers-schema "$WORK/schema.json" >"$WORK/tfplugindocs.log" 2>&1 ||
  { cat "$WORK/tfplugindocs.log" >&2; exit 1; }

case "$mode" in
generate)
  rm -rf "$ROOT/docs"
  cp -R "$src/docs" "$ROOT/docs"
  echo "docs/ regenerated"
  ;;
check)
  if ! diff -ru "$ROOT/docs" "$src/docs"; then
    echo "docs/ is stale: run 'make generate' and commit the result" >&2
    exit 1
  fi
  # Front matter, file names and layout as the Registry expects them.
  "$TFPLUGINDOCS" validate --provider-dir "$ROOT" --provider-name docsadmin \
    --providers-schema "$WORK/schema.json" >"$WORK/validate.log" 2>&1 ||
    { cat "$WORK/validate.log" >&2; exit 1; }
  echo "docs/ is up to date and valid"
  ;;
*)
  echo "usage: $0 generate|check" >&2
  exit 2
  ;;
esac
