//go:build linux

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/stdiobuf/stdiobuf/internal/seedinput"
)

// errUsage marks a bad command line: main exits with status 2 for it.
var errUsage = errors.New("usage")

// usageError is a bad command line with a message for the user.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }
func (e *usageError) Is(target error) bool {
	return target == errUsage
}

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

const usageText = `Usage: headbench [flags]

Times 'getdelim --loop -n N < input > /dev/null' under each buffering policy
and a sweep of fixed buffer sizes, beside the programs a user would pick
instead (GNU head, a C getdelim/fwrite loop, Go's bufio, cat), on file
systems whose st_blksize is 4 KiB (or whatever the local one reports),
128 KiB and 1 MiB. Runs are interleaved; each figure is the median of --runs.

With no flags it makes the seed's input (290955 lines, about 230 MB, kept in
the user cache directory), builds cmd/getdelim and the peers in bench/, and
writes results.md, results.json, bench.txt (for benchstat) and SVG charts to
a new folder headbench-YYYYMMDD-HHMMSS. As root with loop devices it mounts
XFS images with st_blksize 128 KiB and 1 MiB under $TMPDIR and removes them
at the end, also after Ctrl-C.

Flags:
  --quick            a 10x smaller input (29095 lines) and 5 runs: a check
                     that everything works, in about a minute
  --runs N           timed runs of each figure (default 11; 5 with --quick)
  --out DIR          where the results go (default: ./headbench-YYYYMMDD-HHMMSS)
  --input FILE       time on FILE instead of the generated input; -n is its
                     line count
  --lines N          generate N lines instead of 290955
  --cache DIR        where the generated input is kept and reused
                     (default: the user cache directory + /stdiobuf)
  --fs LIST          file systems: local, xfs128k, xfs1m (default: all three;
                     the XFS ones need root, mkfs.xfs and loop devices)
  --no-mount         the same as --fs local
  --policies LIST    getdelim policies: bufsiz, blksize, coreutils, bufio
                     (default: all four; bufsiz is the baseline of the ratios)
  --sweep LIST       fixed buffer sizes for getdelim --policy BYTES, as bytes
                     or with K, KiB, M, MiB (default: 1K,2K,...,1M; "none")
  --peers LIST       head, c-default, c-rule, go-bufio, getdelim-fast, cat
                     (default: all; "none")
  --getdelim PATH    use this getdelim binary instead of building cmd/getdelim
  --help             this text

A LIST is comma-separated. Exit status: 0 when every figure was taken, 1 when
something failed (it is reported and the rest still runs), 2 for a bad command
line.
`

// options is the parsed command line.
type options struct {
	quick    bool
	runs     int
	out      string
	input    string
	lines    int
	cache    string
	fs       []string
	policies []string
	sweep    []int64
	peers    []string
	getdelim string
}

// The names the list flags accept, in the order figures are reported.
var (
	fsNames     = []string{"local", "xfs128k", "xfs1m"}
	policyNames = []string{"bufsiz", "blksize", "coreutils", "bufio"}
	peerNames   = []string{"head", "c-default", "c-rule", "go-bufio", "getdelim-fast", "cat"}
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
	// maxSweepSize bounds a sweep size: getdelim allocates it twice.
	maxSweepSize = 1 << 30
)

