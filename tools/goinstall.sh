# Sourced by the tools' build.sh scripts (tools/minio, tools/goreleaser):
# one way to compile a pinned Go program from the Go module proxy into a
# cache outside the repo.
#
# cached_go_install CACHE VERSION BIN PACKAGE@VERSION [LDFLAGS]
#   prints CACHE/VERSION/BIN, building it first unless it is there. The
#   build is `go install` against the program's own go.mod and go.sum (never
#   required from ours), CGO off, trimmed paths, stripped. It runs in a
#   scratch directory and the finished binary is moved into place, so an
#   interrupted build never leaves a half-written file that the check
#   accepts; a lock makes two runs at once build once (the second waits and
#   then finds the binary). GOFLAGS from the caller (say -mod=vendor) must
#   not reach the program's module.
cached_go_install() {
	local cache=$1 version=$2 name=$3 pkg=$4 ldflags="-s -w ${5:-}"
	local dir="$cache/$version" bin="$cache/$version/$3"
	if [[ -s "$bin" ]]; then
		echo "$bin"
		return 0
	fi
	mkdir -p "$cache"
	exec 9>"$cache/.build.lock"
	flock 9
	if [[ -s "$bin" ]]; then
		echo "$bin"
		return 0
	fi
	local tmp start=$SECONDS
	tmp=$(mktemp -d "$cache/.build.XXXXXX")
	# shellcheck disable=SC2064 # expand now: tmp is local
	trap "rm -rf '$tmp'" EXIT
	(cd "$tmp" && CGO_ENABLED=0 GOFLAGS= GOBIN="$tmp/bin" go install -trimpath -ldflags "$ldflags" "$pkg")
	mkdir -p "$dir"
	mv "$tmp/bin/$name" "$bin"
	echo "build.sh: $name built in $((SECONDS - start))s" >&2
	echo "$bin"
}
