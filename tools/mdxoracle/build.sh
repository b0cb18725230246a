#!/usr/bin/env bash
# build.sh installs the reference MDX compiler (@mdx-js/mdx and remark-gfm,
# pinned by package-lock.json) from npm into a cache outside the repo, and
# prints the path of the oracle script beside it. The differential test of
# internal/export/mdx (oracle_test.go) runs that script with node. The
# install is keyed by the lock file's hash, so a second run is a no-op and
# a bump installs afresh.
#
#   tools/mdxoracle/build.sh    # prints e.g. ~/.cache/docsadmin-mdxoracle/3f2a…/oracle.mjs
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
for tool in node npm; do
	command -v "$tool" >/dev/null || { echo "build.sh: $tool is not installed (make mdx-oracle installs Debian's)" >&2; exit 1; }
done

key=$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -c1-16)
cache=${DOCSADMIN_MDXORACLE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/docsadmin-mdxoracle}
dir="$cache/$key"
mkdir -p "$cache"
exec 9>"$cache/.build.lock"
flock 9

if [[ ! -e "$dir/.done" ]]; then
	# Install into a scratch directory and move it into place, so an
	# interrupted install never leaves a tree the check above accepts.
	tmp=$(mktemp -d "$cache/.build.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	cp "$here/package.json" "$here/package-lock.json" "$tmp/"
	# --ignore-scripts: nothing of the packages runs at install time.
	(cd "$tmp" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
	touch "$tmp/.done"
	rm -rf "$dir"
	mv "$tmp" "$dir"
	trap - EXIT
fi
# The scripts (oracle.mjs for MDX, tailwind.mjs for Tailwind CSS) live in
# the repo and change more often than the packages: they are copied beside
# node_modules (ESM resolves packages from the
# script's own folder) whenever it differs.
for script in "$here"/*.mjs; do
	name=$(basename "$script")
	if ! cmp -s "$script" "$dir/$name"; then
		cp "$script" "$dir/$name.tmp"
		mv -f "$dir/$name.tmp" "$dir/$name"
	fi
done
echo "$dir/oracle.mjs"
