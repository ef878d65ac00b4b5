#!/usr/bin/env bash
# bench/stdout-stdlib.sh: the standard library's own tests of the packages
# `stdiobuf build -stdout` changes or leans on (os, fmt, log, os/exec,
# os/signal), run with the -stdout overlay. .ci/run runs it.
#
#   bench/stdout-stdlib.sh [go test flags]
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/stdiobuf" ./cmd/stdiobuf
overlay=$("$tmp/stdiobuf" overlay -stdout)
# From a directory outside the module, so its go.mod picks no toolchain.
cd "$tmp"
go test -count=1 -overlay="$overlay" "$@" os fmt log os/exec os/signal