// parseFlags parses args (without the program name). --help returns
// flag.ErrHelp; a bad command line returns an error that matches errUsage.
func parseFlags(args []string) (*options, error) {
	fset := flag.NewFlagSet("headbench", flag.ContinueOnError)
	fset.SetOutput(io.Discard)
	fset.Usage = func() {}
	var (
		o                              options
		fsList, policies, sweep, peers string
		noMount                        bool
		runs, lines                    int
	)
	fset.BoolVar(&o.quick, "quick", false, "")
	fset.IntVar(&runs, "runs", 0, "")
	fset.StringVar(&o.out, "out", "", "")
	fset.StringVar(&o.input, "input", "", "")
	fset.IntVar(&lines, "lines", 0, "")
	fset.StringVar(&o.cache, "cache", "", "")
	fset.StringVar(&fsList, "fs", strings.Join(fsNames, ","), "")
	fset.BoolVar(&noMount, "no-mount", false, "")
	fset.StringVar(&policies, "policies", strings.Join(policyNames, ","), "")
	fset.StringVar(&sweep, "sweep", "", "")
	fset.StringVar(&peers, "peers", strings.Join(peerNames, ","), "")
	fset.StringVar(&o.getdelim, "getdelim", "", "")
	if err := fset.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, usagef("%v", err)
	}
	if fset.NArg() > 0 {
		return nil, usagef("unexpected argument %q: headbench takes only flags", fset.Arg(0))
	}
	set := map[string]bool{}
	fset.Visit(func(f *flag.Flag) { set[f.Name] = true })

	switch {
	case !set["runs"] && o.quick:
		o.runs = quickRuns
	case !set["runs"]:
		o.runs = defaultRuns
	case runs < 1 || runs > maxRuns:
		return nil, usagef("--runs %d: want 1 to %d", runs, maxRuns)
	default:
		o.runs = runs
	}
	if set["input"] && o.input == "" {
		return nil, usagef("--input: empty file name")
	}
	if set["out"] && o.out == "" {
		return nil, usagef("--out: empty folder name")
	}
	if set["cache"] && o.cache == "" {
		return nil, usagef("--cache: empty folder name")
	}
	if set["getdelim"] && o.getdelim == "" {
		return nil, usagef("--getdelim: empty file name")
	}
	switch {
	case set["lines"] && set["input"]:
		return nil, usagef("--lines and --input do not go together: --input's line count is the file's")
	case set["lines"] && lines < 1:
		return nil, usagef("--lines %d: want at least 1", lines)
	case set["lines"]:
		o.lines = lines
	case o.quick:
		o.lines = seedinput.Lines / 10
	default:
		o.lines = seedinput.Lines
	}

	var err error
	if o.fs, err = parseNames("--fs", fsList, fsNames); err != nil {
		return nil, err
	}
	if noMount {
		if set["fs"] && !(len(o.fs) == 1 && o.fs[0] == "local") {
			return nil, usagef("--no-mount and --fs %s contradict each other", fsList)
		}
		o.fs = []string{"local"}
	}
	if len(o.fs) == 0 {
		return nil, usagef("--fs: no file system to run on")
	}
	if o.policies, err = parseNames("--policies", policies, policyNames); err != nil {
		return nil, err
	}
	if o.peers, err = parseNames("--peers", peers, peerNames); err != nil {
		return nil, err
	}
	if set["sweep"] {
		if o.sweep, err = parseSweep(sweep); err != nil {
			return nil, err
		}
	} else {
		o.sweep = defaultSweep()
	}
	if len(o.policies)+len(o.sweep)+len(o.peers) == 0 {
		return nil, usagef("--policies, --sweep and --peers are all empty: nothing to time")
	}
	return &o, nil
}

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
			return nil, usagef("%s: unknown name %q (known: %s, all, none)", flagName, name, strings.Join(known, ", "))
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

// parseSweep parses --sweep: sizes in increasing order without repeats.
func parseSweep(list string) ([]int64, error) {
	list = strings.TrimSpace(list)
	if list == "none" || list == "" {
		return nil, nil
	}
	seen := map[int64]bool{}
	var sizes []int64
	for _, f := range strings.Split(list, ",") {
		n, err := parseSize(strings.TrimSpace(f))
		if err != nil {
			return nil, usagef("--sweep: %v", err)
		}
		if !seen[n] {
			seen[n] = true
			sizes = append(sizes, n)
		}
	}
	slices.Sort(sizes)
	return sizes, nil
}

// parseSize parses a buffer size: a decimal byte count, or one with the
// binary suffix K, KiB, M or MiB (any case of k and m).
func parseSize(s string) (int64, error) {
	num, mult := s, int64(1)
	for _, suf := range []struct {
		s string
		m int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"K", 1 << 10}, {"M", 1 << 20}} {
		if len(s) > len(suf.s) && strings.EqualFold(s[len(s)-len(suf.s):], suf.s) {
			num, mult = s[:len(s)-len(suf.s)], suf.m
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 1 || n > math.MaxInt64/mult || n*mult > maxSweepSize {
		return 0, fmt.Errorf("bad size %q: want a byte count from 1 to 1GiB, such as 4096, 64K or 1M", s)
	}
	return n * mult, nil
}
