#!/usr/bin/env bash
# report-cost.sh: what the report at exit (STDIOBUF_REPORT) costs, on
# stream's BenchmarkDescriptorStreams (stream/report_bench_test.go): the
# work tree with the variable unset and set against a revision without
# the report, as ratios of medians from interleaved runs.
#
# Usage: bench/report-cost.sh [ROUNDS] [OUT] [BASE]
#   (default 10 rounds, OUT=/dev/stdout, BASE the merge base of HEAD and
#   main: the tree's own changes alone)
#
# The base gets the work tree's benchmark file, so both run the same
# benchmark. Each round runs base, off and on once each, in a rotating
# order, so that a busy moment on a shared machine falls on all alike;
# benchstat then compares the columns.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
rounds=${1:-10}
out=${2:-/dev/stdout}
base=${3:-$(git merge-base HEAD main)}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/base"
git archive "$base" | tar -x -C "$tmp/base"
cp stream/report_bench_test.go "$tmp/base/stream/"
(cd "$tmp/base" && go test -c -o "$tmp/base.test" ./stream/)
go test -c -o "$tmp/tree.test" ./stream/

# The machine code of the calls a program makes per record, and of the
# paths that make a system call, in both builds: instructions, and how
# many differ (addresses and offsets aside).
norm() {
	go tool objdump -s "$2" "$1" | awk 'NR>1{ $1=""; $2=""; $3=""; print }' |
		sed -E 's/0x[0-9a-f]+/X/g; s/\+[0-9]+\(SB\)/(SB)/g; s/[ \t]+/ /g'
}
{
	echo '| function | instructions (base) | instructions (tree) | differing lines |'
	echo '|---|---|---|---|'
	for f in '(*Writer).Write' '(*Writer).WriteString' '(*Writer).WriteByte' '(*Writer).WriteRune' \
		'(*lineShim).write' '(*Reader).ReadByte' '(*Reader).ReadSlice' '(*Reader).ReadString' '(*Reader).fill' \
		'(*Scanner).Scan' '(*Writer).pickShim' '(*Writer).writeBlock' '(*Writer).flushN' '(*Reader).read' '(*Scanner).read'; do
		re="^github.com/stdiobuf/stdiobuf/stream.$(echo "$f" | sed 's/[()*.]/\\&/g')\$"
		norm "$tmp/base.test" "$re" >"$tmp/a.s"
		norm "$tmp/tree.test" "$re" >"$tmp/b.s"
		echo "| \`$f\` | $(wc -l <"$tmp/a.s") | $(wc -l <"$tmp/b.s") | $( (diff "$tmp/a.s" "$tmp/b.s" || true) | grep -c '^[<>]' || true) |"
	done
} >"$tmp/asm.md"

bench_header "bench/report-cost.sh $rounds $out $base ($base is $(git rev-parse --short "$base"), the tree $(git rev-parse --short HEAD))" >"$tmp/raw.txt"
run() {
	case $1 in
	base) "$tmp/base.test" -test.run '^$' -test.bench DescriptorStreams -test.benchtime 1s ;;
	off) env -u STDIOBUF_REPORT "$tmp/tree.test" -test.run '^$' -test.bench DescriptorStreams -test.benchtime 1s ;;
	on) STDIOBUF_REPORT=1 "$tmp/tree.test" -test.run '^$' -test.bench DescriptorStreams -test.benchtime 1s ;;
	esac | sed -n "s/^\(Benchmark[^ 	]*\)-\([0-9]*\)\([ 	]\)/\1\/report=$1-\2\3/p" >>"$tmp/raw.txt"
}
for ((i = 1; i <= rounds; i++)); do
	case $((i % 3)) in
	0) order=(base off on) ;;
	1) order=(off on base) ;;
	2) order=(on base off) ;;
	esac
	for v in "${order[@]}"; do
		run "$v"
	done
	echo "round $i of $rounds done" >&2
done
bench_footer "$tmp/raw.txt"
{
	bench_table "$tmp/raw.txt" -col '/report@(base off on)'
	echo
	echo "Machine code, base against tree:"
	echo
	cat "$tmp/asm.md"
	echo
	bench_raw "$tmp/raw.txt"
} >"$out"
