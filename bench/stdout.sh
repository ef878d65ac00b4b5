#!/usr/bin/env bash
# bench/stdout.sh: golang/go#3463's program (fmt.Println(i) for i below N)
# and a fmt.Printf("%d %s\n") loop, built plainly and with
# `stdiobuf build -stdout`, against the same loops in C with printf: into
# /dev/null, a file, a pipe read by `cat > /dev/null`, and a
# pseudo-terminal (through script(1), whose own copying is the same for
# all three programs). The -stdout build runs twice: with its default
# bound on how long output waits, and with STDIOBUF_MAXDELAY=none (no
# bound, glibc's rule): the difference is what the bound costs a fast
# writer. Medians of interleaved runs, of wall and of CPU time (which a
# loaded machine disturbs less), and write(2) calls on standard output
# counted with strace.
#
#   bench/stdout.sh [-n LINES] [-c LINES] [-r RUNS] [-o RESULTS.md]
#
# Defaults: 16777216 lines timed (-n, 2^24; the Go issue printed 2^25),
# write(2) calls counted over 1048576 lines (-c: strace slows every call,
# and the count is proportional), 5 runs. Needs cc, strace and script.
# Writes the table to standard output and to RESULTS.md (default
# bench/results/<date>-stdout.md).
set -euo pipefail
cd "$(dirname "$0")/.."

n=$((1 << 24))
count=$((1 << 20))
runs=5
out="bench/results/$(date -u +%Y-%m-%d)-stdout.md"
while getopts "n:c:r:o:" opt; do
	case $opt in
	n) n=$OPTARG ;;
	c) count=$OPTARG ;;
	r) runs=$OPTARG ;;
	o) out=$OPTARG ;;
	*) echo "usage: $0 [-n LINES] [-c LINES] [-r RUNS] [-o RESULTS.md]" >&2; exit 2 ;;
	esac
done
for tool in cc strace script; do
	command -v "$tool" >/dev/null || { echo "$0: needs $tool" >&2; exit 1; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/stdiobuf" ./cmd/stdiobuf
go build -o "$tmp/go-plain" ./bench/stdout
"$tmp/stdiobuf" build -stdout -o "$tmp/go-stdout" ./bench/stdout
cc -O2 -o "$tmp/c-printf" bench/c/println.c

# to SINK CMD...: runs CMD with its standard output to SINK.
to() {
	local sink=$1
	shift
	case $sink in
	devnull) "$@" >/dev/null ;;
	file) "$@" >"$tmp/out" ;;
	pipe) "$@" | cat >/dev/null ;;
	pty) script -qefc "$(printf '%q ' "$@")" /dev/null >/dev/null </dev/null ;;
	esac
}

# bin PROG: the binary PROG runs; go-stdout-nobound is go-stdout with no
# bound (it sets STDIOBUF_MAXDELAY for the caller's subshell).
bin() {
	case $1 in
	go-stdout-nobound) echo "$tmp/go-stdout" ;;
	*) echo "$tmp/$1" ;;
	esac
}

# cpusum FILE: the user and system time of the children in FILE, what
# bash's times builtin printed (its second line), in seconds.
cpusum() {
	awk 'NR == 2 { s = 0; for (i = 1; i <= NF; i++) { split($i, p, "m"); sub(/s$/, "", p[2]); s += p[1] * 60 + p[2] } print s }' "$1"
}

# run PROG SINK ARGS...: one timed run; prints its wall time and the CPU
# time (user and system) of its processes (cat's and script's too, into a
# pipe and a terminal), in seconds. times runs in this shell, around
# nothing but the run, so that the children it counts are the run's.
run() (
	local prog=$1 sink=$2
	shift 2
	[ "$prog" = go-stdout-nobound ] && export STDIOBUF_MAXDELAY=none
	local b t0 t1
	b=$(bin "$prog")
	t0=$(date +%s%N)
	times >"$tmp/times0"
	to "$sink" "$b" "$@"
	times >"$tmp/times1"
	t1=$(date +%s%N)
	awk -v a="$t0" -v b="$t1" -v c="$(cpusum "$tmp/times0")" -v d="$(cpusum "$tmp/times1")" \
		'BEGIN { printf "%.3f %.3f\n", (b - a) / 1e9, d - c }'
)

