#!/usr/bin/env bash
# streambench.sh: stream against bufio on the same in-memory work
# (stream/bench_test.go), as ratios of medians from interleaved runs.
#
# Usage: bench/streambench.sh [ROUNDS] [OUT] [FILTER]
#   (default 10 rounds, OUT=/dev/stdout, FILTER=. : every benchmark; a
#   regular expression for -test.bench's first level, such as
#   'WriteString|ReadByte', runs those rows alone)
#
# It builds the test binary once, then for each round runs every benchmark
# once per implementation, alternating which goes first, so that a busy
# moment on a shared machine falls on both alike. benchstat (from
# golang.org/x/perf/cmd/benchstat) then compares the impl=bufio and
# impl=stream columns. On a machine shared with other work, run it as
# `chrt -f 50 bench/streambench.sh` (root): under SCHED_FIFO the
# benchmark keeps a CPU to itself, and the spreads fall from 20-60% to
# 3-10%.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
rounds=${1:-10}
out=${2:-/dev/stdout}
filter=${3:-.}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/stream.test" ./stream/

bench_header "bench/streambench.sh $rounds $out $filter" >"$tmp/raw.txt"
for ((i = 1; i <= rounds; i++)); do
	order=(bufio stream)
	((i % 2 == 0)) && order=(stream bufio)
	for impl in "${order[@]}"; do
		"$tmp/stream.test" -test.run '^$' -test.bench "$filter/impl=$impl\$" -test.benchtime 1s >>"$tmp/raw.txt"
	done
	echo "round $i of $rounds done" >&2
done
bench_footer "$tmp/raw.txt"
{
	bench_table "$tmp/raw.txt" -col /impl
	echo
	bench_raw "$tmp/raw.txt"
} >"$out"
