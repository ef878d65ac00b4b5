#!/usr/bin/env bash
# check-recall.sh measures `stdiobuf check`'s precision and recall on real
# command-line tools that read or write records, fetched through the Go module
# proxy at pinned versions (none of those in check-precision.sh).
#
# Part 1 (check): runs `stdiobuf check` on each module; every diagnostic goes
# to OUTDIR/<module>.txt, a count per module to OUTDIR/summary.tsv.
# Part 2 (strace): builds each module's tool(s) plainly and runs them on
# generated input of many records under strace -f -c -e trace=read,write,
# writing OUTDIR/strace-<module>-<case>.txt; a path is confirmed per-record
# where the count of write (or read) calls is about the count of records.
# The verdict on every finding and the list of confirmed paths are in
# bench/results/*-check-recall.md.
#
# Usage: bench/check-recall.sh [OUTDIR]   (default: a new temporary directory)
# CHECK_MODCACHE=DIR keeps the module cache between runs (default: a
# temporary one, removed at the end). PART=check or PART=strace runs one part;
# ONLY=REGEXP checks only the modules whose path matches it.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${1:-$(mktemp -d)}
out=$(cd "$out" 2>/dev/null && pwd || (mkdir -p "$out" && cd "$out" && pwd))
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
go build -o "$work/stdiobuf" ./cmd/stdiobuf
export GOMODCACHE=${CHECK_MODCACHE:-$work/modcache}
export GOFLAGS=-mod=mod GOTOOLCHAIN=local GOWORK=off
part=${PART:-all}

# module version packages
modules='
honnef.co/go/tools v0.8.2 ./...
github.com/josephburnett/jd/v2 v2.5.0 . ./jd/...
github.com/cespare/xxhash/v2 v2.3.0 ./...
mvdan.cc/gofumpt v0.12.0 ./...
github.com/olekukonko/tablewriter v1.1.5 ./...
github.com/ohler55/ojg v1.28.5 ./...
github.com/oklog/ulid/v2 v2.1.2 ./...
go.etcd.io/bbolt v1.5.0 ./...
github.com/mgechev/revive v1.17.0 ./...
github.com/segmentio/ksuid v1.0.4 ./...
github.com/go-python/gpython v0.2.0 ./...
github.com/jmespath/go-jmespath v0.4.0 ./...
github.com/rhysd/actionlint v1.7.12 ./...
gotest.tools/gotestsum v1.13.0 ./...
go.starlark.net v0.0.0-20260908191801-89a6a09411d5 ./...
github.com/brianvoe/gofakeit/v7 v7.18.9 ./...'

