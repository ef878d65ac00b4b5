//go:build linux

package main

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/stdiobuf/stdiobuf/internal/getopt"
	"github.com/stdiobuf/stdiobuf/internal/seedinput"
	"github.com/stdiobuf/stdiobuf/stream"
)

// errHelp is parseFlags' answer to --help.
var errHelp = errors.New("help requested")

// usagef returns a bad command line's error; run prints it with the "Try
// 'headbench --help'" line and exits with status 2.
func usagef(format string, args ...any) error {
	return &getopt.UsageError{Msg: fmt.Sprintf(format, args...)}
}

// How long a run takes on a 2-CPU machine that other jobs keep busy, as
// --help and the README state it (TestREADMETimes). headbench measures it
// again: each report's Date line gives its run's duration.
const (
	quickTime = "45-65 s"
	fullTime  = "15 min on a busy 2-CPU machine"
)

// usageText is --help's text; policies and peers come from their tables.
var usageText = `Usage: headbench [OPTION]...

Times 'getdelim --loop -n N < input > /dev/null' and 'getdelim -n N' under
each buffering policy (the world's rules: glibc's, the glibc proposal's, Go's
bufio, Rust's, coreutils', CPython's) and a sweep of fixed buffer sizes,
beside the programs a user would pick instead (GNU head, a C getdelim/fwrite
loop under glibc's rule and the proposal's, Go's bufio, cat), on file systems
whose st_blksize is 1 KiB, 4 KiB, 128 KiB and 1 MiB. Runs are interleaved;
each figure is the median of --runs.

With no options it makes the seed's input (290955 lines, about 230 MB, kept in
the user cache directory), builds cmd/getdelim and the peers in bench/, and
writes results.md, results.json, bench.txt (for benchstat) and SVG charts to
a new folder headbench-YYYYMMDD-HHMMSS. As root it mounts ext4, ext4 -b 1024
and XFS images on loop devices and a tmpfs under $TMPDIR, copies the input
to each, and removes them at the end, also after Ctrl-C.

Options:
  --quick            a 10x smaller input (29095 lines) and 5 runs: a check
                     that everything works in ` + quickTime + ` once the
                     tools are compiled (the full run takes
                     ` + fullTime + `)
  --runs N           timed runs of each figure (default 11; 5 with --quick)
  --out DIR          where the results go (default: ./headbench-YYYYMMDD-HHMMSS)
  --input FILE       time on FILE instead of the generated input; -n is its
                     line count
  --lines N          generate N lines instead of 290955
  --cache DIR        where the generated input is kept and reused
                     (default: the user cache directory + /stdiobuf)
  --fs LIST          file systems, by the st_blksize of their files: local
                     (where the input is), ext4 (4096), ext4-1k (1024, made
                     with mkfs.ext4 -b 1024), tmpfs (the page size),
                     tmpfs-huge (huge=always: 2 MiB), xfs128k (131072) and
                     xfs1m (1048576). Default: ` + strings.Join(defaultFS, ", ") + `;
                     they need root and loop devices, mkfs.ext4 and mkfs.xfs,
                     and without them the run times on the local one
  --no-mount         the same as --fs local
  --paths LIST       loop (getdelim --loop: one getdelim and one fwrite per
                     record) and copy (getdelim -n, its default path, which
                     writes records straight from the buffer); default: both
  --policies LIST    getdelim policies, each on every path:
                     ` + strings.Join(policyNames(), ", ") + `
                     (default: all; see "The world's rules" in results.md)
  --sweep LIST       fixed buffer sizes for getdelim --policy SIZE, written
                     as --policy takes them: 4096, 64K, 1MiB, ... up to 1G
                     (default: 1K,2K,...,1M; "none")
  --peers LIST       ` + strings.Join(peerNames(), ", ") + `
                     (default: all; "none")
  --getdelim PATH    use this getdelim binary instead of building cmd/getdelim
  --help             this text

A LIST is comma-separated. An option may be abbreviated to any unambiguous
prefix, and its argument may follow '=' (--runs=3). Exit status: 0 when every
figure was taken, 1 when something failed (it is reported and the rest still
runs), 2 for a bad command line, 128+N when stopped by signal N (130 for
Ctrl-C).
`

