#!/usr/bin/env bash
# gain.sh measures what stdiobuf's build-time variants give real
# third-party programs: each is fetched through the Go module proxy at a
# pinned version, built plainly (go build), with bufio added by hand where
# a small patch of the check-precision run does it (edit; the patches are
# kept with that run's results), with `stdiobuf build` (stdiobuf), with
# -stdout and with -files, and run on input the script makes, output to a
# regular file. Reported per program and variant: read- and write-family
# system calls (strace -f -c, one run), medians of wall and CPU time (user
# + system) of interleaved rounds, and their ratios to the plain build's;
# every variant's output is compared with the plain build's.
#
# Programs (the three whose gain the check-precision run measured by hand,
# and a fuzzy finder in filter mode, a tool issue 22 names):
#   field           u-root v0.15.0 cmds/exp/field: `field 1,3 FILE > OUT`,
#                   fmt.Print per field to standard output
#   jsonnet-stdout  go-jsonnet v0.22.0 `jsonnet -y -e EXPR > OUT`: two
#                   WriteString per YAML document to standard output
#   jsonnet-o       the same with -o OUT: to a file jsonnet creates itself
#   junit           go-junit-report v2.1.0 `-debug.print-events -in FILE
#                   -out XML 2> OUT`: a json Encode per event to stderr
#   fzf             fzf v0.65.2 `fzf --filter file1 < FILE > OUT`: its own
#                   64 KiB reads, fmt.Println per match
#
# Usage: bench/gain.sh [--quick] [--rounds N] [--out FILE] [--keep DIR]
#   --quick     inputs a tenth the size, 3 rounds unless --rounds says:
#               checks that it all works
#   --rounds N  interleaved timed rounds (default 7)
#   --out FILE  the report (Markdown; default: standard output)
#   --keep DIR  build and run in DIR and keep it (default: a temporary
#               directory, removed at the end)
# Needs go, strace, patch, GNU time (/usr/bin/time) and the module proxy.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

rounds= scale=1 out=/dev/stdout keep=
command=$(printf ' %q' bench/gain.sh "$@")
usage() { sed -n '/^# Usage:/,/^# Needs/s/^# \{0,1\}//p' "$0"; }
while [ $# -gt 0 ]; do
	case $1 in
	--quick) scale=10 ;;
	--rounds) rounds=${2:?--rounds needs a number}; shift ;;
	--out) out=${2:?--out needs a file}; shift ;;
	--keep) keep=${2:?--keep needs a directory}; shift ;;
	-h | --help) usage; exit 0 ;;
	*) echo "gain.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
	esac
	shift
done
if [ -z "$rounds" ]; then
	rounds=7
	[ "$scale" = 1 ] || rounds=3
fi
case $rounds in '' | *[!0-9]* | 0) echo "gain.sh: --rounds: not a positive number: $rounds" >&2; exit 2 ;; esac
for tool in go strace patch /usr/bin/time; do
	command -v "$tool" >/dev/null || { echo "gain.sh: $tool not found" >&2; exit 1; }
done

if [ -n "$keep" ]; then
	work=$(mkdir -p "$keep" && cd "$keep" && pwd)
else
	work=$(mktemp -d)
	trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
fi
export GOFLAGS="-mod=mod -buildvcs=false" GOWORK=off GOTOOLCHAIN=local
load_before=$(uptime)
date_start=$(date -u '+%Y-%m-%d %H:%M UTC')

go build -o "$work/stdiobuf" ./cmd/stdiobuf
patches=$root/bench/results/2026-12-02-check-precision

# module version main-package binary patch (- for none)
modules='
github.com/u-root/u-root v0.15.0 ./cmds/exp/field field gain-field.diff
github.com/google/go-jsonnet v0.22.0 ./cmd/jsonnet jsonnet gain-jsonnet.diff
github.com/jstemmer/go-junit-report/v2 v2.1.0 . go-junit-report gain-junit.diff
github.com/junegunn/fzf v0.65.2 . fzf -'
variants='plain edit stdiobuf stdout files'

