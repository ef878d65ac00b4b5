#!/usr/bin/env bash
# bench/stdout-ab.sh: the -stdout build of bench/stdout (golang/go#3463's
# Println loop and a Printf loop) made from revision REV and from the work
# tree, run interleaved into /dev/null, a file and a pipe read by
# `cat > /dev/null`: medians of wall and CPU time (user+sys, which a loaded
# machine disturbs less), and the ratio work tree / REV. For a change to
# -stdout's write path: the same loop, the same machine, the same minutes.
#
#   bench/stdout-ab.sh [-n LINES] [-r RUNS] [-o RESULTS.md] REV
#
# Defaults: 1048576 lines, 7 runs. Writes the table to standard output and,
# with -o, to RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

n=$((1 << 20))
runs=7
out=
while getopts "n:r:o:" opt; do
	case $opt in
	n) n=$OPTARG ;;
	r) runs=$OPTARG ;;
	o) out=$OPTARG ;;
	*) echo "usage: $0 [-n LINES] [-r RUNS] [-o RESULTS.md] REV" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: $0 [-n LINES] [-r RUNS] [-o RESULTS.md] REV" >&2; exit 2; }
rev=$(git rev-parse --short "$1")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/old"
git archive "$rev" | tar -x -C "$tmp/old"
(cd "$tmp/old" && go build -o "$tmp/stdiobuf-old" ./cmd/stdiobuf && "$tmp/stdiobuf-old" build -stdout -o "$tmp/old.bin" ./bench/stdout)
go build -o "$tmp/stdiobuf-new" ./cmd/stdiobuf
"$tmp/stdiobuf-new" build -stdout -o "$tmp/new.bin" ./bench/stdout

# cpusum FILE: the user and system time of the children in FILE, what
# bash's times builtin printed (its second line), in seconds.
cpusum() {
	awk 'NR == 2 { s = 0; for (i = 1; i <= NF; i++) { split($i, p, "m"); sub(/s$/, "", p[2]); s += p[1] * 60 + p[2] } print s }' "$1"
}

# one BIN SINK ARGS...: "wall cpu" of one run.
one() (
	local bin=$1 sink=$2 t0 t1
	shift 2
	t0=$(date +%s%N)
	times >"$tmp/times0"
	case $sink in
	devnull) "$bin" "$@" >/dev/null ;;
	file) "$bin" "$@" >"$tmp/out" ;;
	pipe) "$bin" "$@" | cat >/dev/null ;;
	esac
	times >"$tmp/times1"
	t1=$(date +%s%N)
	awk -v a="$t0" -v b="$t1" -v c="$(cpusum "$tmp/times0")" -v d="$(cpusum "$tmp/times1")" \
		'BEGIN { printf "%.3f %.3f\n", (b - a) / 1e9, d - c }'
)

{
	echo "# -stdout write path: $rev against the work tree"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -srm), $(nproc) CPUs, $(go version | cut -d' ' -f3);"
	echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)."
	echo "Command: bench/stdout-ab.sh -n $n -r $runs $1 (medians of $runs interleaved runs, $n lines)."
	echo
	echo "| loop | output | $rev wall | work tree wall | $rev CPU | work tree CPU | CPU work tree / $rev |"
	echo "|---|---|---|---|---|---|---|"
} | tee "$tmp/table"
for loop in println printf; do
	flag=()
	[ "$loop" = printf ] && flag=(-printf)
	for sink in devnull file pipe; do
		: >"$tmp/old.t"
		: >"$tmp/new.t"
		for _ in $(seq "$runs"); do
			one "$tmp/old.bin" "$sink" "${flag[@]}" -n "$n" >>"$tmp/old.t"
			one "$tmp/new.bin" "$sink" "${flag[@]}" -n "$n" >>"$tmp/new.t"
		done
		ow=$(cut -d' ' -f1 "$tmp/old.t" | bench_median)
		nw=$(cut -d' ' -f1 "$tmp/new.t" | bench_median)
		oc=$(cut -d' ' -f2 "$tmp/old.t" | bench_median)
		nc=$(cut -d' ' -f2 "$tmp/new.t" | bench_median)
		awk -v l="$loop" -v s="$sink" -v ow="$ow" -v nw="$nw" -v oc="$oc" -v nc="$nc" \
			'BEGIN { printf "| %s | %s | %.3f s | %.3f s | %.3f s | %.3f s | %.2f |\n", l, s, ow, nw, oc, nc, nc / oc }' | tee -a "$tmp/table"
	done
done
echo | tee -a "$tmp/table"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)." | tee -a "$tmp/table"
[ -z "$out" ] || cp "$tmp/table" "$out"