// options is the parsed command line.
type options struct {
	quick bool
	runs  int
	out   string
	input string
	lines int
	cache string
	fs    []string
	// fsDefault is set when --fs was not given: a run that can mount
	// nothing then times on the local file system instead.
	fsDefault bool
	paths     []string
	policies  []string
	sweep     []int64
	peers     []string
	getdelim  string
}

// The names the list options accept, in the order figures are reported.
var (
	// fsNames are local (where the input is) and the mounts of
	// internal/fsmount.
	fsNames = append([]string{"local"}, mountNames()...)
	// defaultFS are the file systems of the table of the world's rules:
	// st_blksize 4096 (most machines), 1024, the page size, 128 KiB and
	// 1 MiB.
	defaultFS = []string{"ext4", "ext4-1k", "tmpfs", "xfs128k", "xfs1m"}
	// pathNames are getdelim's two ways of copying records: --loop, one
	// getdelim and one fwrite per record, and copy, its default path,
	// which writes whole runs of records straight from the buffer.
	pathNames = []string{pathLoop, pathCopy}
)

// The paths.
const (
	pathLoop = "loop"
	pathCopy = "copy"
)

// defaultSweep is 1 KiB to 1 MiB in powers of two: the range of the
// dd table in coreutils' src/ioblksize.h.
func defaultSweep() []int64 {
	var s []int64
	for n := int64(1 << 10); n <= 1<<20; n *= 2 {
		s = append(s, n)
	}
	return s
}

const (
	defaultRuns = 11
	quickRuns   = 5
	maxRuns     = 1000
)

// longOptions are headbench's options; each reports its name as its key.
var longOptions = []getopt.Option{
	{Name: "quick", Arg: getopt.NoArgument},
	{Name: "runs", Arg: getopt.RequiredArgument},
	{Name: "out", Arg: getopt.RequiredArgument},
	{Name: "input", Arg: getopt.RequiredArgument},
	{Name: "lines", Arg: getopt.RequiredArgument},
	{Name: "cache", Arg: getopt.RequiredArgument},
	{Name: "fs", Arg: getopt.RequiredArgument},
	{Name: "no-mount", Arg: getopt.NoArgument},
	{Name: "paths", Arg: getopt.RequiredArgument},
	{Name: "policies", Arg: getopt.RequiredArgument},
	{Name: "sweep", Arg: getopt.RequiredArgument},
	{Name: "peers", Arg: getopt.RequiredArgument},
	{Name: "getdelim", Arg: getopt.RequiredArgument},
	{Name: "help", Arg: getopt.NoArgument},
}

