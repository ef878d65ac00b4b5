#!/usr/bin/env bash
# zerocopy.sh measures the zero-copy path of `getdelim -c N`
# against GNU head -c, GNU cat and read/write copies:
#
#   file to file:  wall time of `getdelim -c N F > out`, `head -c N F > out`
#                  and `cat F > out`; target: getdelim at least 2x faster
#                  than head -c.
#   into a pipe:   CPU time (user + sys) of the copying process alone, with
#                  `cat >/dev/null` and with `pv -q >/dev/null` reading the
#                  pipe; target: getdelim at most half of a read/write copy
#                  by the same program, `getdelim --loop --policy 128K -c N`
#                  (the same Go runtime and start-up, 128 KiB reads and
#                  writes). The ratio to `dd bs=128K`, a C program, is shown
#                  too; it does not count for the exit status. Most of what
#                  the kernel copy still costs is waking the reader every
#                  64 KiB, the pipe's size, as dd does.
#
# Each figure is the median of --runs runs, after one untimed run that warms
# the page cache. The input is headbench's: the head benchmark's 290955
# lines (as in the glibc proposal, about 230 MB), made with
# internal/seedinput and cached where cmd/headbench caches it; --lines
# makes a smaller one to try the script, --input times another file.
#
# Usage: bench/zerocopy.sh [--runs R] [--lines L | --input FILE] [--bytes N]
#                          [--getdelim PATH] [--raw FILE]
#
#   --runs R         timed runs per command (default 5)
#   --lines L        seed input of L lines instead of 290955
#   --input FILE     time FILE instead of the seed input
#   --bytes N        copy N bytes (default: the whole input)
#   --getdelim PATH  the getdelim to time (default: built from ./cmd/getdelim)
#   --raw FILE       also write every run as a TSV line: case tool run real user sys
#
# Exit status: 0 when every target is met, 1 when one is missed, 2 on a
# usage or setup error.
set -euo pipefail

die() { echo "zerocopy.sh: $*" >&2; exit 2; }

runs=5 lines=290955 input="" bytes="" getdelim="" raw=""
while (($#)); do
	case $1 in
	--runs) runs=${2:?}; shift 2 ;;
	--lines) lines=${2:?}; shift 2 ;;
	--input) input=${2:?}; shift 2 ;;
	--bytes) bytes=${2:?}; shift 2 ;;
	--getdelim) getdelim=${2:?}; shift 2 ;;
	--raw) raw=${2:?}; shift 2 ;;
	-h | --help) sed -n '2,/^set -e/{/^set -e/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	*) die "unknown argument $1 (see --help)" ;;
	esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "--runs: want a positive count, got $runs"
[[ $lines =~ ^[1-9][0-9]*$ ]] || die "--lines: want a positive count, got $lines"
for tool in head cat dd pv; do
	command -v "$tool" >/dev/null || die "$tool is not installed"
done

root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/zerocopy.XXXXXX")
trap 'rm -rf "$work"' EXIT

if [[ -z $getdelim ]]; then
	(cd "$root" && go build -o "$work/getdelim" ./cmd/getdelim) || die "cannot build ./cmd/getdelim"
	getdelim=$work/getdelim
fi
[[ -x $getdelim ]] || die "$getdelim is not an executable"

if [[ -z $input ]]; then
	input=$(cd "$root" && go run ./bench/seedinput "$lines") || die "cannot make the seed input"
fi
[[ -f $input ]] || die "$input is not a regular file"
size=$(stat -c %s "$input")
n=${bytes:-$size}
[[ $n =~ ^[0-9]+$ ]] || die "--bytes: want a byte count, got $n"
want=$((n < size ? n : size))