# fetch MODULE VERSION: copies the module's source to $work/src/NAME and
# prints that directory.
fetch() {
	local mod=$1 ver=$2 name dir src
	name=$(echo "$mod" | tr / _)
	src=$work/src/$name
	if [ ! -d "$src" ]; then
		dir=$(go mod download -json "$mod@$ver" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
		mkdir -p "$src"
		cp -R "$dir/." "$src"
		chmod -R u+w "$src"
		if [ ! -f "$src/go.mod" ]; then
			(cd "$src" && go mod init "$mod" && go mod tidy) >/dev/null 2>&1
		fi
	fi
	echo "$src"
}

if [ "$part" = all ] || [ "$part" = check ]; then
while read -r mod ver pkgs; do
	[ -n "$mod" ] || continue
	if [ -n "${ONLY:-}" ] && ! [[ $mod =~ $ONLY ]]; then continue; fi
	name=$(echo "$mod" | tr / _)
	src=$(fetch "$mod" "$ver")
	status=0
	(cd "$src" && "$work/stdiobuf" check $pkgs) >"$out/$name.log" 2>&1 || status=$?
	sed -i "s|$src/||" "$out/$name.log"
	grep -E '^[^ #][^ ]*:[0-9]+:[0-9]+: .*(one system call per record|once per record|without Flush|never checks)' "$out/$name.log" >"$out/$name.txt" || true
	if [ "$status" -ne 0 ] && grep -vE '^#|^go: downloading|^[^ #][^ ]*:[0-9]+:[0-9]+: .*(one system call per record|once per record|without Flush|never checks)|^\t' "$out/$name.log" >&2; then
		echo "check $mod@$ver: the lines above are errors (status $status)" >&2
	fi
	echo "$mod@$ver: $(wc -l <"$out/$name.txt") diagnostics" >&2
done <<<"$modules"
# The summary, of every module checked so far into OUTDIR.
printf 'module\tversion\tpackages\tdiagnostics\n' >"$out/summary.tsv"
while read -r mod ver pkgs; do
	name=$(echo "$mod" | tr / _)
	[ -f "$out/$name.txt" ] || continue
	printf '%s\t%s\t%s\t%s\n' "$mod" "$ver" "$pkgs" "$(wc -l <"$out/$name.txt")" >>"$out/summary.tsv"
done <<<"$modules"
cat "$out/summary.tsv"
fi

if [ "$part" = all ] || [ "$part" = strace ]; then
command -v strace >/dev/null || { echo "strace is needed" >&2; exit 1; }
bin=$work/bin
in=$work/in
mkdir -p "$bin" "$in"

# build MODULE VERSION PACKAGE...: a plain go build of the module's tools.
build() {
	local mod=$1 ver=$2 src
	shift 2
	src=$(fetch "$mod" "$ver")
	(cd "$src" && go build -o "$bin/" "$@")
}

# run NAME CMD...: runs CMD under strace -f -y with standard output on
# /dev/null, and writes OUTDIR/strace-NAME.txt: the write(2) calls to
# standard output, the read(2) calls from standard input, and all write and
# read calls of every process and thread (child processes such as go list
# write to pipes, so the first two count the tool's own).
run() {
	local name=$1
	shift
	strace -f -y -e trace=read,write -o "$work/raw" "$@" >/dev/null 2>"$work/stderr" || true
	awk '$2 ~ /^write\(1<\/dev\/null>/ {w1++} $2 ~ /^write\(2</ {w2++} $2 ~ /^write\(/ {w++} $2 ~ /^read\(0</ {r0++} $2 ~ /^read\(/ {r++}
		END {printf "write(stdout)=%d write(stderr)=%d read(stdin)=%d; all fds, all processes: write=%d read=%d\n", w1, w2, r0, w, r}' \
		"$work/raw" >"$out/strace-$name.txt"
	echo "$name: $(cat "$out/strace-$name.txt")" >&2
}

# Inputs: N records each.
seq 1 5000 | awk '{printf "{\"id\":%d,\"name\":\"n%d\",\"v\":[1,2]}\n", $1, $1}' >"$in/t.jsonl"
seq 1 5000 | awk 'BEGIN{print "["} {printf "{\"id\":%d}%s\n", $1, ($1<5000?",":"]")}' >"$in/arr.json"
seq 1 5000 | awk 'BEGIN{print "id,name,value"} {printf "%d,name%d,%d\n", $1, $1, $1*7}' >"$in/t.csv"
mkdir -p "$in/files" "$in/gofmt" "$in/sl" "$in/sc" "$in/al"
for i in $(seq 1 2000); do
	echo "$i" >"$in/files/f$i"
	printf 'package gf\nfunc  F%d( ) {  }\n' "$i" >"$in/gofmt/f$i.go"
done
printf 'module gf\ngo 1.22\n' >"$in/gofmt/go.mod"
printf 'module sl\ngo 1.22\n' >"$in/sl/go.mod"
seq 1 3000 | awk 'BEGIN{print "package sl\ntype Big struct {"} {printf "F%d %s\n", $1, ($1%2 ? "bool" : "int64")} END{print "}"}' >"$in/sl/sl.go"
printf 'module sc\ngo 1.22\n' >"$in/sc/go.mod"
seq 1 3000 | awk 'BEGIN{print "package sc"} {printf "func F%d(x int) bool { return x == x }\n", $1}' >"$in/sc/sc.go"
seq 1 1000 | awk 'BEGIN{printf "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"} {printf "      - run: echo ${{ nosuch%d.x }}\n", $1}' >"$in/al/wf.yaml"
seq 1 3000 | awk '{t="\"Time\":\"2026-12-05T00:00:00Z\""; p="\"Package\":\"ex/p\""; n="\"Test\":\"TestN" $1 "\"";
	printf "{%s,\"Action\":\"run\",%s,%s}\n", t, p, n
	printf "{%s,\"Action\":\"output\",%s,%s,\"Output\":\"=== RUN   TestN%d\\n\"}\n", t, p, n, $1
	printf "{%s,\"Action\":\"output\",%s,%s,\"Output\":\"--- PASS: TestN%d (0.00s)\\n\"}\n", t, p, n, $1
	printf "{%s,\"Action\":\"pass\",%s,%s,\"Elapsed\":0}\n", t, p, n}
	END {print "{\"Time\":\"2026-12-05T00:00:00Z\",\"Action\":\"output\",\"Package\":\"ex/p\",\"Output\":\"PASS\\n\"}"
	print "{\"Time\":\"2026-12-05T00:00:00Z\",\"Action\":\"pass\",\"Package\":\"ex/p\",\"Elapsed\":0.1}"}' >"$in/events.json"