// parseFlags parses args (without the program name) as GNU tools do
// (internal/getopt): an option given twice takes the last value. --help
// returns errHelp; a bad command line returns a *getopt.UsageError.
func parseFlags(args []string) (*options, error) {
	sc := getopt.Scanner{Longs: longOptions}
	events, operands, err := sc.Scan(args)
	val := map[string]string{}
	for _, ev := range events {
		if ev.Key == "help" {
			return nil, errHelp
		}
		val[ev.Key] = ev.Arg
	}
	if err != nil {
		return nil, err
	}
	if len(operands) > 0 {
		return nil, usagef("unexpected argument %s: headbench takes only options", quote(operands[0]))
	}
	set := func(name string) bool { _, ok := val[name]; return ok }
	o := options{quick: set("quick"), out: val["out"], input: val["input"], cache: val["cache"], getdelim: val["getdelim"]}

	switch {
	case !set("runs") && o.quick:
		o.runs = quickRuns
	case !set("runs"):
		o.runs = defaultRuns
	default:
		if o.runs, err = parseCount("--runs", val["runs"], 1, maxRuns); err != nil {
			return nil, err
		}
	}
	for _, name := range []string{"input", "out", "cache", "getdelim"} {
		if set(name) && val[name] == "" {
			return nil, usagef("--%s: empty name", name)
		}
	}
	switch {
	case set("lines") && set("input"):
		return nil, usagef("--lines and --input do not go together: --input's line count is the file's")
	case set("lines"):
		if o.lines, err = parseCount("--lines", val["lines"], 1, math.MaxInt32); err != nil {
			return nil, err
		}
	case o.quick:
		o.lines = seedinput.Lines / 10
	default:
		o.lines = seedinput.Lines
	}

	o.fsDefault = !set("fs") && !set("no-mount")
	if o.fs, err = parseNames("--fs", valueOr(val, "fs", strings.Join(defaultFS, ",")), fsNames); err != nil {
		return nil, err
	}
	if set("no-mount") {
		if set("fs") && !slices.Equal(o.fs, []string{"local"}) {
			return nil, usagef("--no-mount and --fs %s contradict each other", val["fs"])
		}
		o.fs = []string{"local"}
	}
	if len(o.fs) == 0 {
		return nil, usagef("--fs: no file system to run on")
	}
	if o.paths, err = parseNames("--paths", valueOr(val, "paths", "all"), pathNames); err != nil {
		return nil, err
	}
	if o.policies, err = parseNames("--policies", valueOr(val, "policies", "all"), policyNames()); err != nil {
		return nil, err
	}
	if o.peers, err = parseNames("--peers", valueOr(val, "peers", "all"), peerNames()); err != nil {
		return nil, err
	}
	o.sweep = defaultSweep()
	if set("sweep") {
		if o.sweep, err = parseSweep(val["sweep"]); err != nil {
			return nil, err
		}
	}
	if len(o.policies)+len(o.sweep)+len(o.peers) == 0 {
		return nil, usagef("--policies, --sweep and --peers are all empty: nothing to time")
	}
	if len(o.policies) > 0 && len(o.paths) == 0 {
		return nil, usagef("--paths is empty: the policies have no path to run on")
	}
	return &o, nil
}

// valueOr returns the value of option name, or def when it was not given.
func valueOr(val map[string]string, name, def string) string {
	if v, ok := val[name]; ok {
		return v
	}
	return def
}

// parseCount parses a whole number from lo to hi given to option flagName.
func parseCount(flagName, s string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, usagef("%s %s: want a whole number from %d to %d", flagName, quote(s), lo, hi)
	}
	return n, nil
}

// quote quotes a command-line argument for a message, as GNU tools do in
// the C locale.
func quote(s string) string { return "'" + s + "'" }

// parseNames parses a comma-separated list of names from known, "all" or
// "none", and returns them in known's order without repeats.
func parseNames(flagName, list string, known []string) ([]string, error) {
	list = strings.TrimSpace(list)
	switch list {
	case "all":
		return slices.Clone(known), nil
	case "none", "":
		return nil, nil
	}
	want := map[string]bool{}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if !slices.Contains(known, name) {
			return nil, usagef("%s: unknown name %s (known: %s, all, none)", flagName, quote(name), strings.Join(known, ", "))
		}
		want[name] = true
	}
	var names []string
	for _, name := range known {
		if want[name] {
			names = append(names, name)
		}
	}
	return names, nil
}

// parseSweep parses --sweep: sizes as getdelim --policy takes them
// (stream.ParsePolicy: 4096, 64K, 1MiB, ... up to 1 GiB), returned in
// increasing order without repeats.
func parseSweep(list string) ([]int64, error) {
	list = strings.TrimSpace(list)
	if list == "none" || list == "" {
		return nil, nil
	}
	var sizes []int64
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		p, err := stream.ParsePolicy(f)
		switch {
		case err != nil:
			return nil, usagef("--sweep: %v", err)
		case p <= 0:
			return nil, usagef("--sweep: %s is a policy, not a buffer size such as 4096, 64K or 1M", quote(f))
		}
		sizes = append(sizes, int64(p))
	}
	slices.Sort(sizes)
	return slices.Compact(sizes), nil
}
