#!/usr/bin/env bash
# build.sh compiles the pinned goreleaser that `make release-snapshot` runs,
# from the Go module proxy (no release downloads on the CI machines), and
# prints its path. goreleaser is a build tool only: it is installed with
# `go install module@version` against its own go.mod and go.sum, never
# required from ours. The output is keyed by the pinned version, so a second
# run is a no-op and a bump builds afresh.
#
#   tools/goreleaser/build.sh      # prints e.g. ~/.cache/docsadmin-goreleaser/v2.15.1/goreleaser
#
# Timings on two shared cores are in tools/goreleaser/README.md.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
version=$(tr -d '[:space:]' <"$here/VERSION")
if [[ ! "$version" =~ ^v2\.[0-9]+\.[0-9]+$ ]]; then
	echo "build.sh: $here/VERSION does not hold a goreleaser v2 version: '$version'" >&2
	exit 1
fi

cache=${DOCSADMIN_GORELEASER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/docsadmin-goreleaser}
if [[ ! -s "$cache/$version/goreleaser" ]]; then
	echo "build.sh: building goreleaser $version into $cache/$version; 10-40 min cold on two cores, depending on load" >&2
fi
# shellcheck source=../goinstall.sh
source "$here/../goinstall.sh"
cached_go_install "$cache" "$version" goreleaser "github.com/goreleaser/goreleaser/v2@$version" "-X main.version=$version"
