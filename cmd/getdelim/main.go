// Command getdelim prints the first part of each FILE, as GNU head
// (coreutils 9.x) does, on top of package stream: the same options,
// output, messages and exit status, with argv[0] in front of its messages
// and quotes in the locale's style: 'like this', or ‘like this’ in a
// UTF-8 locale.
//
// Usage:
//
//	getdelim [OPTION]... [FILE]...
//
// It takes head's options (-n [-]N, -c [-]N with head's size suffixes,
// the obsolete -N form, -q, -v, -z and their long forms) and four of its
// own: -d BYTE for another delimiter; --loop to copy with the classic
// loop of one getdelim and one fwrite per record instead of stream's
// Reader.CopyRecords and Reader.CopyBytes, which write whole runs of
// records straight from the buffer; --policy to choose the buffer policy
// (as STDIOBUF_POLICY does); and --stats to report on standard error how
// each stream was buffered and the calls it made:
//
//	getdelim: stats: in: fd=0 mode=full size=131072 policy=blksize ... reason="st_blksize 131072"
//	getdelim: stats: out: fd=1 ...
//
// or, with --stats=json, the same as one line of JSON for programs
// (internal/streamstats):
//
//	{"in":[{"fd":0,"mode":"full","size":131072,...}],"out":{"fd":1,...}}
//
// On a seekable input the offset is left just after the last byte
// printed, so `{ getdelim -n 2; cat; } < file` prints the file once.
//
// # Where it differs from GNU head
//
// Started with standard output or input closed (`getdelim FILE >&-`), it
// prints nothing and exits 0 where head fails with EBADF: the Go runtime
// opens /dev/null on a closed standard descriptor before the program
// runs. Its messages are in English whatever the locale; in a UTF-8
// locale it prints as they are the characters that Go's Unicode tables
// know and the C library's do not yet, where head escapes them in octal;
// and it treats any character set but UTF-8 as ASCII. docs/getdelim.md
// says why.
package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/stdiobuf/stdiobuf/internal/getopt"
	"github.com/stdiobuf/stdiobuf/stream"
)

func main() {
	// Linux gives a program started with no arguments at all an empty
	// argv[0]; elsewhere os.Args may be empty.
	argv0, args := "", []string(nil)
	if len(os.Args) > 0 {
		argv0, args = os.Args[0], os.Args[1:]
	}
	status, exitNow := run(argv0, args, os.LookupEnv)
	if exitNow {
		// Standard output failed and was reported; there is nothing left
		// that a flush could deliver.
		os.Exit(status)
	}
	stream.Exit(status)
}

// run runs the tool as argv0 with the arguments args and returns its exit
// status. exitNow says that the run ended on a write error that has been
// reported, and the program must exit without flushing standard output
// again.
func run(argv0 string, args []string, lookupEnv func(string) (string, bool)) (status int, exitNow bool) {
	prog := programName(argv0)
	cfg, act, err := parseArgs(args, lookupEnv)
	if err == nil && cfg.policy != stream.PolicyDefault {
		// --policy overrides STDIOBUF_POLICY for every stream, the
		// standard ones too. Without it, a bad STDIOBUF_POLICY is
		// package stream's to report, once, and the tool goes on with
		// the default policy as every program on stream does.
		err = stream.SetDefaultPolicy(cfg.policy)
	}
	if err != nil {
		// Straight to the descriptor, as nothing has been buffered yet.
		var ge *getopt.UsageError
		var ue *usageError
		byGetopt := errors.As(err, &ge)
		name := prog
		if byGetopt {
			// glibc's getopt reports under argv[0] as given, where the
			// tool's own messages use the program name.
			name = argv0
		}
		fmt.Fprintf(os.Stderr, "%s: %s\n", name, err)
		if byGetopt || errors.As(err, &ue) {
			fmt.Fprintf(os.Stderr, "Try '%s --help' for more information.\n", prog)
		}
		return 1, false
	}
	switch act {
	case actionHelp:
		writeHelp(stream.Stdout, prog)
		return 0, false
	case actionVersion:
		writeVersion(stream.Stdout)
		return 0, false
	}

	// Hold both standard streams for the whole run, as flockfile would:
	// one lock for all the records instead of one each.
	w := stream.Stdout.Lock()
	defer stream.Stdout.Unlock()
	stdin := stream.Stdin.Lock()
	defer stream.Stdin.Unlock()

	t := &tool{
		cfg:     cfg,
		headers: cfg.headers == headersAlways || cfg.headers == headersIfSeveral && len(cfg.files) > 1,
		out:     &output{prog: prog, w: w, stderr: stream.Stderr},
		stdin:   stdin,
	}
	for _, operand := range cfg.files {
		ok, fatal := t.headFile(operand)
		if fatal != nil {
			fmt.Fprintf(stream.Stderr, "%s: %s\n", prog, fatal)
			return 1, true
		}
		if !ok {
			status = 1
		}
	}
	if cfg.stats {
		// Flush first, so that the out: line counts the last write. A
		// failure stays with the Writer for stream.Exit to report.
		w.Flush()
		writeStats(stream.Stderr, prog, cfg.statsJSON, t.inputs, w.Info())
	}
	return status, false
}

// programName is the name the tool's messages start with: argv[0] as
// given ("./bin/getdelim: invalid number of lines: 'x'"), as gnulib's
// set_program_name keeps it, except that a libtool wrapper's real binary,
// DIR/.libs/NAME or DIR/.libs/lt-NAME, is called NAME. glibc's getopt
// reports its errors under argv[0] unchanged.
func programName(argv0 string) string {
	slash := strings.LastIndexByte(argv0, '/')
	if !strings.HasSuffix(argv0[:slash+1], "/.libs/") {
		return argv0
	}
	base := argv0[slash+1:]
	if name, ok := strings.CutPrefix(base, "lt-"); ok {
		return name
	}
	return base
}
