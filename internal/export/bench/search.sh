#!/usr/bin/env bash
# The offline search of exported sites as a reader gets it (issue 45), in
# Chromium from file://: on the 2,000-page synthetic site of this
# directory's harness and on two fixtures, how often a page's title, its
# title with one letter changed, its first heading and its rarest body
# word find it, and the time from a keystroke to the first result shown
# (median and p95), each with its goal, met or not. Called by `make bench`
# (which installs Chromium first); self-contained, apart from run.sh.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$repo"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The 2,000-page site, exported once (its export figures go to the log).
go run ./internal/export/bench -scale 2000 -work "$work" >"$work/export.log"
SEARCH_FIGURES=1 SEARCH_BUNDLE="$work/scale-2000/export" \
	go test -count=1 -timeout 30m -run '^TestSearchFigures$' -v ./internal/export/ |
	awk '/^search:|^--- FAIL|^FAIL|^panic|_test\.go:[0-9]+:/'
