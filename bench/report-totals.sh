#!/usr/bin/env bash
# bench/report-totals.sh: the report at exit (STDIOBUF_REPORT) against
# strace. Builds each program of bench/files.sh (bench/files/plain) and
# two real tools, golang.org/x/perf's cmd/benchstat and cmd/benchfilter,
# with `stdiobuf build -files`, runs each once with STDIOBUF_REPORT set
# under
#
#   strace -f -qq -y -e trace=read,write,pread64,pwrite64,readv,writev,copy_file_range,sendfile,splice,tee
#
# (tee: a read buffer's copy of a pipe, which the report counts in
# `kernel`), and compares, per descriptor of the program's files and in
# total, the report's reads, writes and kernel copies with strace's
# (bench/reporttotals; the runtime's reads of /proc and /sys, its
# eventfd and the report's own write are not the program's). Prints a
# markdown table; a cell where the two differ says `report ≠ strace`.
#
#   bench/report-totals.sh [-records N] [-out DIR]
#
# Defaults: 10000 records, the same data as bench/files.sh's (integers
# below 10^6, one a line; 16-byte records). -out keeps the reports, the
# traces and the table (table.md, the temporary folder as $TMP) in DIR. The tools' version is
# PERF_VERSION (default v0.0.0-20260908200009-22c9c6c9d4da), taken from
# the module cache (GOPROXY=off) unless GOPROXY is set. Needs go and
# strace; exits 1 if a count differs.
set -euo pipefail
cd "$(dirname "$0")/.."
records=10000 out=""
while [ $# -gt 0 ]; do
	case $1 in
	-records) records=$2; shift 2 ;;
	-out) out=$2; shift 2 ;;
	*) echo "usage: bench/report-totals.sh [-records N] [-out DIR]" >&2; exit 2 ;;
	esac
done
perf=${PERF_VERSION:-v0.0.0-20260908200009-22c9c6c9d4da}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -n "$out" ] || out=$tmp/out
mkdir -p "$out"
out=$(cd "$out" && pwd)
go build -o "$tmp/stdiobuf" ./cmd/stdiobuf
go build -o "$tmp/reporttotals" ./bench/reporttotals
for p in bench/files/plain/*/; do
	"$tmp/stdiobuf" build -files -o "$tmp/$(basename "$p")" "./$p"
done
(
	mkdir "$tmp/perf" && cd "$tmp/perf"
	export GOPROXY=${GOPROXY_PERF:-off} GOFLAGS=-mod=mod
	go mod init reporttotals.example >/dev/null 2>&1
	go get "golang.org/x/perf@$perf" >/dev/null 2>&1
	for tool in benchstat benchfilter; do
		"$tmp/stdiobuf" build -files -o "$tmp/$tool" "golang.org/x/perf/cmd/$tool"
	done
)

# The data: bench/files's kinds of input, and benchmark results for the
# tools (3 header lines, 5 runs of 2000 benchmarks).
awk -v n="$records" 'BEGIN { srand(22); for (i = 0; i < n; i++) printf "%d\n", int(rand() * 1000000) }' >"$tmp/ints.txt"
awk -v n="$records" 'BEGIN { srand(23); for (i = 0; i < n; i++) { printf "%c%c%c%c%c%c%c%c", i % 256, int(i / 256) % 256, 0, 0, 0, 0, 0, 0; for (j = 0; j < 8; j++) printf "%c", int(rand() * 128) } }' >"$tmp/recs.bin"
for side in old new; do
	awk -v seed="$side" 'BEGIN {
		srand(seed == "old" ? 1 : 2)
		print "goos: linux"; print "goarch: amd64"; print "pkg: example.com/bench"
		for (run = 0; run < 5; run++)
			for (b = 0; b < 2000; b++)
				printf "BenchmarkCase%d-2   \t%d\t%10.1f ns/op\n", b, 1000000, 100 + b + rand() * 10
	}' >"$tmp/$side.txt"
done

traced=read,write,pread64,pwrite64,readv,writev,copy_file_range,sendfile,splice,tee
status=0
# run NAME STDIN ARGS...: runs $tmp/PROG (the first of ARGS) with
# standard input STDIN ("pipe:FILE" for a pipe that cat fills, the
# program in a session of its own so that no shell or strace holding the
# pipe is seen) and compares its report with the trace.
run() {
	local name=$1 stdin=$2
	shift 2
	local report=$out/$name.report trace=$out/$name.strace
	local cmd=(strace -f -qq -y -o "$trace" -e "trace=$traced" "$@")
	case $stdin in
	pipe:*) cat "${stdin#pipe:}" | STDIOBUF_REPORT=$report setsid -w "${cmd[@]}" >"$tmp/$name.out" ;;
	*) STDIOBUF_REPORT=$report "${cmd[@]}" <"$stdin" >"$tmp/$name.out" ;;
	esac
	"$tmp/reporttotals" -name "$name" -exclude "$report" "$report" "$trace" || status=1
}
set +e # the table's block ends with status; pipefail passes it on
{
	echo "| program | descriptor | reads | writes | kernel |"
	echo "|---|---|---|---|---|"
	cd "$tmp"
	run fprintf /dev/null ./fprintf "$records" "$tmp/fprintf.txt"
	run log /dev/null ./log "$records" "$tmp/log.txt"
	run scan-file "$tmp/ints.txt" ./scan
	run scan-pipe "pipe:$tmp/ints.txt" ./scan
	run fscan /dev/null ./fscan "$tmp/ints.txt"
	run binread /dev/null ./binread "$tmp/recs.bin"
	run bytereads "$tmp/ints.txt" ./bytereads
	run gob /dev/null ./gob "$records" "$tmp/gob.bin"
	run json /dev/null ./json "$records" "$tmp/json.txt"
	run bufiofiles /dev/null ./bufiofiles "$tmp/ints.txt" "$tmp/bufiofiles.txt"
	run blocks /dev/null ./blocks "$tmp/ints.txt" "$tmp/blocks.txt"
	run benchstat /dev/null ./benchstat old.txt new.txt
	run benchfilter /dev/null ./benchfilter '.name:/Case1/' old.txt
	exit "$status"
} | sed "s|$tmp|\$TMP|g" | tee "$out/table.md"
