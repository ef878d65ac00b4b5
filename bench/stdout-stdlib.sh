#!/usr/bin/env bash
# bench/stdout-stdlib.sh: the standard library's own tests of what
# `stdiobuf build -stdout` changes or leans on, under the -stdout overlay:
# os, fmt, log, os/exec, os/signal, syscall and testing whole, and
# runtime's tests of panics, crashes, Goexit, signals, exit and print
# (the runtime hooks). The overlay goes in GOFLAGS, so that the programs
# the tests build and run (runtime's testprog) get it too. .ci/run runs
# it with the go on PATH and with GOTOOLCHAIN=go1.25.5 and go1.27.3.
#
#   bench/stdout-stdlib.sh [go test flags]
#   STDIOBUF_GO=go1.27.3 bench/stdout-stdlib.sh -short   that release's tests
#
# STDIOBUF_GO (else GOTOOLCHAIN) picks the toolchain (a downloaded one is
# run through the GOROOT link stdiobuf makes for it). Prints the time
# taken; exit status 1 if a package failed.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# stdiobuf itself needs this module's release, whatever GOTOOLCHAIN says.
GOTOOLCHAIN=auto go build -o "$tmp/stdiobuf" ./cmd/stdiobuf
# From a directory outside the module, so that its go.mod picks no
# toolchain.
cd "$tmp"
if [ -n "${STDIOBUF_GO:-}" ]; then
	export GOTOOLCHAIN=$STDIOBUF_GO
fi
overlay=$(./stdiobuf overlay -stdout)
goroot=$(sed -n 's|^[[:space:]]*"\(.*\)/src/bufio/[^/"]*":.*|\1|p' "$overlay" | sed -n 1p)
[ -n "$goroot" ] || { echo "$0: no GOROOT in $overlay" >&2; exit 1; }
export GOROOT=$goroot GOTOOLCHAIN=local GOFLAGS="-overlay=$overlay"
go=$goroot/bin/go
"$go" version
runtime_tests='Crash|Panic|Goexit|Signal|Exit|Recover|Print'
# testing's TestChdir/relative climbs from its package directory with
# "..": under the link stdiobuf makes to a downloaded toolchain's GOROOT,
# ".." leaves the link's target, so the test fails there with or without
# the overlay. It runs with the installed toolchain, whose GOROOT is real.
skip=()
if [ "$(readlink -f "$goroot")" != "$goroot" ]; then
	skip=(-skip '^TestChdir$/^relative$')
fi
t0=$(date +%s)
status=0
"$go" test -count=1 "${skip[@]}" "$@" os fmt log os/exec os/signal syscall testing || status=1
"$go" test -count=1 -short -run "$runtime_tests" "$@" runtime || status=1
echo "bench/stdout-stdlib.sh: $(($(date +%s) - t0)) s"
exit $status
