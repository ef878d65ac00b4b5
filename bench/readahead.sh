#!/usr/bin/env bash
# readahead.sh measures read-ahead (policy readahead, PolicyReadahead) on
# headbench's input on an XFS mount with st_blksize 131072, output /dev/null:
#
#   loop:     `getdelim --loop` with and without read-ahead against the C
#             getdelim/fwrite loop with glibc's 128 KiB rule
#             (bench/c/getdelim_loop.c -i rule -o rule);
#             targets: with read-ahead at most 0.85x the C loop's time on
#             2 CPUs, for at most 1.15x the CPU time (user+sys) of the run
#             without read-ahead, and no slower than without read-ahead on
#             1 CPU;
#   default:  `getdelim -n` (the default path) with and without read-ahead
#             against `cat FILE > /dev/null`; target: with read-ahead at
#             most 1.0x cat's time on 2 CPUs, and no slower than without
#             read-ahead on 1 CPU;
#   scanner:  the Scanner lines benchmark over the file (stream's
#             BenchmarkReadaheadScannerLines): a Scanner straight over the
#             file, over a Reader without and over one with read-ahead.
#
# Each is run on 2 CPUs (taskset -c 0,1) and pinned to 1 (taskset -c 0;
# Go then runs with GOMAXPROCS=1, and read-ahead is off: with and without
# it run the same code, so the 1-CPU targets allow 2% for the runs'
# noise), with the file in the page cache (warm:
# one untimed pass first) and out of it (cold: `echo 3 >
# /proc/sys/vm/drop_caches` before every timed run, so the overlap is with
# the device, not a memcpy). Runs are interleaved: each round runs every
# command once, starting one command further on than the last round;
# figures are medians of the rounds. Wall
# time is from fork to exit ($EPOCHREALTIME); the Scanner's is the
# benchmark's ns/op of one pass.
#
# The input is headbench's: 290955 lines of the shape of the glibc
# proposal's input (about 230 MB), made by bench/seedinput where
# cmd/headbench caches it, copied to a fresh XFS loop mount (mount -o
# loop,largeio,allocsize=128k), unmounted and removed at exit.
#
# Usage: bench/readahead.sh [--rounds R] [--lines L] [--dir DIR] [--out DIR]
#                           [--cpus "2 1"] [--cache "warm cold"]
#
#   --rounds R     timed rounds (default 11)
#   --lines L      an input of L lines instead of 290955 (to try the script)
#   --dir DIR      put the input in DIR instead of a fresh XFS mount
#   --out DIR      write runs.tsv and summary.md there (default:
#                  bench/results/<UTC date>-readahead)
#   --cpus LIST    CPU counts to run on, of 2 and 1 (default "2 1")
#   --cache LIST   cache states, of warm and cold (default "warm cold")
#
# Needs root (the mount, drop_caches), taskset, cc and go. Exit status: 0
# when every target is met, 1 when one is missed, 2 on a usage or setup
# error.
set -euo pipefail
# $EPOCHREALTIME's decimal point is the locale's.
export LC_ALL=C

die() { echo "readahead.sh: $*" >&2; exit 2; }

rounds=11 lines=290955 dir="" out="" cpus="2 1" caches="warm cold"
while (($#)); do
	case $1 in
	--rounds) rounds=${2:?}; shift 2 ;;
	--lines) lines=${2:?}; shift 2 ;;
	--dir) dir=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	--cpus) cpus=${2:?}; shift 2 ;;
	--cache) caches=${2:?}; shift 2 ;;
	-h | --help) sed -n '2,/^set -e/{/^set -e/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) die "unknown argument $1 (see --help)" ;;
	esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "--rounds: want a positive count, got $rounds"
[[ $lines =~ ^[1-9][0-9]*$ ]] || die "--lines: want a positive count, got $lines"
for c in $cpus; do [[ $c == 1 || $c == 2 ]] || die "--cpus: want 1 or 2, got $c"; done
for c in $caches; do [[ $c == warm || $c == cold ]] || die "--cache: want warm or cold, got $c"; done
for tool in taskset cat cc go; do
	command -v "$tool" >/dev/null || die "$tool is not installed"
