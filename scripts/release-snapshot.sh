#!/usr/bin/env bash
# release-snapshot.sh OUT_DIR: builds the release packages of the committed
# HEAD with the pinned goreleaser, in snapshot mode, signed by a throwaway
# key, and copies them into OUT_DIR:
#
#   terraform-provider-docsadmin_<version>_<os>_<arch>.zip   one per platform
#   terraform-provider-docsadmin_<version>_<os>_<arch>.cdx.json  each binary's SBOM (CycloneDX)
#   terraform-provider-docsadmin_<version>_SHA256SUMS        and .sig (detached, binary)
#   terraform-provider-docsadmin_<version>_manifest.json     the registry manifest
#   signing-key.asc                                          the throwaway public key
#
# The build runs in a clone of HEAD, never in the working tree: a release is
# what is committed, goreleaser's dist/ never lands in anyone's checkout,
# and two runs at once do not share a directory. Everything in the packages
# is a function of the commit (.goreleaser.yml), so two runs give the same
# zips and SHA256SUMS; the signature differs, since every run makes a key.
#
# In:  GORELEASER (default: tools/goreleaser/build.sh builds or finds it)
#      CYCLONEDX_GOMOD (default: tools/cyclonedx/build.sh builds or finds it)
#      DOCSADMIN_RELEASE_HOST_ONLY=1 builds linux on this machine's architecture only
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ $# -ne 1 ]]; then
	echo "usage: $0 OUT_DIR" >&2
	exit 2
fi
OUT="$1"
GORELEASER="${GORELEASER:-$("$ROOT/tools/goreleaser/build.sh")}"
CYCLONEDX_GOMOD="${CYCLONEDX_GOMOD:-$("$ROOT/tools/cyclonedx/build.sh")}"
command -v gpg >/dev/null || { echo "release-snapshot.sh: gpg is needed to sign SHA256SUMS (Debian: gnupg)" >&2; exit 1; }

WORK="$(mktemp -d "${TMPDIR:-/tmp}/docsadmin-release.XXXXXX")"
export GNUPGHOME="$WORK/gnupg"
cleanup() {
	# gpg starts an agent for the throwaway home; it must not outlive us.
	gpgconf --kill gpg-agent 2>/dev/null || true
	rm -rf "$WORK"
}
trap cleanup EXIT

commit="$(git -C "$ROOT" rev-parse HEAD)"
git clone --quiet --shared --no-checkout "$ROOT" "$WORK/src"
git -C "$WORK/src" checkout --quiet --detach "$commit"

# The throwaway signing key: no passphrase, valid for a day, never kept.
mkdir -m 700 "$GNUPGHOME"
gpg --batch --quiet --pinentry-mode loopback --passphrase '' \
	--quick-gen-key "docsadmin release snapshot (throwaway) <snapshot@docsadmin.invalid>" rsa3072 sign 1d
GPG_FINGERPRINT="$(gpg --batch --list-keys --with-colons | awk -F: '$1 == "fpr" { print $10; exit }')"
export GPG_FINGERPRINT

# goreleaser runs the SBOM tool by its name (.goreleaser.yml, sboms).
mkdir "$WORK/bin"
ln -s "$CYCLONEDX_GOMOD" "$WORK/bin/cyclonedx-gomod"
(cd "$WORK/src" && PATH="$WORK/bin:$PATH" GOFLAGS= "$GORELEASER" release --snapshot --clean >&2)

mkdir -p "$OUT"
dist="$WORK/src/dist"
cp "$dist"/*.zip "$dist"/*.cdx.json "$dist"/*_SHA256SUMS "$dist"/*_SHA256SUMS.sig "$OUT"/
# SHA256SUMS lists the manifest (checksum.extra_files) under the release's
# name for it, but goreleaser only uploads it, with a real release; a
# snapshot copies it here under that name.
sums="$(basename "$dist"/*_SHA256SUMS)"
cp "$WORK/src/terraform-registry-manifest.json" "$OUT/${sums%_SHA256SUMS}_manifest.json"
gpg --batch --armor --export "$GPG_FINGERPRINT" >"$OUT/signing-key.asc"
echo "release-snapshot.sh: $(git -C "$ROOT" rev-parse --short HEAD) -> $OUT" >&2
ls -l "$OUT" >&2
