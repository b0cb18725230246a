#!/usr/bin/env bash
# build.sh compiles kube-apiserver and etcd from Go modules (there is no
# Docker on the CI machines, so kind or envtest images are not an option) and
# prints the directory holding them. The output directory is keyed by the
# pinned versions, so a second run is a no-op and a version bump in
# tools/kube/build/go.mod builds into a fresh directory.
#
#   tools/kube/build.sh            # prints e.g. ~/.cache/docsadmin-kube/v1.34.4-etcd3.6.4/bin
#   DOCSADMIN_KUBE_BIN=$(tools/kube/build.sh) go test ./internal/rollout/
#
# A cold build took 8 minutes on two shared cores (10-15 expected when busy);
# with a warm Go build cache a rebuild after deleting the binaries takes 15 s.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mod="$here/build"

# Read the versions from go.mod instead of repeating them here, so the cache
# key cannot drift from what is actually compiled.
kube_version=$(awk '$1 == "k8s.io/kubernetes" && $2 ~ /^v/ { print $2; exit }' "$mod/go.mod")
etcd_version=$(awk '$1 == "go.etcd.io/etcd/server/v3" && $2 ~ /^v/ { print $2; exit }' "$mod/go.mod")
if [[ -z "$kube_version" || -z "$etcd_version" ]]; then
	echo "build.sh: cannot read the kubernetes and etcd versions from $mod/go.mod" >&2
	exit 1
fi

cache=${DOCSADMIN_KUBE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/docsadmin-kube}
bin="$cache/${kube_version}-etcd${etcd_version#v}/bin"

have() { [[ -x "$bin/kube-apiserver" && -x "$bin/etcd" ]]; }

if have; then
	echo "$bin"
	exit 0
fi

mkdir -p "$cache"
# Two `make test` runs in the same account must not build into the same
# directory at once; the second waits and then finds the binaries.
exec 9>"$cache/.build.lock"
flock 9
if have; then
	echo "$bin"
	exit 0
fi

# kube-apiserver and kubectl report the version from these variables; left at
# their defaults (v0.0.0-master) Helm's kubeVersion checks and Capabilities
# see a bogus cluster version.
major=${kube_version#v}
major=${major%%.*}
minor=${kube_version#v*.}
minor=${minor%%.*}
ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
	ldflags+=" -X $pkg.gitVersion=$kube_version -X $pkg.gitMajor=$major -X $pkg.gitMinor=$minor"
	ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
done

# Build into a scratch directory and move the finished binaries into place,
# so an interrupted build never leaves a half-written binary that have()
# would accept. CGO is off so that no C toolchain is needed.
tmp=$(mktemp -d "$cache/.build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS
echo "build.sh: building kube-apiserver $kube_version and etcd $etcd_version into $bin (8-15 min cold on two cores)" >&2
(
	cd "$mod"
	export CGO_ENABLED=0
	go build -buildvcs=false -trimpath -ldflags "$ldflags" -o "$tmp/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver
	go build -buildvcs=false -trimpath -ldflags "-s -w" -o "$tmp/etcd" go.etcd.io/etcd/server/v3
)
mkdir -p "$bin"
mv "$tmp/etcd" "$tmp/kube-apiserver" "$bin/"
echo "build.sh: built in $((SECONDS - start))s" >&2
echo "$bin"