# The read/write copy for the baseline: getdelim's own loop, with dd's
# buffer size where --policy is there.
for try in "--loop --policy 128K" "--loop" ""; do
	read -ra loop <<<"$try"
	((${#loop[@]})) || break
	"$getdelim" "${loop[@]}" -c 1 /dev/null >/dev/null 2>&1 && break
done
((${#loop[@]})) || echo "getdelim has no --loop: the read/write baseline is dd bs=128K"

TIMEFORMAT='%R %U %S'
out=$work/out

# timed CASE TOOL CONSUMER CMD...: runs CMD (stdout to $out, or into a pipe
# to CONSUMER unless CONSUMER is "file") once untimed and $runs times timed,
# and appends "real user sys" of CMD alone to $work/CASE.TOOL.
timed() {
	local case=$1 tool=$2 consumer=$3 i
	shift 3
	for ((i = 0; i <= runs; i++)); do
		rm -f "$out"
		local t=$work/$case.$tool
		((i > 0)) || t=/dev/null
		if [[ $consumer == file ]]; then
			{ time "$@" >"$out" 2>>"$work/stderr"; } 2>>"$t"
		else
			{ time "$@" 2>>"$work/stderr"; } 2>>"$t" | $consumer >/dev/null
		fi
	done
	if [[ -n $raw ]]; then
		awk -v c="$case" -v t="$tool" '{ print c "\t" t "\t" NR "\t" $1 "\t" $2 "\t" $3 }' "$work/$case.$tool" >>"$raw"
	fi
}

# median CASE TOOL FIELD: the median of wall ("real") or CPU ("cpu", user +
# sys) seconds.
median() {
	awk -v f="$3" '{ print (f == "real" ? $1 : $2 + $3) }' "$work/$1.$2" | sort -g |
		awk '{ v[NR] = $1 } END { printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# check WHAT: the last file copy wrote the first $want bytes of the input.
check() {
	cmp -s -n "$want" "$input" "$out" && [[ $(stat -c %s "$out") == "$want" ]] ||
		die "$1 wrote other bytes than the input's first $want"
}

ok=0
verdict() { # verdict TEXT PASS?
	if (($2)); then echo "  $1: met"; else echo "  $1: MISSED"; ok=1; fi
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'; }

echo "input: $input ($size bytes), copying $n bytes, median of $runs runs"
echo "getdelim: $getdelim${loop[*]:+ (read/write baseline: getdelim ${loop[*]})}"
echo "system: $(uname -sr), $(nproc) CPUs, $(head --version | head -1), $(cat --version | head -1 | sed 's/.*) //;s/^/cat /')"
cat "$input" >/dev/null # into the page cache

echo
echo "getdelim --stats -c $n (file to file):"
"$getdelim" --stats -c "$n" "$input" 2>&1 >"$out" | sed 's/^/  /' || true
check "getdelim -c"

echo
echo "file to file: wall seconds"
timed file getdelim file "$getdelim" -c "$n" "$input"
check "getdelim -c"
timed file head file head -c "$n" "$input"
check "head -c"
if ((n >= size)); then
	timed file cat file cat "$input"
	check cat
fi
printf '  %-28s %8s\n' "getdelim -c N F > out" "$(median file getdelim real)" "head -c N F > out" "$(median file head real)"
((n < size)) || printf '  %-28s %8s\n' "cat F > out" "$(median file cat real)"
g=$(median file getdelim real) h=$(median file head real)
verdict "getdelim $(ratio "$h" "$g")x faster than head -c (target: at least 2x)" "$(le "$(awk -v g="$g" 'BEGIN { print 2 * g }')" "$h" && echo 1 || echo 0)"

for consumer in "cat" "pv -q"; do
	c=${consumer%% *}
	echo
	echo "into a pipe to \`$consumer >/dev/null\`: CPU seconds (user + sys) of the copying process"
	timed "$c" getdelim "$consumer" "$getdelim" -c "$n" "$input"
	((${#loop[@]})) && timed "$c" loop "$consumer" "$getdelim" "${loop[@]}" -c "$n" "$input"
	timed "$c" dd "$consumer" dd if="$input" bs=128K count="$n" iflag=count_bytes status=none
	timed "$c" head "$consumer" head -c "$n" "$input"
	printf '  %-36s %8s\n' "getdelim -c N F" "$(median "$c" getdelim cpu)"
	((${#loop[@]})) && printf '  %-36s %8s\n' "getdelim ${loop[*]} -c N F" "$(median "$c" loop cpu)"
	printf '  %-36s %8s\n' "dd if=F bs=128K (count N bytes)" "$(median "$c" dd cpu)" "head -c N F" "$(median "$c" head cpu)"
	g=$(median "$c" getdelim cpu) dd=$(median "$c" dd cpu)
	if ((${#loop[@]})); then
		base=$(median "$c" loop cpu)
		verdict "getdelim uses $(ratio "$g" "$base") of the CPU of getdelim ${loop[*]} (target: at most 0.5)" "$(le "$g" "$(awk -v b="$base" 'BEGIN { print b / 2 }')" && echo 1 || echo 0)"
		echo "  getdelim uses $(ratio "$g" "$dd") of the CPU of dd bs=128K"
	else
		verdict "getdelim uses $(ratio "$g" "$dd") of the CPU of dd bs=128K (target: at most 0.5)" "$(le "$g" "$(awk -v b="$dd" 'BEGIN { print b / 2 }')" && echo 1 || echo 0)"
	fi
done

if [[ -s $work/stderr ]]; then
	echo
	echo "the commands wrote to standard error:"
	sort -u "$work/stderr" | head -5 | sed 's/^/  /'
fi
exit "$ok"
