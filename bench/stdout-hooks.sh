#!/usr/bin/env bash
# bench/stdout-hooks.sh: what -stdout's runtime hooks cost
# (internal/osstdout/runtime.go). bench/stdouthooks built three ways:
# plainly, with `stdiobuf build -stdout` of this checkout, and with that of
# REV, another revision to compare with; timed as medians of interleaved
# rounds:
#
#   - start: `stdouthooks hello` (one line, then exit) run 100 times a
#     round, standard output to /dev/null: -stdout starts a thread and a
#     goroutine for fatal signals at init;
#   - println: N calls of the runtime's println, standard error to
#     /dev/null and standard output to a file (not the same file: the
#     hook asks os and returns), and both into one file (2>&1: the hook
#     flushes an empty buffer);
#   - mixed: N pairs of fmt.Println and println, 2>&1 into one file (each
#     println flushes the line before it);
#   - sigterm: the time from kill(2) to the end of wait(2), for a program
#     asleep with 100 lines buffered for a file (20 kills a round): -stdout
#     flushes them first, on a goroutine its signal thread wakes.
#
#   bench/stdout-hooks.sh [-r ROUNDS] [-n N] [-b REV] [-o RESULTS.md]
#
# Defaults: 11 rounds, N = 200000, REV = main. Writes the table to
# standard output and to RESULTS.md (default
# bench/results/<date>-stdout-hooks.md).
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=11
n=200000
rev=main
out="bench/results/$(date -u +%Y-%m-%d)-stdout-hooks.md"
while getopts "r:n:b:o:" opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	n) n=$OPTARG ;;
	b) rev=$OPTARG ;;
	o) out=$OPTARG ;;
	*) echo "usage: $0 [-r ROUNDS] [-n N] [-b REV] [-o RESULTS.md]" >&2; exit 2 ;;
	esac
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/before"
git archive "$rev" | tar -x -C "$tmp/before"
go build -o "$tmp/stdiobuf" ./cmd/stdiobuf
(cd "$tmp/before" && go build -o "$tmp/stdiobuf-before" ./cmd/stdiobuf)
go build -o "$tmp/plain" ./bench/stdouthooks
"$tmp/stdiobuf" build -stdout -o "$tmp/hooks" ./bench/stdouthooks
"$tmp/stdiobuf-before" build -stdout -o "$tmp/before-hooks" ./bench/stdouthooks

# once BIN CASE: one timed run of CASE; prints nanoseconds.
once() {
	local bin=$1 c=$2 t0 t1 total=0
	if [ "$c" = sigterm ]; then
		for _ in $(seq 20); do
			kill_after_ready "$bin"
			total=$((total + killed_in))
		done
		echo "$total"
		return
	fi
	t0=$(date +%s%N)
	case $c in
	start) for _ in $(seq 100); do "$bin" hello >/dev/null; done ;;
	println-apart) "$bin" println "$n" >"$tmp/o" 2>/dev/null ;;
	println-same) "$bin" println "$n" >"$tmp/o" 2>&1 ;;
	mixed-same) "$bin" mixed "$n" >"$tmp/o" 2>&1 ;;
	esac
	t1=$(date +%s%N)
	echo $((t1 - t0))
}

# kill_after_ready BIN: starts `BIN wait 100`, waits for its ready line,
# sends SIGTERM and waits for its end; sets killed_in to the nanoseconds
# from kill to the end of wait, and checks the status and (but for
# -stdout before the hooks, which loses them) the lines.
kill_after_ready() {
	local bin=$1 pid line status k0
	"$bin" wait 100 >"$tmp/o" 2>"$tmp/fifo" &
	pid=$!
	read -r line <"$tmp/fifo"
	k0=$(date +%s%N)
	kill -TERM "$pid"
	wait "$pid" && status=0 || status=$?
	killed_in=$(($(date +%s%N) - k0))
	local lines
	lines=$(wc -l <"$tmp/o")
	if [ "$status" != 143 ] || { [ "$lines" != 100 ] && [ "$bin" != "$tmp/before-hooks" ]; }; then
		echo "$0: $bin wait: status $status, $lines lines; want 143 and 100" >&2
		exit 1
	fi
}

mkfifo "$tmp/fifo"
cases=(start println-apart println-same mixed-same sigterm)
bins=(plain before-hooks hooks)
for r in $(seq "$rounds"); do
	for c in "${cases[@]}"; do
		for b in "${bins[@]}"; do
			once "$tmp/$b" "$c" >>"$tmp/t-$c-$b"
		done
	done
	echo "round $r of $rounds" >&2
done

median() { sort -n "$1" | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

{
	echo "# What -stdout's runtime hooks cost (\`bench/stdout-hooks.sh\`)"
	echo
	echo "- $(date -u '+%Y-%m-%d %H:%M UTC'); $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs; load average at the end $(cut -d' ' -f1-3 /proc/loadavg) (other work was running)"
	echo "- $(go version); command: \`bench/stdout-hooks.sh -r $rounds -n $n -b $rev\`; medians of $rounds interleaved rounds"
	echo "- before: -stdout of $rev ($(git rev-parse --short "$rev")), without the hooks; hooks: this checkout ($(git rev-parse --short HEAD)$(git diff --quiet || echo '+changes'))"
	echo
	echo "| case | plain | -stdout before | -stdout with hooks | hooks / before |"
	echo "|---|---|---|---|---|"
	for c in "${cases[@]}"; do
		p=$(median "$tmp/t-$c-plain")
		b=$(median "$tmp/t-$c-before-hooks")
		h=$(median "$tmp/t-$c-hooks")
		case $c in
		start) unit="µs a run"; div=100000 ;;
		sigterm) unit="µs from kill to exit"; div=20000 ;;
		*) unit="ms"; div=1000000 ;;
		esac
		awk -v c="$c" -v u="$unit" -v d="$div" -v p="$p" -v b="$b" -v h="$h" \
			'BEGIN { printf "| %s (%s) | %.1f | %.1f | %.1f | %.3f |\n", c, u, p / d, b / d, h / d, h / b }'
	done
	echo
	echo "start: 100 runs of \`stdouthooks hello\` a round; println: $n println calls; mixed: $n fmt.Println and println pairs; sigterm: 20 kills a round of a program asleep with 100 lines buffered (-stdout before the hooks loses them: its status is checked, not its lines)."
} | tee "$out"
