#!/usr/bin/env bash
# check-recall.sh measures `stdiobuf check`'s precision and recall on real
# command-line tools that read or write records, fetched through the Go module
# proxy at pinned versions (none of those in check-precision.sh).
#
# Part 1 (check): runs `stdiobuf check` on each module; every diagnostic goes
# to OUTDIR/<module>.txt, a count per module to OUTDIR/summary.tsv.
# Part 2 (strace): builds each module's tool(s) plainly and runs them on
# generated input of many records under strace -f -c -e trace=read,write,
# writing OUTDIR/strace-<module>-<case>.txt; a path is confirmed per-record
# where the count of write (or read) calls is about the count of records.
# The verdict on every finding and the list of confirmed paths are in
# bench/results/*-check-recall.md.
#
# Usage: bench/check-recall.sh [OUTDIR]   (default: a new temporary directory)
# CHECK_MODCACHE=DIR keeps the module cache between runs (default: a
# temporary one, removed at the end). PART=check or PART=strace runs one part.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${1:-$(mktemp -d)}
out=$(cd "$out" 2>/dev/null && pwd || (mkdir -p "$out" && cd "$out" && pwd))
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
go build -o "$work/stdiobuf" ./cmd/stdiobuf
export GOMODCACHE=${CHECK_MODCACHE:-$work/modcache}
export GOFLAGS=-mod=mod GOTOOLCHAIN=local GOWORK=off
part=${PART:-all}

# module version packages
modules='
honnef.co/go/tools v0.8.2 ./...
github.com/josephburnett/jd/v2 v2.5.0 . ./jd/...
github.com/cespare/xxhash/v2 v2.3.0 ./...
mvdan.cc/gofumpt v0.12.0 ./...
github.com/olekukonko/tablewriter v1.1.5 ./...
github.com/ohler55/ojg v1.28.5 ./...
github.com/oklog/ulid/v2 v2.1.2 ./...
go.etcd.io/bbolt v1.5.0 ./...
github.com/mgechev/revive v1.17.0 ./...
github.com/segmentio/ksuid v1.0.4 ./...
github.com/go-python/gpython v0.2.0 ./...
github.com/jmespath/go-jmespath v0.4.0 ./...
github.com/rhysd/actionlint v1.7.12 ./...
gotest.tools/gotestsum v1.13.0 ./...
go.starlark.net v0.0.0-20260908191801-89a6a09411d5 ./...
github.com/brianvoe/gofakeit/v7 v7.18.9 ./...'

# fetch MODULE VERSION: copies the module's source to $work/src/NAME and
# prints that directory.
fetch() {
	local mod=$1 ver=$2 name dir src
	name=$(echo "$mod" | tr / _)
	src=$work/src/$name
	if [ ! -d "$src" ]; then
		dir=$(go mod download -json "$mod@$ver" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
		mkdir -p "$src"
		cp -R "$dir/." "$src"
		chmod -R u+w "$src"
		if [ ! -f "$src/go.mod" ]; then
			(cd "$src" && go mod init "$mod" && go mod tidy) >/dev/null 2>&1
		fi
	fi
	echo "$src"
}

if [ "$part" = all ] || [ "$part" = check ]; then
printf 'module\tversion\tpackages\tdiagnostics\n' >"$out/summary.tsv"
while read -r mod ver pkgs; do
	[ -n "$mod" ] || continue
	name=$(echo "$mod" | tr / _)
	src=$(fetch "$mod" "$ver")
	status=0
	(cd "$src" && "$work/stdiobuf" check $pkgs) >"$out/$name.log" 2>&1 || status=$?
	sed -i "s|$src/||" "$out/$name.log"
	grep -E '^[^ #][^ ]*:[0-9]+:[0-9]+: .*(one system call per record|without Flush|never checks)' "$out/$name.log" >"$out/$name.txt" || true
	if [ "$status" -ne 0 ] && grep -vE '^#|^go: downloading|^[^ #][^ ]*:[0-9]+:[0-9]+: .*(one system call per record|without Flush|never checks)|^\t' "$out/$name.log" >&2; then
		echo "check $mod@$ver: the lines above are errors (status $status)" >&2
	fi
	n=$(wc -l <"$out/$name.txt")
	printf '%s\t%s\t%s\t%s\n' "$mod" "$ver" "$pkgs" "$n" >>"$out/summary.tsv"
	echo "$mod@$ver: $n diagnostics" >&2
done <<<"$modules"
cat "$out/summary.tsv"
fi
