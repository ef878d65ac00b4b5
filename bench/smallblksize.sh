#!/usr/bin/env bash
# smallblksize.sh times `getdelim --loop` (one getdelim and one fwrite a
# line, through the buffers) on ext4 made with `mkfs.ext4 -b 1024`, whose
# files report st_blksize 1024, under policy bufio (Go's 4096) and policy
# blksize (the default), and under both with the getdelim given by
# --before, another build to compare with. Target: blksize at most 1.05x
# bufio's time. It measures the floor of stream's blksize rule
# (blksizeRule: never less than bufio's 4096).
#
# The input is headbench's shape (bench/seedinput), --lines lines (default
# 63250, about 50 MB), copied to a fresh ext4 -b 1024 loop mount and read
# from the page cache (one untimed pass first). The output goes to
# /dev/null (st_blksize 4096: only the input is read in small blocks) and
# to a file on the mount (both streams on it). Runs are interleaved: each
# round runs every command once, starting one command further on than the
# last; figures are medians of the rounds' wall times and CPU times (user
# plus system, from bash's time), the latter less disturbed by a loaded
# machine.
#
# Usage: bench/smallblksize.sh [--rounds R] [--lines L] [--before GETDELIM]
#
#   --rounds R           timed rounds (default 11)
#   --lines L            input lines (default 63250)
#   --before GETDELIM    also time this getdelim (e.g. built from main)
#
# Needs root (the mount), mkfs.ext4 and go. Prints a Markdown table with
# the date, machine and load. Exit status: 0 when blksize's CPU time is at
# most 1.05x bufio's on both outputs, 1 when not, 2 on a usage or setup
# error.
set -euo pipefail
export LC_ALL=C # $EPOCHREALTIME's decimal point is the locale's

die() { echo "smallblksize.sh: $*" >&2; exit 2; }

rounds=11 lines=63250 before=""
while (($#)); do
	case $1 in
	--rounds) rounds=${2:?}; shift 2 ;;
	--lines) lines=${2:?}; shift 2 ;;
	--before) before=${2:?}; shift 2 ;;
	-h | --help) sed -n '2,/^set -e/{/^set -e/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) die "unknown argument $1 (see --help)" ;;
	esac
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "--rounds: want a positive count, got $rounds"
[[ $lines =~ ^[1-9][0-9]*$ ]] || die "--lines: want a positive count, got $lines"
[[ -z $before || -x $before ]] || die "--before: $before is not an executable"
command -v mkfs.ext4 >/dev/null || die "mkfs.ext4 is not installed (apt-get install e2fsprogs)"
((EUID == 0)) || die "needs root to mount the ext4 image"

root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/bench/lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/smallblksize.XXXXXX")
mnt=$work/mnt
cleanup() {
	if mountpoint -q "$mnt" 2>/dev/null; then
		umount "$mnt" || umount -l "$mnt"
	fi
	rm -rf "$work"
}
trap cleanup EXIT

(cd "$root" && go build -o "$work/getdelim" ./cmd/getdelim) || die "cannot build ./cmd/getdelim"
seed=$(cd "$root" && go run ./bench/seedinput "$lines") || die "cannot make the input"
mkdir "$mnt"
truncate -s 256M "$work/ext4.img"
mkfs.ext4 -q -F -b 1024 -E lazy_itable_init=0,lazy_journal_init=0 "$work/ext4.img" || die "mkfs.ext4 failed"
mount -o loop "$work/ext4.img" "$mnt" || die "cannot mount the ext4 image (loop devices?)"
input=$mnt/input.txt
cp "$seed" "$input"
sync
blksize=$(stat -c %o "$input")
[[ $blksize == 1024 ]] || die "st_blksize of the input is $blksize, want 1024"
cat "$input" >/dev/null

# The commands: TOOL:POLICY:OUTPUT.
cmds=()
for out in null file; do
	for tool in new ${before:+before}; do
		for policy in bufio blksize; do
			cmds+=("$tool:$policy:$out")
		done
	done
done
us() { # us 1.234: the microseconds of a time in seconds with 3 decimals
	[[ $1 =~ ^([0-9]+)\.([0-9]{3})$ ]] || die "time printed '$1'"
	echo $((10#${BASH_REMATCH[1]} * 1000000 + 10#${BASH_REMATCH[2]} * 1000))
}
run() { # run CMD: prints the wall and the CPU time of one run in microseconds
	local tool policy out bin dst real user sys
	IFS=: read -r tool policy out <<<"$1"
	bin=$work/getdelim
	[[ $tool == before ]] && bin=$before
	dst=/dev/null
	[[ $out == file ]] && dst=$mnt/out.txt
	TIMEFORMAT='%3R %3U %3S'
	{ time "$bin" --loop --policy "$policy" -n "$lines" "$input" >"$dst" 2>"$work/err"; } 2>"$work/time" ||
		die "$1 failed: $(cat "$work/err")"
	read -r real user sys <"$work/time"
	echo "$(us "$real") $(($(us "$user") + $(us "$sys")))"
}
declare -A wall cpu
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for ((r = 0; r < rounds; r++)); do
	n=${#cmds[@]}
	for ((i = 0; i < n; i++)); do
		c=${cmds[$(((i + r) % n))]}
		read -r w u <<<"$(run "$c")"
		wall[$c]+="$w "
		cpu[$c]+="$u "
	done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'; }
ms() { echo "$(($1 / 1000)).$(printf %03d $(($1 % 1000))) ms"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }

status=0
echo "# getdelim --loop on ext4 -b 1024 (st_blksize 1024)"
echo
echo "$(bench_machine); load average $load_before before, $load_after after"
echo
echo "Input: $lines lines, $(stat -c %s "$input") bytes. Medians of $rounds interleaved rounds."
echo "Command: bench/smallblksize.sh --rounds $rounds --lines $lines${before:+ --before GETDELIM}"
echo
echo "| getdelim | output | bufio wall | blksize wall | ratio | bufio CPU | blksize CPU | ratio |"
echo "|---|---|---|---|---|---|---|---|"
for out in null file; do
	for tool in new ${before:+before}; do
		bw=$(median "${wall[$tool:bufio:$out]}") kw=$(median "${wall[$tool:blksize:$out]}")
		bc=$(median "${cpu[$tool:bufio:$out]}") kc=$(median "${cpu[$tool:blksize:$out]}")
		rc=$(ratio "$kc" "$bc")
		echo "| $tool | ${out/null//dev/null} | $(ms "$bw") | $(ms "$kw") | $(ratio "$kw" "$bw")x | $(ms "$bc") | $(ms "$kc") | ${rc}x |"
		if [[ $tool == new ]] && awk -v r="$rc" 'BEGIN {exit !(r > 1.05)}'; then
			status=1
		fi
	done
done
exit $status
