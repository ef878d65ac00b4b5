#!/usr/bin/env bash
# bench/startup.sh: what a one-line program's start and exit cost under
# `stdiobuf build -stdout` and `-files` (the thread for fatal signals,
# the bound's clock, the first write's decision), against the plain
# build and against another revision's builds: CPU time of the child,
# medians of interleaved rounds, standard output to a file, a pipe and
# /dev/null. bench/startup does the work; its flags pass through:
#
#   bench/startup.sh [-rounds N] [-rev REV] [-case hello|quiet] [-out RESULTS.md]
#
# Defaults: 201 rounds (about 4 minutes on a 2-CPU machine), REV main,
# bench/results/<date>-startup.md.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/startup" ./bench/startup
"$tmp/startup" "$@"
