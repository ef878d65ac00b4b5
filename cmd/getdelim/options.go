package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/stdiobuf/stdiobuf/internal/getopt"
	"github.com/stdiobuf/stdiobuf/stream"
)

// headerMode says when to print "==> NAME <==" before a file.
type headerMode int

const (
	headersIfSeveral headerMode = iota // head's default: with more than one file
	headersAlways                      // -v
	headersNever                       // -q
)

// config is a parsed command line.
type config struct {
	count       uint64 // lines or bytes to print, or to elide with elide
	lines       bool   // count lines (-n) rather than bytes (-c)
	elide       bool   // print all but the last count units (-n -N, -c -N)
	headers     headerMode
	delim       byte
	presumePipe bool          // ---presume-input-pipe: never seek (head's testing option)
	loop        bool          // --loop: the getdelim/fwrite loop instead of stream's copy methods
	policy      stream.Policy // --policy: a buffer policy for every stream; PolicyDefault if not given
	stats       bool          // --stats: report each stream's buffering on stderr
	statsJSON   bool          // --stats=json: as one line of JSON (internal/streamstats)
	quoting     quoting       // the locale's way of quoting in messages
	files       []string
}

// An action is what the command line asks for besides printing files.
type action int

const (
	actionRun action = iota
	actionHelp
	actionVersion
)

// The short options head takes; the digits are there, as in head, so
// that "-3" after the first argument is diagnosed as a misplaced count.
// 'd' is this tool's.
const shortOptions = "c:n:qvz0123456789d:"

// headLongOptions are GNU head's long options, in head's order, which is
// the order glibc lists them in when an abbreviation is ambiguous.
var headLongOptions = []getopt.Option{
	{Name: "bytes", Arg: getopt.RequiredArgument, Key: "c"},
	{Name: "lines", Arg: getopt.RequiredArgument, Key: "n"},
	{Name: "-presume-input-pipe", Arg: getopt.NoArgument, Key: "presume-input-pipe"},
	{Name: "quiet", Arg: getopt.NoArgument, Key: "q"},
	{Name: "silent", Arg: getopt.NoArgument, Key: "q"},
	{Name: "verbose", Arg: getopt.NoArgument, Key: "v"},
	{Name: "zero-terminated", Arg: getopt.NoArgument, Key: "z"},
	{Name: "help", Arg: getopt.NoArgument, Key: "help"},
	{Name: "version", Arg: getopt.NoArgument, Key: "version"},
}

// extraLongOptions are this tool's own long options.
var extraLongOptions = []getopt.Option{
	{Name: "loop", Arg: getopt.NoArgument, Key: "loop"},
	{Name: "policy", Arg: getopt.RequiredArgument, Key: "policy"},
	{Name: "stats", Arg: getopt.OptionalArgument, Key: "stats"},
}

// parseArgs parses the arguments after the program name as GNU head's
// main does, in order: a count given twice takes the last, --help and
// --version act when they are met, and the first error ends the parse.
// lookupEnv reads the environment (POSIXLY_CORRECT, and the locale
// variables for the quoting of messages).
func parseArgs(args []string, lookupEnv func(string) (string, bool)) (config, action, error) {
	cfg := config{count: 10, lines: true, delim: '\n', quoting: localeQuoting(lookupEnv)}
	if len(args) > 0 && isObsoleteCount(args[0]) {
		if err := cfg.obsoleteCount(args[0][1:]); err != nil {
			return cfg, actionRun, err
		}
		args = args[1:]
	}
	_, posix := lookupEnv("POSIXLY_CORRECT")
	s := getopt.Scanner{Shorts: shortOptions, Longs: headLongOptions, Extras: extraLongOptions, InOrder: posix}
	events, operands, scanErr := s.Scan(args)
	for _, ev := range events {
		act, err := cfg.apply(ev)
		if err != nil || act != actionRun {
			return cfg, act, err
		}
	}
	if scanErr != nil {
		return cfg, actionRun, scanErr
	}
	// head checks this once all options are read: it must be able to
	// seek back that far.
	if !cfg.lines && cfg.elide && cfg.count > math.MaxInt64 {
		return cfg, actionRun, &numberError{what: "bytes", text: strconv.FormatUint(cfg.count, 10), overflow: true, q: cfg.quoting}
	}
	cfg.files = operands
	if len(cfg.files) == 0 {
		cfg.files = []string{"-"}
	}
	return cfg, actionRun, nil
}