seq 1 3000 | awk 'BEGIN{print "{"} {printf "\"k%d\":%d%s\n", $1, $1, ($1<3000?",":"}")}' >"$in/a.json"
seq 1 3000 | awk 'BEGIN{print "{"} {printf "\"k%d\":\"x%d\"%s\n", $1, $1, ($1<3000?",":"}")}' >"$in/b.json"
printf 'for i in range(5000):\n    print(i)\n' >"$in/print.py"
printf 'import sys\nfor i in range(5000):\n    sys.stdout.write(str(i))\n' >"$in/write.py"
printf 'def f():\n    for i in range(5000):\n        print(i)\nf()\n' >"$in/print.star"

build honnef.co/go/tools v0.8.2 ./cmd/staticcheck ./cmd/structlayout ./cmd/structlayout-pretty ./cmd/structlayout-optimize
build github.com/josephburnett/jd/v2 v2.5.0 ./jd
build github.com/cespare/xxhash/v2 v2.3.0 ./xxhsum
build mvdan.cc/gofumpt v0.12.0 .
build github.com/olekukonko/tablewriter v1.1.5 ./cmd/csv2table
build github.com/ohler55/ojg v1.28.5 ./cmd/oj
build github.com/oklog/ulid/v2 v2.1.2 ./cmd/ulid
build go.etcd.io/bbolt v1.5.0 ./cmd/bbolt
build github.com/mgechev/revive v1.17.0 .
build github.com/segmentio/ksuid v1.0.4 ./cmd/ksuid
build github.com/go-python/gpython v0.2.0 .
build github.com/jmespath/go-jmespath v0.4.0 ./cmd/jpgo
build github.com/rhysd/actionlint v1.7.12 ./cmd/actionlint
build gotest.tools/gotestsum v1.13.0 .
build go.starlark.net v0.0.0-20260908191801-89a6a09411d5 ./cmd/starlark
build github.com/brianvoe/gofakeit/v7 v7.18.9 ./cmd/gofakeit

# staticcheck (honnef.co/go/tools): 3000 problems; 3000 fields; 149 checks.
(cd "$in/sc" && for f in text stylish json binary; do run staticcheck-$f "$bin/staticcheck" -f $f ./...; done)
run staticcheck-list-checks "$bin/staticcheck" -list-checks
(cd "$in/sl" && run structlayout "$bin/structlayout" sl Big && run structlayout-json "$bin/structlayout" -json sl Big &&
	"$bin/structlayout" -json sl Big >"$in/sl.json")
