#!/usr/bin/env bash
# bench/files.sh: issue 22's idiom matrix, the measure of `stdiobuf build
# -files`: ordinary Go programs that do their I/O through *os.File
# (fmt.Fprintf and log to a file, fmt.Scan from a file and a pipe,
# fmt.Fscan, binary.Read, one-byte reads, gob and json encoders) and
# programs that already buffer, built plainly, with bufio added by hand,
# with `stdiobuf build -stdout` (those that print), against the same loops
# in C on glibc stdio. CPU and wall time of interleaved rounds, read/write
# system calls per record under strace -c; medians and ratios to C's.
# bench/files (filesbench) does the work; its flags pass through:
#
#   bench/files.sh [-records N] [-strace-records N] [-rounds R]
#                  [-variants plain,bufio,stdout,files,c,shim] [-idioms LIST]
#                  [-funcalign N] [-out DIR]
#
# Defaults: 100000 records, 10000 under strace, 5 rounds (about 4 minutes
# on a loaded 2-CPU machine). Needs go, cc and strace. Writes runs.tsv and
# results.md into -out (default bench/results/<date>-files) and prints the
# tables. shim is `stdiobuf build` alone; -funcalign N aligns every Go
# program's functions to N bytes, to check a difference of a few percent
# against code layout, which alone moves a program's time that much.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Built, not go run: its exit status (2 for bad flags) passes through.
go build -o "$tmp/filesbench" ./bench/files
status=0
"$tmp/filesbench" "$@" || status=$?
exit "$status"