done
if [[ $caches == *cold* ]] && ! [[ -w /proc/sys/vm/drop_caches ]]; then
	die "cold runs need root to write /proc/sys/vm/drop_caches (or use --cache warm)"
fi
(($(nproc --all) >= 2)) || [[ $cpus == 1 ]] || die "2-CPU runs need 2 CPUs (or use --cpus 1)"

root=$(cd "$(dirname "$0")/.." && pwd)
out=${out:-$root/bench/results/$(date -u +%F)-readahead}
work=$(mktemp -d "${TMPDIR:-/tmp}/readahead.XXXXXX")
mnt=""
cleanup() {
	if [[ -n $mnt ]] && mountpoint -q "$mnt"; then
		umount "$mnt" || umount -l "$mnt"
	fi
	rm -rf "$work"
}
trap cleanup EXIT

echo "== building (getdelim, the C loop, stream's test binary)" >&2
(cd "$root" && go build -o "$work/getdelim" ./cmd/getdelim) || die "cannot build ./cmd/getdelim"
cc -O2 -o "$work/getdelim_loop" "$root/bench/c/getdelim_loop.c" || die "cannot build bench/c/getdelim_loop.c"
(cd "$root" && go test -c -o "$work/stream.test" ./stream) || die "cannot build stream's tests"

echo "== making the input ($lines lines)" >&2
seed=$(cd "$root" && go run ./bench/seedinput "$lines") || die "cannot make the input"

if [[ -z $dir ]]; then
	echo "== mounting XFS (largeio, allocsize=128k)" >&2
	command -v mkfs.xfs >/dev/null || die "mkfs.xfs is not installed (apt-get install xfsprogs), or use --dir"
	mnt=$work/mnt
	mkdir "$mnt"
	truncate -s 700M "$work/xfs.img"
	mkfs.xfs -q "$work/xfs.img" || die "mkfs.xfs failed"
	mount -o loop,largeio,allocsize=128k "$work/xfs.img" "$mnt" || die "cannot mount the XFS image (root? loop devices?)"
	dir=$mnt
fi
input=$dir/input.txt
cp "$seed" "$input"
sync
blksize=$(stat -c %o "$input")
[[ -n $mnt && $blksize != 131072 ]] && die "st_blksize of the input is $blksize, want 131072"
size=$(stat -c %s "$input")
nlines=$lines

# The commands, by name. Each reads the input and writes /dev/null.
names=(c-loop loop loop-ra n n-ra cat scanner-file scanner-reader scanner-readahead)
cpu() { # cpu: sets cpu_ns to the user+sys time of this shell's children so far
	local u s
	# times in a pipe or $(...) would run in a subshell, without them.
	times >"$work/times.$BASHPID"
	{ read -r _; read -r u s; } <"$work/times.$BASHPID"
	rm -f "$work/times.$BASHPID"
	local mu ms_
	mu=$(ms "$u") && ms_=$(ms "$s") || exit 1
	cpu_ns=$(((mu + ms_) * 1000000))
}
ms() { # ms 0m0.049s: the milliseconds
	[[ $1 =~ ^([0-9]+)m([0-9]+)\.([0-9]{3})s$ ]] || { echo "readahead.sh: times printed '$1'" >&2; exit 1; }
	echo $((10#${BASH_REMATCH[1]} * 60000 + 10#${BASH_REMATCH[2]} * 1000 + 10#${BASH_REMATCH[3]}))
}
run() { # run NAME: runs one command and prints its wall and CPU times in ns;
	# a command that fails makes run fail (the caller dies), not a time
	local t0 t1 ns
	case $1 in
	scanner-*)
		# One pass of the sub-benchmark, in a process of its own so that a
		# cold run starts cold; its ns/op is the time of the pass.
		ns=$("$work/stream.test" -test.run='^$' -test.bench="^BenchmarkReadaheadScannerLines\$/^${1#scanner-}\$" \
			-test.benchtime=1x -readahead.file="$input" | awk '/^BenchmarkReadaheadScannerLines/ { print $3 }') || exit 1
		cpu
		echo "$ns $cpu_ns"
		return
		;;
	esac
	t0=$EPOCHREALTIME
	case $1 in
	c-loop) "$work/getdelim_loop" -i rule -o rule <"$input" >/dev/null ;;
	loop) "$work/getdelim" --loop --policy blksize -n "$nlines" <"$input" >/dev/null ;;
	loop-ra) "$work/getdelim" --loop --policy readahead -n "$nlines" <"$input" >/dev/null ;;
	n) "$work/getdelim" --policy blksize -n "$nlines" <"$input" >/dev/null ;;
	n-ra) "$work/getdelim" --policy readahead -n "$nlines" <"$input" >/dev/null ;;
	cat) cat "$input" >/dev/null ;;
	*) false ;;
	esac || exit 1
	t1=$EPOCHREALTIME
	cpu
	echo "$(((${t1/./} - ${t0/./}) * 1000)) $cpu_ns"
}
export -f run cpu ms
export work input nlines

