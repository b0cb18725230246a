#!/usr/bin/env bash
# Prints the directory the tests keep their temporary files in (the Makefile
# exports it as TMPDIR for the test targets): a directory on the RAM disk
# /dev/shm when the machine has one with room to spare, else $TMPDIR or
# /tmp. DOCSADMIN_TEST_TMPDIR overrides both.
#
# Why: the suites write and remove tens of thousands of files (rendered
# sites, clusters' and databases' data), and on the ext4 of this project's
# CI machines, which has no journal, a new file costs up to a millisecond
# of kernel time while many were removed in the last half minute (the
# allocator skips recently freed inodes one by one). On tmpfs it costs
# about 20 µs. Production paths are measured on the disk, by `make bench`.
set -euo pipefail

if [[ -n "${DOCSADMIN_TEST_TMPDIR:-}" ]]; then
	mkdir -p "$DOCSADMIN_TEST_TMPDIR"
	echo "$DOCSADMIN_TEST_TMPDIR"
	exit 0
fi
shm=/dev/shm
need_kib=$((4 * 1024 * 1024)) # the largest suites hold well under 1 GiB at once
if [[ -d $shm && -w $shm && "$(stat -f -c %T "$shm" 2>/dev/null)" == tmpfs ]] &&
	(($(df -Pk "$shm" | awk 'NR == 2 { print $4 }') >= need_kib)); then
	dir=$shm/docsadmin-test-$(id -u)
	# 0755, not 0700: the throwaway PostgreSQL runs as an unprivileged user
	# and must reach its cluster directory below this one (internal/pgtest).
	mkdir -p "$dir" && chmod 0755 "$dir"
	echo "$dir"
	exit 0
fi
echo "${TMPDIR:-/tmp}"
