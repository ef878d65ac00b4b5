#!/usr/bin/env bash
# smallblksize.sh times `getdelim --loop` (one getdelim and one fwrite a
# line, through the buffers) on ext4 made with `mkfs.ext4 -b 1024`, whose
# files report st_blksize 1024 (issue 16 item 5), under policy bufio
# (Go's 4096) and policy blksize (the default), and under both with the
# getdelim given by --before, built from an older tree, to show what the
# default did there. Target: blksize at most 1.05x bufio's time.
#
# The input is headbench's shape (bench/seedinput), --lines lines (default
# 63250, about 50 MB), copied to a fresh ext4 -b 1024 loop mount and read
# from the page cache (one untimed pass first). The output goes to
# /dev/null (st_blksize 4096: only the input is read in small blocks) and
# to a file on the mount (both streams on it). Runs are interleaved: each
# round runs every command once, starting one command further on than the
# last; figures are medians of the rounds' wall times, from fork to exit.
#
# Usage: bench/smallblksize.sh [--rounds R] [--lines L] [--before GETDELIM]
#
#   --rounds R           timed rounds (default 11)
#   --lines L            input lines (default 63250)
#   --before GETDELIM    also time this getdelim (e.g. built from main)
#
# Needs root (the mount), mkfs.ext4 and go. Prints a Markdown table with
# the date, machine and load. Exit status: 0 when blksize is at most 1.05x
# bufio on both outputs, 1 when not, 2 on a usage or setup error.
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
run() { # run CMD: prints the wall time of one run in microseconds
	local tool policy out bin dst t0 t1
	IFS=: read -r tool policy out <<<"$1"
	bin=$work/getdelim
	[[ $tool == before ]] && bin=$before
	dst=/dev/null
	[[ $out == file ]] && dst=$mnt/out.txt
	t0=$EPOCHREALTIME
	"$bin" --loop --policy "$policy" -n "$lines" "$input" >"$dst" || die "$1 failed"
	t1=$EPOCHREALTIME
	echo $(((${t1/./} - ${t0/./})))
}
declare -A times
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for ((r = 0; r < rounds; r++)); do
	n=${#cmds[@]}
	for ((i = 0; i < n; i++)); do
		c=${cmds[$(((i + r) % n))]}
		times[$c]+="$(run "$c") "
	done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2)}'; }

status=0
echo "# getdelim --loop on ext4 -b 1024 (st_blksize 1024)"
echo
echo "$(date -u +'%Y-%m-%d %H:%M UTC'), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(uname -sr), $(go version | cut -d' ' -f3); load average $load_before before, $load_after after"
echo
echo "Input: $lines lines, $(stat -c %s "$input") bytes. Median of $rounds interleaved rounds."
echo "Command: bench/smallblksize.sh --rounds $rounds --lines $lines${before:+ --before GETDELIM}"
echo
echo "| getdelim | output | bufio | blksize | blksize / bufio |"
echo "|---|---|---|---|---|"
for out in null file; do
	for tool in new ${before:+before}; do
		b=$(median "${times[$tool:bufio:$out]}")
		k=$(median "${times[$tool:blksize:$out]}")
		ratio=$(awk -v k="$k" -v b="$b" 'BEGIN {printf "%.3f", k / b}')
		echo "| $tool | ${out/null//dev/null} | $((b / 1000)).$(printf %03d $((b % 1000))) ms | $((k / 1000)).$(printf %03d $((k % 1000))) ms | ${ratio}x |"
		if [[ $tool == new ]] && awk -v r="$ratio" 'BEGIN {exit !(r > 1.05)}'; then
			status=1
		fi
	done
done
exit $status
