#!/usr/bin/env bash
# bench/stdout-stdlib.sh: the standard library's own tests of what
# `stdiobuf build -stdout` changes or leans on, under the -stdout overlay:
# os, fmt, log, os/exec, os/signal, syscall and testing whole, and
# runtime's tests of panics, crashes, Goexit, signals, exit and print
# (the runtime hooks). With STDIOBUF_MODE=files, under the -files overlay
# and with -short, the packages whose tests write and read files the
# ways issue 22 buffers: os, io, fmt, log, os/exec, bufio, encoding/gob,
# encoding/binary, encoding/json, archive/zip and compress/gzip (the
# runtime's tests, the longest part, are -stdout's: -files adds to the
# same hooks). The overlay goes in GOFLAGS, so that the programs the
# tests build and run (runtime's testprog) get it too.
# .ci/run runs it with the go on PATH (both modes) and with
# GOTOOLCHAIN=go1.25.5 and go1.27.3.
#
#   bench/stdout-stdlib.sh [go test flags]
#   STDIOBUF_GO=go1.27.3 bench/stdout-stdlib.sh -short   that release's tests
#   STDIOBUF_MODE=files bench/stdout-stdlib.sh           -files's sample
#
# STDIOBUF_GO (else GOTOOLCHAIN) picks the toolchain (a downloaded one is
# run through the GOROOT link stdiobuf makes for it). Prints the time
# taken; exit status 1 if a package failed.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${STDIOBUF_MODE:-stdout}
case $mode in
stdout)
	pkgs=(os fmt log os/exec os/signal syscall testing)
	short=()
	runtime_tests='Crash|Panic|Goexit|Signal|Exit|Recover|Print'
	;;
files)
	pkgs=(os io fmt log os/exec bufio encoding/gob encoding/binary encoding/json archive/zip compress/gzip)
	short=(-short)
	runtime_tests=
	;;
*) echo "$0: STDIOBUF_MODE=$mode: want stdout or files" >&2; exit 2 ;;
esac
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
overlay=$(./stdiobuf overlay "-$mode")
goroot=$(sed -n 's|^[[:space:]]*"\(.*\)/src/bufio/[^/"]*":.*|\1|p' "$overlay" | sed -n 1p)
[ -n "$goroot" ] || { echo "$0: no GOROOT in $overlay" >&2; exit 1; }
export GOROOT=$goroot GOTOOLCHAIN=local GOFLAGS="-overlay=$overlay"
go=$goroot/bin/go
"$go" version
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
"$go" test -count=1 "${short[@]}" "${skip[@]}" "$@" "${pkgs[@]}" || status=1
if [ -n "$runtime_tests" ]; then
	"$go" test -count=1 -short -run "$runtime_tests" "$@" runtime || status=1
fi
echo "bench/stdout-stdlib.sh ($mode): $(($(date +%s) - t0)) s"
exit $status
