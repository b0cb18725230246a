#!/usr/bin/env bash
# build.sh compiles the MinIO server that internal/s3test starts for the
# object-storage tier, from the Go module proxy (no Docker, no release
# downloads on the CI machines), and prints its path. MinIO is a test
# dependency only: it runs as a separate process and is never linked into
# this module, so it is built with `go install module@version` against its
# own go.mod and go.sum, not required from ours. The output is keyed by the
# pinned version, so a second run is a no-op and a bump builds afresh.
#
#   tools/minio/build.sh           # prints e.g. ~/.cache/docsadmin-minio/v0.0.0-2026…/minio
#   DOCSADMIN_MINIO_BIN=$(tools/minio/build.sh) go test ./internal/objstore/
#
# Timings on two shared cores are in tools/minio/README.md.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The pin lives in VERSION, which internal/s3test reads too, so the cache
# key cannot drift between the two. The proxy cannot resolve MinIO's
# RELEASE.* tags (they are not semantic versions), so it is the
# pseudo-version of a commit on MinIO's master.
version=$(tr -d '[:space:]' <"$here/VERSION")
if [[ ! "$version" =~ ^v[0-9]+\.[0-9]+\.[0-9]+ ]]; then
	echo "build.sh: $here/VERSION does not hold a module version: '$version'" >&2
	exit 1
fi

cache=${DOCSADMIN_MINIO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/docsadmin-minio}
if [[ ! -s "$cache/$version/minio" ]]; then
	echo "build.sh: building minio $version into $cache/$version; 5-30 min cold on two cores, depending on load" >&2
fi
# shellcheck source=../goinstall.sh
source "$here/../goinstall.sh"
cached_go_install "$cache" "$version" minio "github.com/minio/minio@$version"
