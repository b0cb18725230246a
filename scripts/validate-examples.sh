#!/usr/bin/env bash
# terraform fmt -check and terraform validate on every example, offline:
# the provider comes from dev_overrides, so no `terraform init` and no
# registry. Examples written for the docs leave out required_providers;
# a copy of each gets it added before validation.
set -euo pipefail
source "$(dirname "$0")/devprovider.sh"

cd "$ROOT/examples"
dirs=(provider quickstart)
for d in resources/*/ data-sources/*/ ephemeral-resources/*/ actions/*/ list-resources/*/; do dirs+=("${d%/}"); done

"$TERRAFORM" fmt -check -recursive -diff provider resources data-sources ephemeral-resources actions list-resources quickstart

failed=0
for d in "${dirs[@]}"; do
  copy="$WORK/examples/$d"
  mkdir -p "$copy"
  cp "$d"/*.tf "$copy/" 2>/dev/null || true
  # A list resource's example is a query file; validate -query reads it.
  query=()
  if compgen -G "$d/*.tfquery.hcl" >/dev/null; then
    cp "$d"/*.tfquery.hcl "$copy/"
    query=(-query)
  fi
  grep -qs required_providers "$copy"/*.tf || write_required_providers "$copy"
  if out=$(cd "$copy" && "$TERRAFORM" validate -no-color "${query[@]}" 2>&1); then
    echo "ok    examples/$d"
  else
    echo "FAIL  examples/$d"
    echo "$out" | sed 's/^/      /'
    failed=1
  fi
  # Every resource example documents its import.
  if [[ "$d" == resources/* && ! -f "$d/import.sh" ]]; then
    echo "FAIL  examples/$d has no import.sh"
    failed=1
  fi
done
exit "$failed"
