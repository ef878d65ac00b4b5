// Command stdiobuf runs the go command with an overlay that makes the
// standard library's bufio be package stream, so an unmodified program,
// every dependency and the standard library included, gets glibc's FILE
// buffering wherever it uses bufio: a buffer sized from st_blksize for a
// file, line buffering on a terminal, and coreutils stdbuf's -i, -o and -e
// on descriptors 0, 1 and 2. Readers and Writers over anything that is not
// a descriptor keep bufio's exact behaviour.
//
// Usage:
//
//	stdiobuf build|install|run|test|vet [-stdout] [go flags] [packages]
//	stdiobuf overlay [-stdout]
//	stdiobuf version [-stdout]
//
// The first form runs `go VERB -overlay=FILE [go flags] [packages]` and
// exits with go's exit status. `stdiobuf overlay` prints FILE, for
// `go build -overlay=$(stdiobuf overlay) ./...` or
// GOFLAGS=-overlay=FILE. `stdiobuf version` prints the Go toolchain and
// the stream version the overlay is made for, and the overlay's path.
//
// stdiobuf uses the go command on PATH (or $GOROOT/bin/go) and asks it for
// GOROOT and GOVERSION, so GOTOOLCHAIN and a go.mod's toolchain line are
// honoured: the overlay is made for the toolchain that will compile. A
// toolchain GOTOOLCHAIN downloaded into the module cache, whose files go
// refuses to overlay, is run through a link to its GOROOT in stdiobuf's
// cache directory, with GOTOOLCHAIN=local. The overlay is
// generated from the stream source built into this binary, checked
// against that toolchain's bufio API and compiled, once per toolchain and
// stream version, into the user cache directory (os.UserCacheDir, then
// stdiobuf/); later runs reuse it. A -overlay flag of your own, on the
// command line or in GOFLAGS, is merged with stdiobuf's unless it
// replaces bufio's files too, which is refused.
//
// With -stdout (first, right after the verb) the overlay also changes
// package os so that the process's original standard output is buffered
// as a C program's stdout is: line buffered on a terminal, otherwise a
// buffer of the policy's size, _STDBUF_O and STDIOBUF_POLICY honoured,
// flushed on return from main, os.Exit and log.Fatal, before anything
// else can see the descriptor (Fd, SyscallConn, Stat, Seek, Sync, Close,
// a child process), before a read of standard input from anything but a
// regular file (a peer may be waiting for the output: glibc flushes only
// a line-buffered stdout there), and before each write to standard error
// when both are the same file. An unrecovered panic runs no exit hooks: what is still
// buffered then is lost, as after abort(3) in C. See internal/osstdout.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/stdiobuf/stdiobuf/internal/overlay"
)

const usage = `usage: stdiobuf build|install|run|test|vet [-stdout] [go flags] [packages]
       stdiobuf overlay [-stdout]
       stdiobuf version [-stdout]
`

// goVerbs are the go commands stdiobuf runs with its overlay.
var goVerbs = map[string]bool{"build": true, "install": true, "run": true, "test": true, "vet": true}

// exitError is a failure that has been reported, with the exit status to
// end with.
type exitError struct {
	msg  string // one line, printed as "stdiobuf: msg"; empty if go reported it
	code int
}

func (e *exitError) Error() string { return e.msg }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run carries out one command and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	err := dispatch(args, stdout, stderr)
	if err == nil {
		return 0
	}
	var ee *exitError
	if !errors.As(err, &ee) {
		ee = &exitError{msg: err.Error(), code: 1}
	}
	if ee.msg != "" {
		fmt.Fprintf(stderr, "stdiobuf: %s\n", ee.msg)
	}
	return ee.code
}

func dispatch(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		io.WriteString(stderr, usage)
		return &exitError{code: 2}
	}
	verb, args := args[0], args[1:]
	var opts overlay.Options
	if len(args) > 0 && (args[0] == "-stdout" || args[0] == "--stdout") {
		opts.Stdout, args = true, args[1:]
	}
	switch {
	case verb == "help" || verb == "-h" || verb == "-help" || verb == "--help":
		io.WriteString(stdout, usage)
		return nil
	case verb == "overlay" || verb == "version":
		if len(args) > 0 {
			return &exitError{msg: fmt.Sprintf("%s takes no arguments but -stdout", verb), code: 2}
		}
		g, err := findGo("")
		if err != nil {
			return err
		}
		ov, err := g.overlay(opts)
		if err != nil {
			return err
		}
		if verb == "overlay" {
			fmt.Fprintln(stdout, ov.JSON)
		} else {
			fmt.Fprintf(stdout, "stdiobuf: bufio is stream %s for %s (GOROOT %s)\noverlay: %s\n",
				ov.Version, g.tc.GOVERSION, g.tc.GOROOT, ov.JSON)
		}
		return nil
	case goVerbs[verb]:
		return runGo(verb, args, opts)
	}
	return &exitError{msg: fmt.Sprintf("unknown command %q (run stdiobuf help)", verb), code: 2}
}
