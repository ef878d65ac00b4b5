#!/usr/bin/env bash
# pipescan.sh measures what `stdiobuf build -files` pays once, at the
# decision, for a pipe as standard input: the look through /proc for
# another reader of the pipe, which reads /proc/PID/stat of every process
# and the descriptors of the processes of the program's session
# (zz_stdiobuf_pipein.go, files/sys_linux.go). bench/pipescan (a program
# that times its one-byte Reads of standard input) runs built plainly
# and with -files, standard input a FIFO that holds its input; the time
# of its 64th Read, where -files decides (and fills the buffer), less
# the plain build's, is the decision's cost. It runs with N more processes in its session
# (sleep, each with three descriptors) and M outside it (setsid sleep).
#
# Usage: bench/pipescan.sh [--rounds R] [--in "0 100 300"] [--out "0 300"]
#
#   --rounds R    interleaved runs of both builds per setting (default 9)
#   --in LIST     the numbers of processes added to the session
#   --out LIST    the numbers of processes added outside it
#
# Needs go. Prints a Markdown table with the date, machine and load.
set -euo pipefail
export LC_ALL=C

die() { echo "pipescan.sh: $*" >&2; exit 2; }

rounds=9 ins="0 100 300" outs="0 300"
while (($#)); do
	case $1 in
	--rounds) rounds=${2:?}; shift 2 ;;
	--in) ins=${2:?}; shift 2 ;;
	--out) outs=${2:?}; shift 2 ;;
	*) die "unknown argument $1" ;;
	esac
done

cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
pids=()
cleanup() {
	((${#pids[@]})) && kill "${pids[@]}" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
go build -o "$tmp/stdiobuf" ./cmd/stdiobuf
go build -o "$tmp/plain" ./bench/pipescan
"$tmp/stdiobuf" build -files -o "$tmp/files" ./bench/pipescan
head -c 4096 /dev/zero >"$tmp/in"
# Standard input is a FIFO (a pipe to -files) that the program opens
# before the script writes it, so that no other process holds it.
mkfifo "$tmp/in.fifo"

# spawn N [setsid]: N sleeping processes, in this session or not.
spawn() {
	local i
	for ((i = 0; i < $1; i++)); do
		$2 sleep 3600 </dev/null >/dev/null 2>&1 &
		pids+=($!)
	done
}

# median: the median of the numbers on standard input.
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

session=$(awk '{sub(/.*\) /, ""); split($0, f, " "); print f[4]}' /proc/$$/stat)
echo "# pipescan: the cost of -files' look for other readers of a pipe"
echo
echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "- machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs, Linux $(uname -r); $(go version | cut -d' ' -f3-)"
echo "- load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- $rounds interleaved runs of each build per row; times in microseconds, medians"
echo
echo "| added in session / outside | processes in session / on the machine | 64th Read, plain | 64th Read, -files | decision's cost | -files' later Reads |"
echo "|---|---|---|---|---|---|"
for out in $outs; do
	for in in $ins; do
		spawn "$in" ""
		spawn "$out" setsid
		sleep 1
		total=$(ls /proc | grep -c '^[0-9]')
		insession=$(awk -v s="$session" '{sub(/.*\) /, ""); split($0, f, " "); if (f[4] == s) n++} END {print n}' /proc/[0-9]*/stat 2>/dev/null)
		# Each run prints "decision D median M"; the builds alternate.
		: >"$tmp/plain.out" && : >"$tmp/files.out"
		for ((r = 0; r < rounds; r++)); do
			"$tmp/plain" <"$tmp/in.fifo" >>"$tmp/plain.out" & cat "$tmp/in" >"$tmp/in.fifo"; wait $!
			"$tmp/files" <"$tmp/in.fifo" >>"$tmp/files.out" & cat "$tmp/in" >"$tmp/in.fifo"; wait $!
		done
		p=$(awk '{print $2}' "$tmp/plain.out" | median) f=$(awk '{print $2}' "$tmp/files.out" | median)
		echo "| $in / $out | $insession / $total | $p | $f | $(awk -v a="$f" -v b="$p" 'BEGIN {printf "%.1f", a - b}') | $(awk '{print $4}' "$tmp/files.out" | median) |"
		((${#pids[@]})) && kill "${pids[@]}" 2>/dev/null
		wait 2>/dev/null || true
		pids=()
	done
done
echo
echo "- load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
