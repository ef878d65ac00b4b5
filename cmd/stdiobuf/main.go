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
//	stdiobuf build|install|run|test|vet [-stdout] [-files] [-policy P] [-C dir] [go flags] [packages]
//	stdiobuf overlay [-stdout] [-files] [-policy P] [-C dir]
//	stdiobuf version [-stdout] [-files] [-policy P] [-C dir]
//	stdiobuf check [-C dir] [go vet flags] [packages]
//	stdiobuf help [command | stream | policies]
//
// The first form runs `go VERB [-C dir] -overlay=FILE [go flags] [packages]`
// and exits with go's exit status; the go command and every process it
// starts (a test binary, the go command that one runs) have the overlay in
// GOFLAGS. `stdiobuf overlay` prints FILE, for
// `go build -overlay=$(stdiobuf overlay) ./...` or GOFLAGS=-overlay=FILE.
// `stdiobuf version` prints the Go toolchain, the target and the stream
// version the overlay is made for, the default policy it builds in, and the
// overlay's path. stdiobuf's flags go anywhere before the packages:
// -stdout also buffers os.Stdout as a C program's stdout (see
// internal/osstdout), -files also buffers every regular file (and block
// device) the program writes or reads (it implies -stdout), -policy P builds P in as the program's
// default policy (STDIOBUF_POLICY still overrides it at run time). -C dir is go's,
// under go's rule: the first of go's flags (after stdiobuf's own, if any),
// or before the command (stdiobuf -C dir build). `stdiobuf help` says more
// (help.go).
//
// stdiobuf uses the go command on PATH (or $GOROOT/bin/go) and asks it for
// GOROOT, GOVERSION, GOOS and GOARCH, so GOTOOLCHAIN, a go.mod's toolchain
// line and a cross-compilation's target are honoured: the overlay is made
// for the toolchain and target that will compile, in -C's directory if
// given. A toolchain GOTOOLCHAIN downloaded into the module cache, whose
// files go refuses to overlay, is run through a link to its GOROOT in
// stdiobuf's cache directory, with GOTOOLCHAIN=local. The overlay is
// generated from the stream source built into this binary, checked against
// that toolchain's bufio API and compiled, once per toolchain, target,
// flags and stream version, into the user cache directory (os.UserCacheDir,
// then stdiobuf/); later runs reuse it. A -overlay flag of your own, on the
// command line or in GOFLAGS, is merged with stdiobuf's unless it replaces
// bufio's files too, which is refused.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/stdiobuf/stdiobuf/stream"
)

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
	vetTool()
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
	if dir, ok, usedNext, err := chdirFlag(verb, next(args, -1), len(args) > 0); ok {
		// stdiobuf -C dir verb ... is stdiobuf verb -C dir ..., as with go.
		if err != nil {
			return &exitError{msg: err.Error(), code: 2}
		}
		if usedNext {
			args = args[1:]
		}
		if len(args) == 0 {
			return &exitError{msg: "-C " + dir + " wants a command after it: stdiobuf -C dir build [flags] [packages]", code: 2}
		}
		verb, args = args[0], args[1:]
		if goVerbs[verb] || verb == "overlay" || verb == "version" || verb == "check" {
			args = append([]string{"-C", dir}, args...)
		}
	}
	switch name, _, _ := strings.Cut(strings.TrimLeft(verb, "-"), "="); {
	case verb == "help" || strings.HasPrefix(verb, "-") && (name == "h" || name == "help"):
		return help(stdout, args)
	case verb == "check":
		return runCheck(args, stdout, stderr)
	case strings.HasPrefix(verb, "-") && ownFlags[name]:
		return &exitError{msg: fmt.Sprintf("%s goes after the command: stdiobuf build %s ... (run stdiobuf help)", verb, verb), code: 2}
	case !goVerbs[verb] && verb != "overlay" && verb != "version":
		return &exitError{msg: fmt.Sprintf("unknown command %q (run stdiobuf help)", verb), code: 2}
	}
	ga, err := parseArgs(verb, args)
	if err != nil {
		return &exitError{msg: err.Error(), code: 2}
	}
	if ga.help {
		return help(stdout, []string{verb})
	}
	if ga.opts.Policy, err = canonicalPolicy(ga.opts.Policy); err != nil {
		return &exitError{msg: "-policy: " + err.Error(), code: 2}
	}
	if goVerbs[verb] {
		return runGo(verb, ga)
	}
	if len(ga.args) > 0 || ga.overlay != "" {
		return &exitError{msg: fmt.Sprintf("%s takes no arguments but -C dir, -stdout, -files and -policy P", verb), code: 2}
	}
	return show(stdout, verb, ga)
}

// show prints, for `stdiobuf overlay`, the overlay file made for ga's
// options and the toolchain go selects in ga's directory, or, for
// `stdiobuf version`, what it is made for.
func show(stdout io.Writer, verb string, ga goArgs) error {
	opts := ga.opts
	g, err := findGo(ga.dir)
	if err != nil {
		return err
	}
	ov, err := g.overlay(opts)
	if err != nil {
		return err
	}
	if verb == "overlay" {
		fmt.Fprintln(stdout, ov.JSON)
		return nil
	}
	policy, how := "blksize", "the default"
	if opts.Policy != "" {
		policy, how = opts.Policy, "built in by -policy"
	}
	fmt.Fprintf(stdout, "stdiobuf: bufio is stream %s for %s %s/%s (GOROOT %s)\n"+
		"policy: %s (%s; STDIOBUF_POLICY overrides it at run time)\noverlay: %s\n",
		ov.Version, g.tc.GOVERSION, g.tc.GOOS, g.tc.GOARCH, g.tc.GOROOT, policy, how, ov.JSON)
	return nil
}

// canonicalPolicy returns the policy named by s as stream prints it, ""
// for none or the default, or ParsePolicy's error.
func canonicalPolicy(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	p, err := stream.ParsePolicy(s)
	if err != nil || p == stream.PolicyDefault {
		return "", err
	}
	return p.String(), nil
}
