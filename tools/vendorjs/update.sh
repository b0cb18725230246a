#!/usr/bin/env bash
# update.sh installs the pinned browser libraries (package-lock.json holds
# each package's integrity hash, which npm checks) and copies the files a
# bundle ships into internal/export/thirdparty, with each package's
# licence and a SHA256SUMS that TestFiles_unchanged checks. Run it after
# changing a version in package.json (and `npm install --package-lock-only
# --ignore-scripts` here); nothing else writes those files.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dest=$(cd "$here/../.." && pwd)/internal/export/thirdparty
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$here/package.json" "$here/package-lock.json" "$tmp/"
(cd "$tmp" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
nm=$tmp/node_modules

rm -rf "$dest/katex" "$dest/mermaid"
mkdir -p "$dest/katex/fonts" "$dest/mermaid"
# KaTeX: the renderer, which the export runs; its stylesheet and the
# WOFF2 fonts, which every browser that runs the bundle's scripts reads
# (export/math.go drops the older formats from the stylesheet).
cp "$nm/katex/dist/katex.min.js" "$nm/katex/dist/katex.min.css" "$nm/katex/LICENSE" "$dest/katex/"
cp "$nm"/katex/dist/fonts/*.woff2 "$dest/katex/fonts/"
# Mermaid: one script that draws the diagrams in the reader's browser.
cp "$nm/mermaid/dist/mermaid.min.js" "$nm/mermaid/LICENSE" "$dest/mermaid/"
for p in katex mermaid; do
	node -e 'const p = require(process.argv[1]); console.log(p.name + " " + p.version + " " + p.license)' "$nm/$p/package.json" >"$dest/$p/VERSION"
done
(cd "$dest" && find katex mermaid -type f | LC_ALL=C sort | xargs sha256sum >SHA256SUMS)
echo "update.sh: wrote $(du -sh "$dest" | cut -f1) into $dest" >&2
