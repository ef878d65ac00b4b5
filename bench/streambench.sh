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
rounds=${1:-10}
out=${2:-/dev/stdout}
filter=${3:-.}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/stream.test" ./stream/

{
	echo "# $(date -u +'%Y-%m-%d %H:%M UTC') on $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(uname -sr), $(go version | cut -d' ' -f3)"
	echo "# command: bench/streambench.sh $rounds $out $filter"
	echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "# scheduling policy:$(chrt -p $$ 2>/dev/null | sed -n '1s/.*://p')"
} >"$tmp/raw.txt"
for ((i = 1; i <= rounds; i++)); do
	order=(bufio stream)
	((i % 2 == 0)) && order=(stream bufio)
	for impl in "${order[@]}"; do
		"$tmp/stream.test" -test.run '^$' -test.bench "$filter/impl=$impl\$" -test.benchtime 1s >>"$tmp/raw.txt"
	done
	echo "round $i of $rounds done" >&2
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$tmp/raw.txt"

benchstat=$(command -v benchstat || echo "$(go env GOPATH)/bin/benchstat")
{
	grep '^#' "$tmp/raw.txt"
	echo
	echo '```'
	"$benchstat" -col /impl "$tmp/raw.txt"
	echo '```'
	echo
	echo "Raw results:"
	echo
	echo '```'
	grep -v '^#' "$tmp/raw.txt"
	echo '```'
} >"$out"