# build VARIANT SRC PKG BIN compiles one variant.
build() {
	local v=$1 src=$2 pkg=$3 bin=$4 dst=$work/bin/$1/$4
	mkdir -p "$work/bin/$v"
	case $v in
	plain | edit) (cd "$src" && go build -o "$dst" "$pkg") ;;
	stdiobuf) (cd "$src" && "$work/stdiobuf" build -o "$dst" "$pkg") ;;
	stdout | files) (cd "$src" && "$work/stdiobuf" build "-$v" -o "$dst" "$pkg") ;;
	esac
}

while read -r mod ver pkg bin patch; do
	[ -n "$mod" ] || continue
	dir=$(go mod download -json "$mod@$ver" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
	[ -n "$dir" ] || { echo "gain.sh: go mod download $mod@$ver gave no directory" >&2; exit 1; }
	src=$work/src/$bin
	rm -rf "$src" "$src-edit"
	mkdir -p "$src"
	cp -R "$dir/." "$src"
	chmod -R u+w "$src"
	echo "building $bin ($mod@$ver)" >&2
	for v in $variants; do
		if [ "$v" = edit ]; then
			[ "$patch" != - ] || continue
			cp -R "$src" "$src-edit"
			# The field patch names field.go alone; the others, paths
			# from the module's root.
			pdir=$src-edit
			[ "$bin" != field ] || pdir=$src-edit/cmds/exp/field
			patch -s -p1 -d "$pdir" <"$patches/$patch"
			build edit "$src-edit" "$pkg" "$bin"
		else
			build "$v" "$src" "$pkg" "$bin"
		fi
	done
done <<<"$modules"

# Inputs.
in=$work/in
mkdir -p "$in"
awk -v n=$((200000 / scale)) 'BEGIN { srand(1); for (i = 0; i < n; i++) {
	for (j = 0; j < 6; j++) printf "%s%d", (j ? " " : ""), int(rand() * 1000000); print "" } }' >"$in/fields.txt"
jsonnet_expr="std.makeArray($((100000 / scale)), function(i) {a: i})"
awk -v n=$((5000 / scale)) 'BEGIN { for (i = 0; i < n; i++) {
	printf "=== RUN   Test%d\n--- PASS: Test%d (0.00s)\n", i, i }
	print "PASS"; print "ok  \texample.com/gain\t0.123s" }' >"$in/gotest.txt"
awk -v n=$((500000 / scale)) 'BEGIN { srand(2); for (i = 0; i < n; i++)
	printf "src/dir%d/sub%d/file%d.go\n", int(rand() * 1000), int(rand() * 100), i }' >"$in/lines.txt"

programs='field jsonnet-stdout jsonnet-o junit fzf'

# binary PROGRAM: the binary a program runs.
binary() {
	case $1 in
	field) echo field ;;
	jsonnet-*) echo jsonnet ;;
	junit) echo go-junit-report ;;
	fzf) echo fzf ;;
	esac
}

# invoke PROGRAM BIN OUT [WRAPPER...] runs one program with its input under
# WRAPPER (strace, time), its compared output in OUT (a regular file).
invoke() {
	local p=$1 b=$2 o=$3
	shift 3
	case $p in
	field) "$@" "$b" 1,3 "$in/fields.txt" >"$o" ;;
	jsonnet-stdout) "$@" "$b" -y -e "$jsonnet_expr" >"$o" ;;
	jsonnet-o) "$@" "$b" -y -o "$o" -e "$jsonnet_expr" ;;
	junit) "$@" "$b" -debug.print-events -in "$in/gotest.txt" -out "$o.xml" 2>"$o" ;;
	fzf) "$@" "$b" --filter file1 <"$in/lines.txt" >"$o" ;;
	esac
}

# The pairs a round runs: a variant without a binary (no patch) is left out.
pairs=()
for p in $programs; do
	for v in $variants; do
		[ -x "$work/bin/$v/$(binary "$p")" ] && pairs+=("$p $v")
	done
done

run=$work/run
mkdir -p "$run"
counts=$work/counts.tsv times=$work/times.tsv
: >"$counts"
: >"$times"
: >"$work/loads.txt"

