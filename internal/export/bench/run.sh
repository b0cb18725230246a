#!/usr/bin/env bash
# Benchmarks the static export against Hugo on a synthetic 2,000-page docs
# site and a 2,000-page Markdown corpus rich in code, tables, lists and
# quotes (air-gapped and cloud), and the real shape of a large site
# (4 languages x 30 versions, about 25,000 pages, exported once), and
# prints each figure with its goal. Called by `make bench`; extra
# arguments go to the harness (e.g. -runs 3, -cases rich,shape, -shape
# 1x2,4x30, -work DIR to keep the generated sites).
#
# Hugo is installed once into $(go env GOPATH)/bin through the Go module
# proxy; a matching binary already there is reused.
set -euo pipefail

HUGO_VERSION=v0.165.0
repo=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$repo"

gobin=$(go env GOPATH)/bin
hugo="$gobin/hugo"
if ! "$hugo" version 2>/dev/null | grep -q "hugo v${HUGO_VERSION#v}"; then
	echo "bench: installing hugo $HUGO_VERSION into $gobin (one time, several minutes)" >&2
	GOBIN="$gobin" go install "github.com/gohugoio/hugo@$HUGO_VERSION"
fi

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/export-bench" ./internal/export/bench
go build -o "$bin/docsadmin" .
"$bin/export-bench" -hugo "$hugo" -server "$bin/docsadmin" "$@"
