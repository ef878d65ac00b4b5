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
//	stdiobuf build|install|run|test|vet [go flags] [packages]
//	stdiobuf overlay
//	stdiobuf version
//
// The first form runs `go VERB -overlay=FILE [go flags] [packages]` and
// exits with go's exit status. `stdiobuf overlay` prints FILE, for
// `go build -overlay=$(stdiobuf overlay) ./...` or
// GOFLAGS=-overlay=FILE. `stdiobuf version` prints the Go toolchain and
// the stream version the overlay is made for, and the overlay's path.
//
// stdiobuf uses the go command on PATH (or $GOROOT/bin/go) and asks it for
// GOROOT and GOVERSION, so GOTOOLCHAIN and a go.mod's toolchain line are
// honoured: the overlay is made for the toolchain that will compile. It is
// generated from the stream source built into this binary, checked
// against that toolchain's bufio API and compiled, once per toolchain and
// stream version, into the user cache directory (os.UserCacheDir, then
// stdiobuf/); later runs reuse it. A -overlay flag of your own, on the
// command line or in GOFLAGS, is merged with stdiobuf's unless it
// replaces bufio's files too, which is refused.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

const usage = `usage: stdiobuf build|install|run|test|vet [go flags] [packages]
       stdiobuf overlay
       stdiobuf version
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
	switch {
	case verb == "help" || verb == "-h" || verb == "-help" || verb == "--help":
		io.WriteString(stdout, usage)
		return nil
	case verb == "overlay" || verb == "version":
		if len(args) > 0 {
			return &exitError{msg: fmt.Sprintf("%s takes no arguments", verb), code: 2}
		}
		g, err := findGo("")
		if err != nil {
			return err
		}
		ov, err := g.overlay()
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
		return runGo(verb, args)
	}
	return &exitError{msg: fmt.Sprintf("unknown command %q (run stdiobuf help)", verb), code: 2}
}