# One traced run of each pair: the calls, and the output compared with the
# plain build's.
for pair in "${pairs[@]}"; do
	read -r p v <<<"$pair"
	echo "tracing $p $v" >&2
	o=$run/$p.$v.out
	invoke "$p" "$work/bin/$v/$(binary "$p")" "$o" \
		strace -f -c -o "$run/strace" -e trace=read,write,pread64,pwrite64,readv,writev
	reads=$(awk '$NF ~ /^(read|pread64|readv)$/ { s += $4 } END { print s + 0 }' "$run/strace")
	writes=$(awk '$NF ~ /^(write|pwrite64|writev)$/ { s += $4 } END { print s + 0 }' "$run/strace")
	same=yes
	if [ "$v" != plain ] && ! cmp -s "$o" "$run/$p.plain.out"; then
		same=no
	fi
	printf '%s\t%s\t%s\t%s\t%s\n' "$p" "$v" "$reads" "$writes" "$same" >>"$counts"
done

# Timed rounds, interleaved: every pair once per round, starting one pair
# later each round.
n=${#pairs[@]}
for ((r = 0; r < rounds; r++)); do
	echo "round $((r + 1)) of $rounds: $(uptime)" | tee -a "$work/loads.txt" >&2
	for ((i = 0; i < n; i++)); do
		read -r p v <<<"${pairs[(i + r) % n]}"
		invoke "$p" "$work/bin/$v/$(binary "$p")" "$run/$p.$v.timed" \
			/usr/bin/time -f '%e %U %S' -o "$run/time"
		awk -v p="$p" -v v="$v" -v r=$((r + 1)) '{ printf "%s\t%s\t%d\t%s\t%.2f\n", p, v, r, $1, $2 + $3 }' "$run/time" >>"$times"
	done
done
load_after=$(uptime)

# median FIELD PROGRAM VARIANT: the median of times.tsv's column FIELD
# (4 wall, 5 CPU) for a pair.
median() {
	awk -F'\t' -v f="$1" -v p="$2" -v v="$3" '$1 == p && $2 == v { print $f }' "$times" |
		sort -g | awk '{ x[NR] = $1 } END { if (NR % 2) print x[(NR + 1) / 2]; else print (x[NR / 2] + x[NR / 2 + 1]) / 2 }'
}
spread() {
	awk -F'\t' -v f="$1" -v p="$2" -v v="$3" '$1 == p && $2 == v { print $f }' "$times" |
		sort -g | sed -n '1p;$p' | paste -sd- | sed 's/-/–/'
}

{
	echo "- date: $date_start"
	echo "- machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs, Linux $(uname -r); $(go version)"
	echo "- load: \`$load_before\` before, \`$load_after\` after; at the start of each round:"
	sed 's/^\(round [0-9]*\) of [0-9]*: .*load average: /  - \1: /' "$work/loads.txt"
	echo "- command: \`${command# }\`"
	echo "- output and input files: $(stat -f -c %T "$run"), st_blksize $(stat -c %o "$run/field.plain.out")"
	echo "- $rounds interleaved rounds; times are medians (min–max) of GNU time's elapsed and user + system; calls are read- and write-family system calls (read, pread64, readv; write, pwrite64, writev) of one run under \`strace -f -c\`; same: the output is byte for byte the plain build's"
	echo
	echo '| program | variant | write calls | read calls | wall s | CPU s | wall / plain | CPU / plain | same |'
	echo '|---|---|---|---|---|---|---|---|---|'
	for pair in "${pairs[@]}"; do
		read -r p v <<<"$pair"
		read -r _ _ reads writes same < <(awk -F'\t' -v p="$p" -v v="$v" '$1 == p && $2 == v' "$counts")
		w=$(median 4 "$p" "$v") c=$(median 5 "$p" "$v")
		w0=$(median 4 "$p" plain) c0=$(median 5 "$p" plain)
		printf '| %s | %s | %s | %s | %.2f (%s) | %.2f (%s) | %.2fx | %.2fx | %s |\n' \
			"$p" "$v" "$writes" "$reads" "$w" "$(spread 4 "$p" "$v")" "$c" "$(spread 5 "$p" "$v")" \
			"$(awk -v a="$w" -v b="$w0" 'BEGIN { print (b > 0 ? a / b : "nan") }')" "$(awk -v a="$c" -v b="$c0" 'BEGIN { print (b > 0 ? a / b : "nan") }')" "$same"
	done
	echo
	echo '<details><summary>every timed run (program, variant, round, wall s, CPU s)</summary>'
	echo
	echo '```'
	cat "$times"
	echo '```'
	echo
	echo '</details>'
} >"$out"