# writes PROG SINK ARGS...: write(2) calls on descriptor 1.
writes() (
	local prog=$1 sink=$2
	shift 2
	[ "$prog" = go-stdout-nobound ] && export STDIOBUF_MAXDELAY=none
	local log="$tmp/strace.log"
	to "$sink" strace -f -o "$log" -e trace=write "$(bin "$prog")" "$@"
	grep -c 'write(1,' "$log" || true
)

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

progs=(go-plain go-stdout go-stdout-nobound c-printf)
sinks=(devnull file pipe pty)
loops=(println printf)
declare -A times cpus
load0=$(cut -d' ' -f1-3 /proc/loadavg)
echo "# stdout: $runs interleaved runs, $n lines" >&2
for ((r = 1; r <= runs; r++)); do
	for loop in "${loops[@]}"; do
		flag=()
		[ "$loop" = printf ] && flag=(-printf)
		for sink in "${sinks[@]}"; do
			for prog in "${progs[@]}"; do
				read -r s c < <(run "$prog" "$sink" "${flag[@]}" "-n=$n")
				times[$loop/$sink/$prog]+="$s "
				cpus[$loop/$sink/$prog]+="$c "
			done
		done
	done
	echo "# round $r of $runs done" >&2
done

declare -A med cpu wr
for loop in "${loops[@]}"; do
	flag=()
	[ "$loop" = printf ] && flag=(-printf)
	for sink in "${sinks[@]}"; do
		for prog in "${progs[@]}"; do
			k=$loop/$sink/$prog
			med[$k]=$(tr ' ' '\n' <<<"${times[$k]}" | grep . | median)
			cpu[$k]=$(tr ' ' '\n' <<<"${cpus[$k]}" | grep . | median)
			wr[$k]=$(writes "$prog" "$sink" "${flag[@]}" "-n=$count")
		done
	done
done

# ratio A B: A / B to two decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

{
	echo "# stdout buffering: plain Go, Go built with \`stdiobuf build -stdout\`, C printf"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs, $(uname -sr), $(go version | cut -d' ' -f3),"
	echo "$(ldd --version | head -1 | sed 's/.*) //;s/^/glibc /'); load average at the start: $load0; at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
	echo "$n lines, median of $runs interleaved runs (wall seconds; CPU time: user + system of the run's processes, cat's and script's included);"
	echo "writes = write(2) calls on descriptor 1 for $count lines (strace, one run)."
	echo "Command: \`bench/stdout.sh -n $n -c $count -r $runs\`"
	echo
	echo "| loop | output | plain Go | -stdout | C printf | plain / -stdout | same, CPU time | -stdout / C | writes plain | writes -stdout | writes C |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	for loop in "${loops[@]}"; do
		for sink in "${sinks[@]}"; do
			k=$loop/$sink
			echo "| $loop | $sink | ${med[$k/go-plain]} | ${med[$k/go-stdout]} | ${med[$k/c-printf]} | $(ratio "${med[$k/go-plain]}" "${med[$k/go-stdout]}")x | $(ratio "${cpu[$k/go-plain]}" "${cpu[$k/go-stdout]}")x | $(ratio "${med[$k/go-stdout]}" "${med[$k/c-printf]}")x | ${wr[$k/go-plain]} | ${wr[$k/go-stdout]} | ${wr[$k/c-printf]} |"
		done
	done
	echo
	echo "The bound's cost: the -stdout build with its default bound on how long output waits, and with STDIOBUF_MAXDELAY=none (no bound);"
	echo "wall and CPU (user + system, of cat and script too into a pipe and a terminal) seconds, medians of the same runs."
	echo
	echo "| loop | output | wall, bound | wall, none | ratio | CPU, bound | CPU, none | ratio | writes, bound | writes, none |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	for loop in "${loops[@]}"; do
		for sink in "${sinks[@]}"; do
			k=$loop/$sink
			echo "| $loop | $sink | ${med[$k/go-stdout]} | ${med[$k/go-stdout-nobound]} | $(ratio "${med[$k/go-stdout]}" "${med[$k/go-stdout-nobound]}")x | ${cpu[$k/go-stdout]} | ${cpu[$k/go-stdout-nobound]} | $(ratio "${cpu[$k/go-stdout]}" "${cpu[$k/go-stdout-nobound]}")x | ${wr[$k/go-stdout]} | ${wr[$k/go-stdout-nobound]} |"
		done
	done
} | tee "$out"
