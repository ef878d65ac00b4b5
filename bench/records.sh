#!/usr/bin/env bash
# bench/records.sh: what a record of bench/pathops's transform (fmt.Fscan
# of a number from a file, fmt.Fprintf of a line to another) costs under
# `stdiobuf test -files` against the plain build with bufio added by hand,
# inside one process: BenchmarkTransform and BenchmarkTransformByHand of
# bench/pathops/prog, in a test binary built plainly and one built with
# -files, run interleaved. bench/pathops.sh measures whole processes, whose
# start and exit (the same for every record count) its CPU figures
# include; this measures the records alone. With -rev, also the -files
# build that revision's stdiobuf makes of the same benchmarks: a change
# to -files's read or write path, the same minutes.
#
#   bench/records.sh [-r ROUNDS] [-n LOOPS] [-rev REV] [-o RESULTS.md]
#
# Defaults: 21 rounds of 20 loops over 100,000 records, no revision.
# Writes the table to standard output and, with -o, to RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

rounds=21
loops=20
out=
rev=
usage="usage: $0 [-r ROUNDS] [-n LOOPS] [-rev REV] [-o RESULTS.md]"
while [ $# -gt 0 ]; do
	[ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
	case $1 in
	-r) rounds=$2 ;;
	-n) loops=$2 ;;
	-o) out=$2 ;;
	-rev) rev=$(git rev-parse --short --verify --quiet "$2^{commit}") || { echo "$0: -rev $2: no such revision" >&2; exit 2; } ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
	shift 2
done
case $rounds$loops in *[!0-9]*) echo "$usage: ROUNDS and LOOPS are counts" >&2; exit 2 ;; esac
[ "$rounds" -ge 3 ] && [ "$loops" -ge 1 ] || { echo "$usage: at least 3 rounds of 1 loop" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/stdiobuf" ./cmd/stdiobuf
go test -c -o "$tmp/plain.test" ./bench/pathops/prog
"$tmp/stdiobuf" test -files -c -o "$tmp/files.test" ./bench/pathops/prog
runs=("plain TransformByHand" "files Transform" "files TransformByHand")
if [ -n "$rev" ]; then
	# The revision's shim, the work tree's benchmarks.
	mkdir "$tmp/old"
	git archive "$rev" | tar -x -C "$tmp/old"
	(cd "$tmp/old" && go build -o "$tmp/stdiobuf-old" ./cmd/stdiobuf)
	"$tmp/stdiobuf-old" test -files -c -o "$tmp/old.test" ./bench/pathops/prog
	runs+=("old Transform")
fi

# bench BIN NAME: the ns/record of benchmark NAME in test binary BIN.
bench() {
	(cd "$tmp" && "$1" -test.run '^$' -test.bench "^Benchmark$2\$" -test.benchtime "${loops}x") |
		awk -v name="Benchmark$2" '$1 ~ "^" name "(-[0-9]+)?$" { for (i = 2; i < NF; i++) if ($(i + 1) == "ns/record") { print $i; found = 1 } }
			END { if (!found) exit 1 }'
}

load=$(cut -d' ' -f1-3 /proc/loadavg)
: >"$tmp/runs"
for r in $(seq "$rounds"); do
	# Each round starts with another run, so that none always runs
	# first.
	for i in "${!runs[@]}"; do
		read -r build name <<<"${runs[$(((i + r) % ${#runs[@]}))]}"
		echo "$r $build $name $(bench "$tmp/$build.test" "$name")" >>"$tmp/runs"
	done
done

# quartiles: the lower and upper quartiles of the numbers on standard
# input, as "LO, HI".
quartiles() { sort -g | awk '{ v[NR] = $1 } END { printf "%.3f, %.3f", v[int(NR / 4) + 1], v[NR - int(NR / 4)] }'; }

# stats BUILD BENCHMARK: the median ns/record of the runs of BENCHMARK in
# BUILD's binary, and the median and quartiles of their per-round ratios
# to the plain build's TransformByHand.
stats() {
	local ratios
	ratios=$(awk -v b="$1" -v n="$2" '
		$2 == "plain" && $3 == "TransformByHand" { ref[$1] = $4 }
		$2 == b && $3 == n { v[$1] = $4 }
		END { for (r in v) print v[r] / ref[r] }' "$tmp/runs")
	printf "%.1f | %.3f | %s\n" \
		"$(awk -v b="$1" -v n="$2" '$2 == b && $3 == n { print $4 }' "$tmp/runs" | bench_median)" \
		"$(echo "$ratios" | bench_median)" "$(echo "$ratios" | quartiles)"
}

{
	echo "# A record of transform, in one process (\`bench/records.sh\`)"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -srm), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(go version | cut -d' ' -f3); load average before $load, after $(cut -d' ' -f1-3 /proc/loadavg)."
	echo
	echo "\`bench/records.sh -r $rounds -n $loops${rev:+ -rev $rev}\`: bench/pathops/prog's benchmarks, $loops loops of 100,000 records a run, $rounds interleaved rounds. The ratio is the median of the per-round ratios to the plain build's TransformByHand, with their quartiles."
	echo
	echo "| build | benchmark | ns/record | / plain by hand | quartiles |"
	echo "|---|---|---|---|---|"
	echo "| plain | TransformByHand | $(stats plain TransformByHand) |"
	echo "| -files | Transform | $(stats files Transform) |"
	echo "| -files | TransformByHand | $(stats files TransformByHand) |"
	if [ -n "$rev" ]; then
		echo "| -files of $rev | Transform | $(stats old Transform) |"
	fi
} | tee "$tmp/table"
if [ -n "$out" ]; then
	cp "$tmp/table" "$out"
fi
