#!/usr/bin/env bash
# build.sh compiles the pinned cyclonedx-gomod, which writes the release's
# SBOMs (goreleaser's sboms section, one per binary; the image carries its
# platform's), from the Go module proxy, and prints its path. It is a build
# tool only: installed with `go install module@version` against its own
# go.mod and go.sum, never required from ours, into a cache keyed by the
# pinned version (a second run is a no-op, a bump builds afresh).
#
#   tools/cyclonedx/build.sh      # prints e.g. ~/.cache/docsadmin-cyclonedx/v1.10.0/cyclonedx-gomod
#
# Why this tool and its cold cost: tools/cyclonedx/README.md.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
version=$(tr -d '[:space:]' <"$here/VERSION")
if [[ ! "$version" =~ ^v1\.[0-9]+\.[0-9]+$ ]]; then
	echo "build.sh: $here/VERSION does not hold a cyclonedx-gomod v1 version: '$version'" >&2
	exit 1
fi

cache=${DOCSADMIN_CYCLONEDX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/docsadmin-cyclonedx}
# shellcheck source=../goinstall.sh
source "$here/../goinstall.sh"
cached_go_install "$cache" "$version" cyclonedx-gomod "github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod@$version"