// isObsoleteCount reports whether arg is head's obsolete "-5", "-5c", ...
// form, which head accepts only as the first argument.
func isObsoleteCount(arg string) bool {
	return len(arg) >= 2 && arg[0] == '-' && arg[1] >= '0' && arg[1] <= '9'
}

// obsoleteCount applies the obsolete form without its dash: digits, then
// letters: c (bytes), b k m (bytes, times 512, 1024, 1048576), l (lines),
// q, v, z as the options of those names.
func (cfg *config) obsoleteCount(arg string) error {
	letters := strings.TrimLeft(arg, "0123456789")
	number := arg[:len(arg)-len(letters)]
	var multiplier string
	for i := 0; i < len(letters); i++ {
		switch c := letters[i]; c {
		case 'c':
			cfg.lines, multiplier = false, ""
		case 'b', 'k', 'm':
			cfg.lines, multiplier = false, string(c)
		case 'l':
			cfg.lines = true
		case 'q', 'v', 'z':
			cfg.apply(getopt.Event{Key: string(c)}) // as the options of those names
		default:
			return &usageError{msg: fmt.Sprintf("invalid trailing option -- %c", c)}
		}
	}
	n, err := parseCount(number+multiplier, cfg.lines, cfg.quoting)
	cfg.count = n
	return err
}

// apply applies one option.
func (cfg *config) apply(ev getopt.Event) (action, error) {
	switch ev.Key {
	case "c", "n":
		cfg.lines = ev.Key == "n"
		arg, elide := strings.CutPrefix(ev.Arg, "-")
		cfg.elide = elide
		n, err := parseCount(arg, cfg.lines, cfg.quoting)
		cfg.count = n
		return actionRun, err
	case "q":
		cfg.headers = headersNever
	case "v":
		cfg.headers = headersAlways
	case "z":
		cfg.delim = 0
	case "d":
		d, err := parseDelimiter(ev.Arg, cfg.quoting)
		cfg.delim = d
		return actionRun, err
	case "presume-input-pipe":
		cfg.presumePipe = true
	case "loop":
		cfg.loop = true
	case "stats":
		switch ev.Arg {
		case "", "text":
			cfg.stats, cfg.statsJSON = true, false
		case "json":
			cfg.stats, cfg.statsJSON = true, true
		default:
			return actionRun, &usageError{msg: fmt.Sprintf("invalid argument %s for '--stats' (want text or json)", cfg.quoting.quote(ev.Arg))}
		}
	case "policy":
		p, err := stream.ParsePolicy(ev.Arg)
		if err != nil {
			return actionRun, &usageError{msg: fmt.Sprintf("invalid buffer policy %s for --policy (%s)", cfg.quoting.quote(ev.Arg), policyForms)}
		}
		cfg.policy = p
	case "help":
		return actionHelp, nil
	case "version":
		return actionVersion, nil
	default:
		// A digit: a count given as "-5" anywhere but first.
		return actionRun, &usageError{msg: fmt.Sprintf("invalid trailing option -- %s", ev.Key)}
	}
	return actionRun, nil
}

// A usageError is a malformed command line that the tool finds itself, as
// head's own code does, where a *getopt.UsageError is one getopt finds.
// Both are followed by "Try 'PROG --help' for more information.".
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// policyForms are the values --policy takes, as stream.ParsePolicy reads
// them.
const policyForms = "want blksize, bufsiz, coreutils, bufio, readahead, cpython, rust, readahead:SIZE, default, or a size up to 1G such as 64K"

// errDelimiter is the reason every bad -d argument shares.
var errDelimiter = errors.New("a delimiter is one byte, a C escape such as \\t or \\0, or empty for NUL")

// delimiterEscapes are the escapes -d accepts besides a plain byte.
var delimiterEscapes = map[string]byte{
	`\0`: 0, `\a`: '\a', `\b`: '\b', `\f`: '\f', `\n`: '\n', `\r`: '\r', `\t`: '\t', `\v`: '\v', `\\`: '\\',
}

// parseDelimiter reads -d's argument: one byte, an escape such as \t or
// \0, or the empty string, which means NUL (as for bash's read -d "").
// q quotes s in the error.
func parseDelimiter(s string, q quoting) (byte, error) {
	if len(s) == 1 {
		return s[0], nil
	}
	if s == "" {
		return 0, nil
	}
	if d, ok := delimiterEscapes[s]; ok {
		return d, nil
	}
	return '\n', fmt.Errorf("invalid delimiter %s: %w", q.quote(s), errDelimiter)
}