run structlayout-pretty "$bin/structlayout-pretty" <"$in/sl.json"
run structlayout-optimize "$bin/structlayout-optimize" <"$in/sl.json"
# jd: a diff of 3000 changed keys.
for f in jd patch merge; do run jd-$f "$bin/jd" -f $f "$in/a.json" "$in/b.json"; done
run jd-color "$bin/jd" -color "$in/a.json" "$in/b.json"
# xxhsum: 2000 files.
(cd "$in/files" && run xxhsum-files "$bin/xxhsum" $(ls))
# gofumpt: 2000 files to reformat.
(cd "$in/gofmt" && run gofumpt-l "$bin/gofumpt" -l . && run gofumpt-d "$bin/gofumpt" -d . && run gofumpt "$bin/gofumpt" .)
# csv2table: 5000 rows.
for r in blueprint colorized markdown html ocean svg; do run csv2table-$r "$bin/csv2table" -renderer $r -f "$in/t.csv"; done
run csv2table-stream "$bin/csv2table" -s -f "$in/t.csv"
# oj: 5000 documents.
run oj-json "$bin/oj" -f - "$in/t.jsonl"
run oj-sen "$bin/oj" -f - -sen "$in/t.jsonl"
run oj-pretty "$bin/oj" -f - -p 80.3 "$in/t.jsonl"
run oj-extract "$bin/oj" -f - -x '$.id' "$in/t.jsonl"
run oj-dig "$bin/oj" -f - -dig -x '$[*]' <"$in/arr.json"
run oj-dig-annotate "$bin/oj" -f - -dig -annotate -x '$[*]' <"$in/arr.json"
# ulid: one id.
run ulid "$bin/ulid"
# bbolt: 5000 keys written by its own bench.
"$bin/bbolt" bench --count 5000 --batch-size 5000 --path "$in/b.db" --work --no-sync >/dev/null 2>&1
run bbolt-keys "$bin/bbolt" keys "$in/b.db" bench
run bbolt-pages "$bin/bbolt" pages "$in/b.db"
run bbolt-page-all "$bin/bbolt" page --all "$in/b.db"
run bbolt-dump "$bin/bbolt" dump "$in/b.db" $(seq 10 40)
# revive: 3000 problems.
(cd "$in/sc" && for f in default plain unix json ndjson friendly stylish checkstyle sarif; do run revive-$f "$bin/revive" -formatter $f ./...; done)
# ksuid: 10000 ids.
for f in string inspect time timestamp payload raw; do run ksuid-$f "$bin/ksuid" -n 10000 -f $f; done
run ksuid-template "$bin/ksuid" -n 10000 -f template -t '{{.String}}'
run ksuid-verbose "$bin/ksuid" -n 10000 -v
# gpython: 5000 print() and sys.stdout.write calls.
run gpython-print "$bin/gpython" "$in/print.py"
run gpython-write "$bin/gpython" "$in/write.py"
# jpgo: one result of 5000 ids.
run jpgo "$bin/jpgo" -f "$in/arr.json" '[*].id'
# actionlint: 1000 errors.
run actionlint "$bin/actionlint" "$in/al/wf.yaml"
run actionlint-oneline "$bin/actionlint" -oneline "$in/al/wf.yaml"
run actionlint-format-json "$bin/actionlint" -format '{{json .}}' "$in/al/wf.yaml"
# gotestsum: 12002 events of 3000 tests.
for f in dots dots-v2 pkgname pkgname-and-test-fails testname testdox github-actions standard-quiet standard-verbose standard-json debug; do
	run gotestsum-$f "$bin/gotestsum" --format $f --raw-command -- cat "$in/events.json"
done
run gotestsum-jsonfile "$bin/gotestsum" --format pkgname --jsonfile "$in/out.json" --raw-command -- cat "$in/events.json"
# starlark: 5000 print() calls (they go to standard error).
run starlark-print "$bin/starlark" "$in/print.star"
# gofakeit: 5000 names.
run gofakeit-loop "$bin/gofakeit" name -loop=5000
fi
echo "results in $out" >&2
