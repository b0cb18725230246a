#!/usr/bin/env bash
# build.sh compiles a Terraform or OpenTofu CLI for the acceptance tests from
# the Go module proxy (the CI machines reach no release server) and prints
# its path. The CLIs are test tools only: each is built against its own
# go.mod in a scratch copy of its module, never linked into this module. The
# output is keyed by the pinned version (tools/tfcli/VERSIONS), so a second
# run is a no-op and a bump builds afresh.
#
#   tools/tfcli/build.sh terraform   # prints e.g. ~/.cache/docsadmin-tfcli/terraform-v1.14.9/terraform
#   tools/tfcli/build.sh tofu        # prints e.g. ~/.cache/docsadmin-tfcli/tofu-v1.11.6/tofu
#
# What it does to each module, and the timings: tools/tfcli/README.md.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tool=${1:-}
case $tool in
terraform) module=github.com/hashicorp/terraform pkg=. ;;
tofu) module=github.com/opentofu/opentofu pkg=./cmd/tofu ;;
*)
	echo "usage: build.sh terraform|tofu" >&2
	exit 2
	;;
esac
version=$(awk -v t="$tool" '$1 == t { print $2; exit }' "$here/VERSIONS")
if [[ ! "$version" =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
	echo "build.sh: $here/VERSIONS does not pin a release of $tool: '$version'" >&2
	exit 1
fi

cache=${DOCSADMIN_TFCLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/docsadmin-tfcli}
# The key carries a recipe number too: a change to what this script does to
# the module (the backends it drops) must not reuse a binary built the old way.
recipe=1
dir="$cache/$tool-$version-r$recipe"
bin="$dir/$tool"

if [[ -s "$bin" ]]; then
	echo "$bin"
	exit 0
fi

mkdir -p "$cache"
# Parallel runs in the same account build once; the second waits and then
# finds the binary.
exec 9>"$cache/.build-$tool.lock"
flock 9
if [[ -s "$bin" ]]; then
	echo "$bin"
	exit 0
fi

tmp=$(mktemp -d "$cache/.build.XXXXXX")
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
start=$SECONDS
echo "build.sh: building $tool $version into $dir; several minutes cold on two cores" >&2

# GOFLAGS from the caller (-mod=vendor, say) must not reach the CLI's module;
# -mod=mod lets go build record the go.sum lines the edits below change.
export CGO_ENABLED=0 GOFLAGS=-mod=mod
src=$(cd "$tmp" && GOFLAGS= go mod download -json "$module@$version" |
	awk -F'"' '$2 == "Dir" { print $4 }')
if [[ -z "$src" ]]; then
	echo "build.sh: go mod download $module@$version gave no source directory" >&2
	exit 1
fi
# The module cache is read-only; the build works on a writable copy.
cp -R "$src" "$tmp/src"
chmod -R u+w "$tmp/src"

if [[ $tool == terraform ]]; then
	# Terraform's go.mod replaces nine remote state backends (azurerm,
	# consul, cos, gcs, kubernetes, oci, oss, pg, s3) and internal/legacy
	# with nested modules under ./internal/..., and a module zip leaves
	# nested modules out, so those directories do not exist here. The tests
	# keep their state in the local backend, so the build drops those
	# backends: their replace and require lines go from go.mod, and their
	# import and registration lines from internal/backend/init/init.go,
	# which is the only non-test file importing them. internal/legacy is
	# imported by one test file only. Everything else (the local, remote,
	# cloud, http and inmem backends, every command) is built unchanged.
	dropped=(azure consul cos gcs kubernetes oci oss pg s3)
	edits=()
	for b in "${dropped[@]}"; do
		edits+=(-dropreplace "$module/internal/backend/remote-state/$b"
			-droprequire "$module/internal/backend/remote-state/$b")
	done
	edits+=(-dropreplace "$module/internal/legacy" -droprequire "$module/internal/legacy")
	(cd "$tmp/src" && go mod edit "${edits[@]}")
	init="$tmp/src/internal/backend/init/init.go"
	pattern=$(
		IFS='|'
		echo "remote-state/(${dropped[*]})\"|backend(Azure|Consul|Cos|GCS|Kubernetes|OSS|Pg|S3|OCI)\.New\("
	)
	before=$(wc -l <"$init")
	grep -Ev "$pattern" "$init" >"$init.new"
	mv "$init.new" "$init"
	# Nine imports and nine registrations; anything else means the file
	# changed shape upstream and the edit must be looked at again.
	if [[ $((before - $(wc -l <"$init"))) -ne 18 ]]; then
		echo "build.sh: expected to drop 18 lines from $init, dropped $((before - $(wc -l <"$init")))" >&2
		exit 1
	fi
fi

# dev=no makes `version` report the release (1.14.9), not 1.14.9-dev; the
# provider's tests gate features on that version.
(cd "$tmp/src" && go build -buildvcs=false -trimpath \
	-ldflags "-s -w -X $module/version.dev=no" -o "$tmp/$tool" "$pkg")
"$tmp/$tool" version >&2
mkdir -p "$dir"
mv "$tmp/$tool" "$bin"
echo "build.sh: $tool built in $((SECONDS - start))s" >&2
echo "$bin"