mkdir -p "$out"
tsv=$out/runs.tsv
printf 'cpus\tcache\tround\tcommand\tns\tcpu_ns\n' >"$tsv"
load_before=$(cut -d' ' -f1 /proc/loadavg)
started=$(date -u '+%F %H:%M UTC')

for c in $cpus; do
	set=0,1
	[[ $c == 1 ]] && set=0
	for cache in $caches; do
		echo "== $c CPU(s), $cache cache: $rounds rounds" >&2
		if [[ $cache == warm ]]; then
			cat "$input" >/dev/null
		fi
		for ((r = 1; r <= rounds; r++)); do
			# Each round starts one command further on, so that no command
			# always follows the same one.
			for ((k = 0; k < ${#names[@]}; k++)); do
				name=${names[(k + r) % ${#names[@]}]}
				if [[ $cache == cold ]]; then
					sync
					echo 3 >/proc/sys/vm/drop_caches
				fi
				res=$(taskset -c "$set" bash -c "run $name") || die "$name failed on $c CPU(s)"
				[[ $res =~ ^[0-9]+\ [0-9]+$ ]] || die "$name printed no time on $c CPU(s)"
				printf '%s\t%s\t%d\t%s\t%s\t%s\n' "$c" "$cache" "$r" "$name" "${res% *}" "${res#* }" >>"$tsv"
			done
		done
	done
done
load_after=$(cut -d' ' -f1 /proc/loadavg)

# The summary: medians, ratios and the targets.
summary=$out/summary.md
awk -F'\t' -v started="$started" -v size="$size" -v lines="$lines" -v blksize="$blksize" \
	-v rounds="$rounds" -v lb="$load_before" -v la="$load_after" -v cpus="$(nproc --all)" \
	-v kernel="Linux $(uname -r), $(go version | cut -d' ' -f3), glibc $(ldd --version 2>/dev/null | sed -n '1s/.* //p')" -v model="$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)" '
function median(list,   n, i, j, t, v) {
	n = split(list, v, " ")
	for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j+1] = v[j]; v[j+1] = t }
	return n % 2 ? v[(n+1)/2] : (v[n/2] + v[n/2+1]) / 2
}
function ms(ns) { return sprintf("%.1f ms", ns / 1e6) }
# target prints one warm-cache target: the ratio of the medians of two commands
# on c CPUs against limit, and counts a miss in fail.
# (cpu: of the medians of CPU time instead of wall time)
function target(c, num, den, limit, what, rule, cpu,   t, r, ok) {
	t = c SUBSEP "warm"
	if (!((t SUBSEP num) in m) || !((t SUBSEP den) in m)) return
	r = cpu ? cm[t SUBSEP num] / cm[t SUBSEP den] : m[t SUBSEP num] / m[t SUBSEP den]
	ok = r <= limit; fail += !ok
	printf "- %s = %.2f (%s): %s\n", what, r, rule, ok ? "met" : "MISSED"
}
NR > 1 { k = $1 SUBSEP $2 SUBSEP $4; vals[k] = vals[k] " " $5; cvals[k] = cvals[k] " " $6; seen[$1 SUBSEP $2] = 1; cmds[$4] = 1 }
END {
	print "# read-ahead: bench/readahead.sh"
	print ""
	printf "- Date: %s; %d rounds; machine: %d CPUs (%s), %s; load average (1 min) %s before, %s after\n", started, rounds, cpus, model, kernel, lb, la
	printf "- Input: headbench'"'"'s, %d lines, %d bytes, st_blksize %d; output /dev/null\n", lines, size, blksize
	print "- Median wall time of interleaved runs, and median CPU time (user+sys of the process, from bash'"'"'s times, in ms steps); the scanner rows are the benchmark'"'"'s ns/op of one pass (file: a Scanner straight over the file; reader: over a Reader; readahead: over a Reader with read-ahead)"
	print ""
	print "| cpus | cache | command | median | CPU (user+sys) | |"
	print "|---|---|---|---|---|---|"
	order = "c-loop loop loop-ra n n-ra cat scanner-file scanner-reader scanner-readahead"
	nc = split(order, o, " ")
	fail = 0
	for (s in seen) {
		split(s, sc, SUBSEP)
		for (i = 1; i <= nc; i++) {
			k = s SUBSEP o[i]
			if (!(k in vals)) continue
			m[k] = median(vals[k])
			cm[k] = median(cvals[k])
		}
	}
	for (s in seen) {
		split(s, sc, SUBSEP)
		for (i = 1; i <= nc; i++) {
			k = s SUBSEP o[i]
			if (!(k in m)) continue
			note = cnote = ""
			if (o[i] == "loop-ra" && (s SUBSEP "c-loop") in m) note = sprintf("%.2fx the C loop", m[k] / m[s SUBSEP "c-loop"])
			if (o[i] == "loop-ra" && (s SUBSEP "loop") in m) note = note sprintf(", %.2fx without read-ahead (CPU %.2fx)", m[k] / m[s SUBSEP "loop"], cm[k] / cm[s SUBSEP "loop"])
			if (o[i] == "n-ra" && (s SUBSEP "n") in m) cnote = sprintf(", CPU %.2fx without read-ahead", cm[k] / cm[s SUBSEP "n"])
			if (o[i] == "loop" && (s SUBSEP "c-loop") in m) note = sprintf("%.2fx the C loop", m[k] / m[s SUBSEP "c-loop"])
			if ((o[i] == "n-ra" || o[i] == "n") && (s SUBSEP "cat") in m) note = sprintf("%.2fx cat", m[k] / m[s SUBSEP "cat"])
			if (o[i] == "n-ra") note = note cnote
			if (o[i] == "scanner-readahead" && (s SUBSEP "scanner-reader") in m) note = sprintf("%.2fx without read-ahead", m[k] / m[s SUBSEP "scanner-reader"])
			printf "| %s | %s | %s | %s | %s | %s |\n", sc[1], sc[2], o[i], ms(m[k]), ms(cm[k]), note
		}
	}
	print ""
	print "Targets (warm cache):"
	target("2", "loop-ra", "c-loop", 0.85, "2 CPUs: getdelim --loop with read-ahead / C loop", "target <= 0.85")
	target("2", "loop-ra", "loop", 1.15, "2 CPUs: CPU time of getdelim --loop with / without read-ahead", "target <= 1.15", 1)
	target("1", "loop-ra", "loop", 1.02, "1 CPU: getdelim --loop with / without read-ahead", "target <= 1.0, 2% noise")
	target("2", "n-ra", "cat", 1.0, "2 CPUs: getdelim -n with read-ahead / cat", "target <= 1.0")
	target("1", "n-ra", "n", 1.02, "1 CPU: getdelim -n with / without read-ahead", "target <= 1.0, 2% noise")
	exit fail > 0
}' "$tsv" >"$summary" && status=0 || status=1
# awk's for-in order is unspecified: sort the table rows, keep the rest.
{
	sed -n '1,/^|---/p' "$summary"
	grep '^| [12] ' "$summary" | sort -t'|' -k2,2r -k3,3r -s
	sed -n '/^Targets/,$p' "$summary" | sed '1i\\'
} >"$summary.tmp" && mv "$summary.tmp" "$summary"
cat "$summary"
echo "raw runs: $tsv" >&2
exit $status
