#!/usr/bin/env bash
# bench/stdout-std.sh: the standard library's own tests, `go test -short`,
# run plainly and under the `stdiobuf build -stdout` overlay (or -files's,
# with STDIOBUF_MODE=files), compared test by test (bench/stdoutstd):
# every test that passes plainly and fails under the overlay is listed.
# The runs use -json, so each test binary's standard output and standard
# error go to one pipe, as `go test -v` leaves them, and test2json sorts
# the lines into tests.
#
#   bench/stdout-std.sh [-o RESULTS.md] [-k DIR] [-p PLAIN.json] [PKG...]
#   STDIOBUF_MODE=files bench/stdout-std.sh ...   under -files
#
# PKG defaults to std (several minutes each way, more on a loaded
# machine). -o writes the report there too (default: only
# standard output); -k keeps the two -json logs in DIR; -p takes the
# plain run's log from an earlier run instead of running it again. Go
# test flags go in $GOTESTFLAGS (default -short -count=1). Exit status: 0
# if no test that passed plainly failed under the overlay, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

out=
keep=
plainlog=
while getopts "o:k:p:" opt; do
	case $opt in
	o) out=$OPTARG ;;
	k) keep=$OPTARG ;;
	p) plainlog=$OPTARG ;;
	*) echo "usage: $0 [-o RESULTS.md] [-k DIR] [-p PLAIN.json] [PKG...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
pkgs=("$@")
[ ${#pkgs[@]} -gt 0 ] || pkgs=(std)
mode=${STDIOBUF_MODE:-stdout}
case $mode in
stdout | files) ;;
*) echo "$0: STDIOBUF_MODE=$mode: want stdout or files" >&2; exit 2 ;;
esac

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
logs=${keep:-$tmp}
mkdir -p "$logs"
go build -o "$tmp/stdiobuf" ./cmd/stdiobuf
go build -o "$tmp/stdoutstd" ./bench/stdoutstd
overlay=$("$tmp/stdiobuf" overlay "-$mode")

# gotest NAME [go test flags]: one run into $logs/NAME.json; prints its
# wall time in seconds. From a directory outside the module, so its
# go.mod picks no toolchain.
gotest() {
	local name=$1
	shift
	local t0 t1
	t0=$(date +%s)
	# shellcheck disable=SC2086 # GOTESTFLAGS holds several flags
	(cd "$tmp" && go test -json ${GOTESTFLAGS:--short -count=1} "$@" "${pkgs[@]}" >"$logs/$name.json" 2>"$logs/$name.stderr") || true
	t1=$(date +%s)
	echo $((t1 - t0))
}

start=$(date -u '+%Y-%m-%d %H:%M UTC')
rev=$(git rev-parse --short HEAD)$(git diff --quiet || echo '+changes')
load0=$(cut -d' ' -f1-3 /proc/loadavg)
if [ -n "$plainlog" ]; then
	[ "$plainlog" -ef "$logs/plain.json" ] || cp "$plainlog" "$logs/plain.json"
	plain_s="from $plainlog"
else
	plain_s="$(gotest plain) s"
fi
overlay_s=$(gotest "$mode" -overlay="$overlay")
load1=$(cut -d' ' -f1-3 /proc/loadavg)

{
	echo "# The standard library's tests under \`stdiobuf build -$mode\`"
	echo
	echo "- started: $start; machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs; load average $load0 at the start, $load1 at the end (other work was running)"
	echo "- $(go version); $("$tmp/stdiobuf" version | head -1)"
	echo "- command: \`STDIOBUF_MODE=$mode bench/stdout-std.sh ${*:-}\` at $rev; packages: ${pkgs[*]}; flags: ${GOTESTFLAGS:--short -count=1} -json"
	echo "- wall time: plain ${plain_s}, -$mode ${overlay_s} s (the -$mode run rebuilds every package)"
	echo
	"$tmp/stdoutstd" -outputs -name "-$mode" "$logs/plain.json" "$logs/$mode.json" && status=0 || status=$?
	echo
	echo "go test's own messages (build failures) under -$mode:"
	echo
	sed 's/^/    /' "$logs/$mode.stderr" | head -50
	exit "$status"
} | tee ${out:+"$out"}
