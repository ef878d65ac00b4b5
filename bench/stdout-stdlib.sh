#!/usr/bin/env bash
# bench/stdout-stdlib.sh: the standard library's own tests of the packages
# `stdiobuf build -stdout` changes or leans on (os, fmt, log, os/exec,
# os/signal), run with the -stdout overlay. .ci/run runs it under each Go
# release the project supports.
#
#   bench/stdout-stdlib.sh [go test flags]
#   STDIOBUF_GO=go1.27.3 bench/stdout-stdlib.sh   the tests of that release
#                                                 (GOTOOLCHAIN downloads it)
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/stdiobuf" ./cmd/stdiobuf
# From a directory outside the module, so its go.mod picks no toolchain;
# stdiobuf test runs a downloaded toolchain through its GOROOT link.
cd "$tmp"
if [ -n "${STDIOBUF_GO:-}" ]; then
	export GOTOOLCHAIN=$STDIOBUF_GO
fi
"$tmp/stdiobuf" version -stdout
"$tmp/stdiobuf" test -stdout -count=1 "$@" os fmt log os/exec os/signal
