#!/usr/bin/env bash
# stdiobuf-overhead.sh measures what `stdiobuf build` adds to `go build`
# once the overlay is in the cache: the wall time of building the held-in
# program (cmd/stdiobuf/testdata/heldin, only `import "bufio"`) with
# `go build -overlay=FILE` and with `stdiobuf build`, both with a warm build
# cache, interleaved, and of `stdiobuf overlay` alone (go env, hashing the
# embedded source and the toolchain's bufio files, one stat) and of
# `stdiobuf overlay -stdout` (which also hashes package os's files, and
# those of every package internal/osstdout patches). Prints the median of
# each over RUNS runs.
#
#   bench/stdiobuf-overhead.sh [RUNS]     (default 11)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-11}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/stdiobuf" ./cmd/stdiobuf
overlay=$("$tmp/stdiobuf" overlay) # generated here if it was not cached
"$tmp/stdiobuf" overlay -stdout >/dev/null
pkg=./cmd/stdiobuf/testdata/heldin
go build -overlay="$overlay" -o "$tmp/out" "$pkg" # warm the build cache

ms() { # runs "$@" and prints its wall time in milliseconds
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

: >"$tmp/go" >"$tmp/shim" >"$tmp/ov" >"$tmp/ovs"
for _ in $(seq "$runs"); do
	ms go build -overlay="$overlay" -o "$tmp/out" "$pkg" >>"$tmp/go"
	ms "$tmp/stdiobuf" build -o "$tmp/out" "$pkg" >>"$tmp/shim"
	ms "$tmp/stdiobuf" overlay >>"$tmp/ov"
	ms "$tmp/stdiobuf" overlay -stdout >>"$tmp/ovs"
done
g=$(median <"$tmp/go") s=$(median <"$tmp/shim") o=$(median <"$tmp/ov") os=$(median <"$tmp/ovs")
echo "$(date -u +%FT%TZ) $("$tmp/stdiobuf" version | head -1); $runs runs; load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "go build -overlay (warm):   $g ms"
echo "stdiobuf build (warm):      $s ms (+$((s - g)) ms)"
echo "stdiobuf overlay (cached):  $o ms"
echo "stdiobuf overlay -stdout (cached): $os ms"
