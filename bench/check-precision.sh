#!/usr/bin/env bash
# check-precision.sh runs `stdiobuf check` over real modules fetched through
# the Go module proxy at pinned versions, and writes every diagnostic, one
# file per module, with a count per module in summary.tsv (and, of them,
# the per-record Flushes of a buffer of the program's own, which say
# "writes once per record" rather than "one system call per record"). The
# hand-checked sample and the precision are in
# bench/results/*-check-precision.md.
#
# Usage: bench/check-precision.sh [OUTDIR]   (default: a new temporary directory)
# CHECK_MODCACHE=DIR keeps the module cache between runs (default: a
# temporary one, removed at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${1:-$(mktemp -d)}
mkdir -p "$out"
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
go build -o "$work/stdiobuf" ./cmd/stdiobuf
export GOMODCACHE=${CHECK_MODCACHE:-$work/modcache}
export GOFLAGS=-mod=mod GOTOOLCHAIN=local GOWORK=off

# module version packages
modules='
github.com/itchyny/gojq v0.12.17 ./...
github.com/u-root/u-root v0.15.0 ./cmds/...
github.com/jstemmer/go-junit-report/v2 v2.1.0 ./...
github.com/junegunn/fzf v0.65.2 ./...
github.com/mithrandie/csvq v1.18.1 ./...
github.com/BurntSushi/toml v1.6.0 ./...
mvdan.cc/sh/v3 v3.14.1 ./...
github.com/google/go-jsonnet v0.22.0 ./...
github.com/pelletier/go-toml/v2 v2.4.3 ./...
github.com/kisielk/errcheck v1.30.0 ./...
github.com/rakyll/hey v0.1.5 ./...
github.com/hashicorp/hcl/v2 v2.25.0 ./...
golang.org/x/tools v0.52.0 ./cmd/...
github.com/mikefarah/yq/v4 v4.54.3 ./...
github.com/spf13/cobra v1.10.2 ./...
github.com/goccy/go-yaml v1.19.2 ./...'

# A diagnostic's line: its position, then one of the analyzer's messages
# (a per-record write or read, a per-record Flush, an unflushed writer, an
# unchecked Scanner).
diag='^[^ #][^ ]*:[0-9]+:[0-9]+: .*(one system call per record|writes once per record|without Flush|never checks)'

printf 'module\tversion\tpackages\tdiagnostics\tflushes\n' >"$out/summary.tsv"
while read -r mod ver pkgs; do
	[ -n "$mod" ] || continue
	name=$(echo "$mod" | tr / _)
	dir=$(go mod download -json "$mod@$ver" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
	src=$work/src/$name
	mkdir -p "$src"
	cp -R "$dir/." "$src"
	chmod -R u+w "$src"
	# A module from before go.mod gets one, with its dependencies' newest
	# versions.
	if [ ! -f "$src/go.mod" ]; then
		(cd "$src" && go mod init "$mod" && go mod tidy) >/dev/null 2>&1
	fi
	# go vet's output: the diagnostics, "# package" lines, and any error.
	status=0
	(cd "$src" && "$work/stdiobuf" check $pkgs) >"$out/$name.log" 2>&1 || status=$?
	# Positions relative to the module's root, for reading beside its source.
	sed -i "s|$src/||" "$out/$name.log"
	grep -E "$diag" "$out/$name.log" >"$out/$name.txt" || true
	if [ "$status" -ne 0 ] && grep -vE "^#|^go: downloading|$diag" "$out/$name.log" >&2; then
		echo "check $mod@$ver: the lines above are errors (status $status)" >&2
	fi
	n=$(wc -l <"$out/$name.txt")
	nf=$(grep -c 'writes once per record' "$out/$name.txt" || true)
	printf '%s\t%s\t%s\t%s\t%s\n' "$mod" "$ver" "$pkgs" "$n" "$nf" >>"$out/summary.tsv"
	echo "$mod@$ver: $n diagnostics ($nf per-record Flush)" >&2
done <<<"$modules"
cat "$out/summary.tsv"
echo "diagnostics in $out" >&2
