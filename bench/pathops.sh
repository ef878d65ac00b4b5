#!/usr/bin/env bash
# bench/pathops.sh: issue 30's measure of `stdiobuf build -files` on
# programs that mix per-record output with other file work (a walker, a
# stat report, grep -r, a generator, a transform, a record reader, small
# files, many open files, a pipe read in blocks), against the plain
# build, -stdout, bufio added by hand and C twins on glibc stdio. CPU
# and wall medians of interleaved rounds, system calls under strace -f
# -c, and issue 30's targets. bench/pathops does the work; its flags pass
# through:
#
#   bench/pathops.sh [-rounds R] [-seconds S] [-files N] [-records N] [-layouts L] [-xfs=false] [-rundir DIR] [-programs LIST] [-out DIR]
#
# Defaults: 5 rounds (more, up to 25, for a program whose variant's
# rounds take under 3 CPU seconds), a tree of 10,000 files, 100,000
# records, each Go variant linked 3 times with its functions in another
# random order, the rounds taking the links in turn (code layout alone
# moves a program's CPU time by a few percent, as much as the 1.05
# targets allow); about 5 minutes on a loaded 2-CPU machine. -rundir /dev/shm
# has the programs write on tmpfs, whose CPU times vary less than a
# disk file system's. Needs go, cc and strace; as root it
# also mounts XFS with 128 KiB blocks for the record reader (mkfs.xfs, a
# loop device), and leaves that row out, saying why, where it cannot.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/pathops" ./bench/pathops
status=0
"$tmp/pathops" "$@" || status=$?
exit "$status"
