package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

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
	presumePipe bool   // ---presume-input-pipe: never seek (head's testing option)
	loop        bool   // --loop: the getdelim/fwrite loop instead of stream's copy methods
	policy      string // --policy: a buffer policy for every stream; "" if not given
	stats       bool   // --stats: report each stream's buffering on stderr
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
var headLongOptions = []longOption{
	{"bytes", requiredArgument, "c"},
	{"lines", requiredArgument, "n"},
	{"-presume-input-pipe", noArgument, "presume-input-pipe"},
	{"quiet", noArgument, "q"},
	{"silent", noArgument, "q"},
	{"verbose", noArgument, "v"},
	{"zero-terminated", noArgument, "z"},
	{"help", noArgument, "help"},
	{"version", noArgument, "version"},
}

// extraLongOptions are this tool's own long options.
var extraLongOptions = []longOption{
	{"loop", noArgument, "loop"},
	{"policy", requiredArgument, "policy"},
	{"stats", noArgument, "stats"},
}

// parseArgs parses the arguments after the program name as GNU head's
// main does, in order: a count given twice takes the last, --help and
// --version act when they are met, and the first error ends the parse.
// lookupEnv reads the environment (POSIXLY_CORRECT).
func parseArgs(args []string, lookupEnv func(string) (string, bool)) (config, action, error) {
	cfg := config{count: 10, lines: true, delim: '\n'}
	if len(args) > 0 && isObsoleteCount(args[0]) {
		if err := cfg.obsoleteCount(args[0][1:]); err != nil {
			return cfg, actionRun, err
		}
		args = args[1:]
	}
	_, posix := lookupEnv("POSIXLY_CORRECT")
	s := optionScanner{shorts: shortOptions, longs: headLongOptions, extras: extraLongOptions, inOrder: posix}
	events, operands, scanErr := s.scan(args)
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
		return cfg, actionRun, &numberError{what: "bytes", text: strconv.FormatUint(cfg.count, 10), overflow: true}
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
			cfg.apply(optionEvent{key: string(c)}) // as the options of those names
		default:
			return &usageError{fmt.Sprintf("invalid trailing option -- %c", c)}
		}
	}
	n, err := parseCount(number+multiplier, cfg.lines)
	cfg.count = n
	return err
}

// apply applies one option.
func (cfg *config) apply(ev optionEvent) (action, error) {
	switch ev.key {
	case "c", "n":
		cfg.lines = ev.key == "n"
		arg, elide := strings.CutPrefix(ev.arg, "-")
		cfg.elide = elide
		n, err := parseCount(arg, cfg.lines)
		cfg.count = n
		return actionRun, err
	case "q":
		cfg.headers = headersNever
	case "v":
		cfg.headers = headersAlways
	case "z":
		cfg.delim = 0
	case "d":
		d, err := parseDelimiter(ev.arg)
		cfg.delim = d
		return actionRun, err
	case "presume-input-pipe":
		cfg.presumePipe = true
	case "loop":
		cfg.loop = true
	case "stats":
		cfg.stats = true
	case "policy":
		if _, err := stream.ParsePolicy(ev.arg); err != nil {
			return actionRun, &policyError{source: "--policy", value: ev.arg}
		}
		cfg.policy = ev.arg
	case "help":
		return actionHelp, nil
	case "version":
		return actionVersion, nil
	default:
		// A digit: a count given as "-5" anywhere but first.
		return actionRun, &usageError{fmt.Sprintf("invalid trailing option -- %s", ev.key)}
	}
	return actionRun, nil
}

// A policyError is a buffer policy that stream.ParsePolicy rejects.
type policyError struct {
	source string // "--policy" or the environment variable
	value  string
}

func (e *policyError) Error() string {
	return fmt.Sprintf("invalid buffer policy for %s: %s (want blksize, bufsiz, coreutils, bufio, readahead or a size such as 64K)",
		e.source, quote(e.value))
}

// errDelimiter is the reason every bad -d argument shares.
var errDelimiter = errors.New("a delimiter is one byte, a C escape such as \\t or \\0, or empty for NUL")

// delimiterEscapes are the escapes -d accepts besides a plain byte.
var delimiterEscapes = map[string]byte{
	`\0`: 0, `\a`: '\a', `\b`: '\b', `\f`: '\f', `\n`: '\n', `\r`: '\r', `\t`: '\t', `\v`: '\v', `\\`: '\\',
}

// parseDelimiter reads -d's argument: one byte, an escape such as \t or
// \0, or the empty string, which means NUL (as for bash's read -d "").
func parseDelimiter(s string) (byte, error) {
	if len(s) == 1 {
		return s[0], nil
	}
	if s == "" {
		return 0, nil
	}
	if d, ok := delimiterEscapes[s]; ok {
		return d, nil
	}
	return '\n', fmt.Errorf("invalid delimiter %s: %w", quote(s), errDelimiter)
}
