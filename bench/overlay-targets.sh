#!/usr/bin/env bash
# overlay-targets.sh checks that the stdiobuf overlay's bufio, and the
# -stdout and -files overlays' os, build on every target of `go tool
# dist list`, with cgo off, as bufio does.
#
#   bench/overlay-targets.sh           every target (slow when the build
#                                      cache is cold: each target compiles
#                                      the runtime once)
#   bench/overlay-targets.sh --family  one target per GOOS, plus linux/386
#                                      for 32-bit: each of stream's build
#                                      constraint families once (CI)
#
# For each target it makes the target's overlay (`GOOS=... GOARCH=...
# stdiobuf overlay`: the generated bufio holds the stream files that target
# builds), then runs `go build -overlay=... bufio`, which compiles it, and
# `go vet -overlay=... bufio`, which also type-checks bufio's tests and runs
# vet in bufio's directory; then, with the overlays of -stdout and of
# -files (which patch os, runtime, syscall and more), `go build
# -overlay=... os bufio`. Exit status: 0 if all targets passed, 1
# otherwise; the failing targets are listed.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/stdiobuf" ./cmd/stdiobuf

if [ "${1:-}" = --family ]; then
	mapfile -t targets < <( (go tool dist list | awk -F/ '!seen[$1]++'; echo linux/386) | sort -u)
else
	mapfile -t targets < <(go tool dist list)
fi

# Where `go vet bufio` fails without the overlay too (android/386 and ios
# want external linking for the test binary vet checks), only the build
# counts.
failed=()
start=$SECONDS
for t in "${targets[@]}"; do
	env=(CGO_ENABLED=0 GOOS=${t%/*} GOARCH=${t#*/})
	if ! overlay=$(env "${env[@]}" "$bin/stdiobuf" overlay 2>&1); then
		printf '%-18s FAIL (overlay)\n%s\n' "$t" "$overlay"
		failed+=("$t")
	elif ! out=$(env "${env[@]}" go build -overlay="$overlay" bufio 2>&1); then
		printf '%-18s FAIL (build)\n%s\n' "$t" "$out"
		failed+=("$t")
	elif out=$(env "${env[@]}" go vet -overlay="$overlay" bufio 2>&1); then
		printf '%-18s ok\n' "$t"
	elif plain=$(env "${env[@]}" go vet bufio 2>&1); then
		printf '%-18s FAIL (vet)\n%s\n' "$t" "$out"
		failed+=("$t")
	else
		printf '%-18s ok (build; vet fails on bufio itself: %s)\n' "$t" "${plain%%$'\n'*}"
	fi
	for mode in -stdout -files; do
		if ! overlay=$(env "${env[@]}" "$bin/stdiobuf" overlay $mode 2>&1); then
			printf '%-18s FAIL (overlay %s)\n%s\n' "$t" "$mode" "$overlay"
			failed+=("$t$mode")
		elif ! out=$(env "${env[@]}" go build -overlay="$overlay" os bufio 2>&1); then
			printf '%-18s FAIL (build %s)\n%s\n' "$t" "$mode" "$out"
			failed+=("$t$mode")
		else
			printf '%-18s ok (os %s)\n' "$t" "$mode"
		fi
	done
done
echo "${#targets[@]} targets in $((SECONDS - start)) s; ${#failed[@]} failed${failed:+: ${failed[*]}}"
[ ${#failed[@]} -eq 0 ]
