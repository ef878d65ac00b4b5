#!/usr/bin/env bash
# bench/stdout-latency.sh: how late standard output arrives from a program
# built with `stdiobuf build -stdout`, and what the bound on its buffer
# (STDIOBUF_MAXDELAY) costs a program that writes little and often:
# bench/trickle (a stamped line every 100 us, 1 ms, 10 ms, 100 ms; and a
# server's READY line), built plainly and with -stdout, run under each
# candidate bound by bench/stdoutlat, which reads its output from a pipe
# and stamps each line as it arrives. Medians of interleaved rounds; write
# calls on standard output counted with strace.
#
#   bench/stdout-latency.sh [-r ROUNDS] [-b BOUNDS] [-p PERIODS] [-o RESULTS.md]
#
# Defaults: 5 rounds, bounds none,1ms,5ms,10ms,20ms,50ms,100ms, periods
# 100us,1ms,10ms,100ms, each trickle running 1 s. Needs strace. Writes the
# tables to standard output and to RESULTS.md (default
# bench/results/<date>-stdout-latency.md).
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=5
bounds=none,1ms,5ms,10ms,20ms,50ms,100ms
periods=100us,1ms,10ms,100ms
out="bench/results/$(date -u +%Y-%m-%d)-stdout-latency.md"
while getopts "r:b:p:o:" opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	b) bounds=$OPTARG ;;
	p) periods=$OPTARG ;;
	o) out=$OPTARG ;;
	*) echo "usage: $0 [-r ROUNDS] [-b BOUNDS] [-p PERIODS] [-o RESULTS.md]" >&2; exit 2 ;;
	esac
done
command -v strace >/dev/null || { echo "$0: needs strace" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/stdiobuf" ./cmd/stdiobuf
go build -o "$tmp/stdoutlat" ./bench/stdoutlat
go build -o "$tmp/trickle-plain" ./bench/trickle
"$tmp/stdiobuf" build -stdout -o "$tmp/trickle-stdout" ./bench/trickle

load0=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date -u '+%Y-%m-%d %H:%M UTC')
"$tmp/stdoutlat" -plain "$tmp/trickle-plain" -stdout "$tmp/trickle-stdout" \
	-rounds "$rounds" -bounds "$bounds" -periods "$periods" >"$tmp/tables.md"
{
	echo "# stdout under \`stdiobuf build -stdout\`: delays and the bound's cost"
	echo
	echo "$start to $(date -u '+%H:%M UTC'), $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs, $(uname -sr), $(go version | cut -d' ' -f3);"
	echo "load average at the start: $load0; at the end: $(cut -d' ' -f1-3 /proc/loadavg) (other work shared the machine: delays above the bound are its scheduling)."
	echo "Command: \`bench/stdout-latency.sh -r $rounds -b $bounds -p $periods\`"
	echo
	cat "$tmp/tables.md"
} | tee "$out"
