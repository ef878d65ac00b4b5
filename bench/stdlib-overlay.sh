#!/usr/bin/env bash
# stdlib-overlay.sh runs, under the stdiobuf overlay (bufio compiled from
# package stream), the tests of bufio itself and of every standard-library
# package that imports bufio directly (as `go list` finds them), and says
# which passed. Each package's tests run as the toolchain ships them;
# the overlay only swaps bufio's files (and bufio's export_test.go, see
# docs/overlay.md).
#
#   bench/stdlib-overlay.sh            every package (several minutes)
#   bench/stdlib-overlay.sh --sample   the fixed sample CI runs
#   bench/stdlib-overlay.sh PKG...     the named packages
#
# Extra go test flags go in $GOTESTFLAGS (default: -count=1 -short).
# Exit status: 0 if every package passed, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

# The sample CI runs: bufio, and one user of it from each family the issue
# names (net/textproto, net/http's small neighbours, encoding, image,
# compress, archive, mime, go).
sample=(bufio net/textproto net/mail encoding/csv encoding/xml image/png
	compress/gzip archive/zip mime/multipart go/build)

case "${1:-}" in
--sample) pkgs=("${sample[@]}") ;;
"") mapfile -t pkgs < <(echo bufio; go list -f '{{.ImportPath}} {{join .Imports " "}}' std |
	awk '{for (i = 2; i <= NF; i++) if ($i == "bufio") { print $1; break }}') ;;
*) pkgs=("$@") ;;
esac

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/stdiobuf" ./cmd/stdiobuf
"$bin/stdiobuf" version
echo "packages: ${#pkgs[@]}"

# shellcheck disable=SC2086 # GOTESTFLAGS holds several flags
if "$bin/stdiobuf" test ${GOTESTFLAGS:--count=1 -short} "${pkgs[@]}"; then
	echo "all ${#pkgs[@]} packages passed under the overlay"
else
	echo "some packages failed under the overlay" >&2
	exit 1
fi
