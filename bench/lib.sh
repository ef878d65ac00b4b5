# bench/lib.sh: what the bench scripts share (those that run Go
# benchmarks under benchstat, and those that take medians themselves).
# Sourced, not run.

# bench_machine prints when and on what the figures are made: the date,
# the CPUs, the kernel and the Go release.
bench_machine() {
	echo "$(date -u +'%Y-%m-%d %H:%M UTC') on $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(uname -sr), $(go version | cut -d' ' -f3)"
}

# bench_header prints the lines that open a raw results file: the
# machine, the command ($1), the load average and the scheduling policy
# (chrt -f runs keep a CPU to themselves).
bench_header() {
	echo "# $(bench_machine)"
	echo "# command: $1"
	echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "# scheduling policy:$(chrt -p $$ 2>/dev/null | sed -n '1s/.*://p')"
}

# bench_footer appends the load average after the runs to raw file $1.
bench_footer() {
	echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$1"
}

# bench_stat runs benchstat (golang.org/x/perf/cmd/benchstat, on PATH or
# in GOPATH/bin) with its arguments.
bench_stat() {
	"$(command -v benchstat || echo "$(go env GOPATH)/bin/benchstat")" "$@"
}

# bench_table prints raw file $1's header lines, then benchstat's table with
# the arguments after $1, fenced.
bench_table() {
	local raw=$1
	shift
	grep '^#' "$raw"
	echo
	echo '```'
	bench_stat "$@" "$raw"
	echo '```'
}

# bench_raw prints raw file $1's results, fenced, under a heading line.
bench_raw() {
	echo "Raw results:"
	echo
	echo '```'
	grep -v '^#' "$1"
	echo '```'
}

# bench_median prints the median of the numbers on standard input, one a
# line: the middle one, or the mean of the two middle ones.
bench_median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
