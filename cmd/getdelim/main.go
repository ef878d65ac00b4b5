// Command getdelim prints the first part of each FILE, as GNU head
// (coreutils 9.x) does, on top of package stream: the same options,
// output, messages and exit status, with the program's own name in front
// of its messages.
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
// On a seekable input the offset is left just after the last byte
// printed, so `{ getdelim -n 2; cat; } < file` prints the file once.
package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/stdiobuf/stdiobuf/stream"
)

func main() {
	prog := filepath.Base(os.Args[0])
	status, exitNow := run(prog, os.Args[1:], os.LookupEnv)
	if exitNow {
		// Standard output failed and was reported; there is nothing left
		// that a flush could deliver.
		os.Exit(status)
	}
	stream.Exit(status)
}

// run runs the tool and returns its exit status. exitNow says that the
// run ended on a write error that has been reported, and the program must
// exit without flushing standard output again.
func run(prog string, args []string, lookupEnv func(string) (string, bool)) (status int, exitNow bool) {
	cfg, act, err := parseArgs(args, lookupEnv)
	if err == nil {
		err = applyPolicy(cfg.policy, lookupEnv)
	}
	if err != nil {
		// Straight to the descriptor: stream.Stderr would first read a bad
		// STDIOBUF_POLICY and warn about it in its own words.
		fmt.Fprintf(os.Stderr, "%s: %s\n", prog, err)
		var ue *usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(os.Stderr, "Try '%s --help' for more information.\n", prog)
		}
		return 1, false
	}
	switch act {
	case actionHelp:
		writeHelp(stream.Stdout, prog)
		return 0, false
	case actionVersion:
		writeVersion(stream.Stdout, prog)
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
		for _, info := range t.inputs {
			fmt.Fprintf(stream.Stderr, "%s: stats: in: %s\n", prog, info)
		}
		fmt.Fprintf(stream.Stderr, "%s: stats: out: %s\n", prog, w.Info())
	}
	return status, false
}

// applyPolicy makes --policy the process's default buffer policy, which
// every stream (the standard ones too) uses when it allocates its buffer;
// without --policy it checks that STDIOBUF_POLICY, if set, is one stream
// can use.
func applyPolicy(policy string, lookupEnv func(string) (string, bool)) error {
	if policy != "" {
		p, err := stream.ParsePolicy(policy)
		if err != nil {
			return &policyError{source: "--policy", value: policy}
		}
		return stream.SetDefaultPolicy(p)
	}
	if v, ok := lookupEnv("STDIOBUF_POLICY"); ok && v != "" {
		if _, err := stream.ParsePolicy(v); err != nil {
			return &policyError{source: "STDIOBUF_POLICY", value: v}
		}
	}
	return nil
}
