#!/usr/bin/env bash
# build.sh compiles the test cluster from Go modules (there is no Docker on
# the CI machines, so kind or envtest images are not an option) and prints
# the directory holding it: etcd, kube-apiserver, kube-controller-manager,
# kube-scheduler, kwok (which plays the nodes) and kwok-stages.yaml (the
# stages kwok runs, taken from its module). The output directory is keyed by
# the pinned versions, so a second run is a no-op and a version bump in
# tools/kube/build/go.mod or tools/kube/kwok/go.mod builds into a fresh
# directory.
#
#   tools/kube/build.sh            # prints e.g. ~/.cache/docsadmin-kube/v1.34.4-etcd3.6.4-kwok0.8.0/bin
#   DOCSADMIN_KUBE_BIN=$(tools/kube/build.sh) go test ./internal/rollout/
#
# Timings on two shared cores are in tools/kube/README.md.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mod="$here/build"
kwok_mod="$here/kwok"

# Read the versions from the go.mod files instead of repeating them here, so
# the cache key cannot drift from what is actually compiled.
require() { awk -v m="$1" '$1 == m && $2 ~ /^v/ { print $2; exit }' "$2"; }
kube_version=$(require k8s.io/kubernetes "$mod/go.mod")
etcd_version=$(require go.etcd.io/etcd/server/v3 "$mod/go.mod")
kwok_version=$(require sigs.k8s.io/kwok "$kwok_mod/go.mod")
if [[ -z "$kube_version" || -z "$etcd_version" || -z "$kwok_version" ]]; then
	echo "build.sh: cannot read the kubernetes, etcd and kwok versions from $mod/go.mod and $kwok_mod/go.mod" >&2
	exit 1
fi

cache=${DOCSADMIN_KUBE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/docsadmin-kube}
bin="$cache/${kube_version}-etcd${etcd_version#v}-kwok${kwok_version#v}/bin"

# Everything kubetest starts; each is moved into place only once complete.
outputs=(etcd kube-apiserver kube-controller-manager kube-scheduler kwok kwok-stages.yaml)
missing() {
	local f
	for f in "${outputs[@]}"; do
		[[ -s "$bin/$f" ]] || echo "$f"
	done
}

if [[ -z "$(missing)" ]]; then
	echo "$bin"
	exit 0
fi

mkdir -p "$cache"
# Two `make test` runs in the same account must not build into the same
# directory at once; the second waits and then finds the binaries.
exec 9>"$cache/.build.lock"
flock 9
todo=$(missing)
if [[ -z "$todo" ]]; then
	echo "$bin"
	exit 0
fi

# The Kubernetes programs report the version from these variables; left at
# their defaults (v0.0.0-master) Helm's kubeVersion checks and Capabilities
# see a bogus cluster version.
major=${kube_version#v}
major=${major%%.*}
minor=${kube_version#v*.}
minor=${minor%%.*}
kube_ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
	kube_ldflags+=" -X $pkg.gitVersion=$kube_version -X $pkg.gitMajor=$major -X $pkg.gitMinor=$minor"
	kube_ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
done

# Build into a scratch directory and move each finished file into place, so
# an interrupted build never leaves a half-written binary that missing()
# would accept, and a rerun builds only what is still missing. CGO is off so
# that no C toolchain is needed.
tmp=$(mktemp -d "$cache/.build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$bin"
export CGO_ENABLED=0
build() { # module dir, ldflags, output name, package
	local began=$SECONDS
	(cd "$1" && go build -buildvcs=false -trimpath -ldflags "$2" -o "$tmp/$3" "$4")
	mv "$tmp/$3" "$bin/$3"
	echo "build.sh: $3 built in $((SECONDS - began))s" >&2
}

start=$SECONDS
echo "build.sh: building $(echo $todo) (kubernetes $kube_version, etcd $etcd_version, kwok $kwok_version) into $bin; 15-30 min cold on two cores" >&2
for out in $todo; do
	case $out in
	etcd) build "$mod" "-s -w" etcd go.etcd.io/etcd/server/v3 ;;
	kube-*) build "$mod" "$kube_ldflags" "$out" "k8s.io/kubernetes/cmd/$out" ;;
	kwok) build "$kwok_mod" "-s -w" kwok sigs.k8s.io/kwok/cmd/kwok ;;
	kwok-stages.yaml)
		# kwok ships its stages as kustomize files in its module. These make
		# a node Ready at once and keep its lease fresh (without the
		# heartbeat the node-lifecycle controller marks it NotReady and its
		# pods unready after about 40 s), and run pods to Ready at once.
		stages=$(cd "$kwok_mod" && go mod download sigs.k8s.io/kwok && go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)/kustomize/stage
		sep=""
		for f in "$stages"/node/fast/node-initialize.yaml \
			"$stages"/node/heartbeat-with-lease/node-heartbeat-with-lease.yaml \
			"$stages"/pod/fast/pod-*.yaml; do
			printf '%s# %s\n' "$sep" "${f#"$stages"/}"
			sed -e '$a\' "$f" # a missing final newline would glue on the next ---
			sep=$'---\n'
		done >"$tmp/$out"
		mv "$tmp/$out" "$bin/$out"
		;;
	esac
done
echo "build.sh: built in $((SECONDS - start))s" >&2
echo "$bin"
