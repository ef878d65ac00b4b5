// Package exits: a function that ends the program runs once per run,
// however many loops reach it. goyacc's exit flushes its outputs and
// calls os.Exit; its error reports, called per record, reach it only on
// a fatal error.
package exits

import (
	"bufio"
	"fmt"
	"io"
	"os"
)

var out *bufio.Writer

var fatal = len(os.Args) > 2

// exit flushes the output and ends the program.
func exit(status int) {
	if out != nil {
		out.Flush()
	}
	os.Exit(status)
}

// report ends the program on a fatal error.
func report(msg string) {
	fmt.Fprintln(os.Stderr, msg)
	if fatal {
		exit(1)
	}
}

// finish flushes and returns: per record where a loop calls it.
func finish() {
	out.Flush()
}

// leave flushes, then returns or ends the program: a return holds, so
// it may run per record.
func leave(quiet bool) {
	out.Flush()
	if quiet {
		return
	}
	os.Exit(2)
}

func Run(recs []string) { // want Run:`sink\(-1os.Stdout call=false loop=false\)`
	out = bufio.NewWriter(os.Stdout)
	for _, r := range recs {
		if r == "" {
			report("empty record")
		}
		fmt.Fprintln(out, r)
		finish()        // want `^per-record Flush of a buffer over os.Stdout via finish\(\): bufio.Writer.Flush \(exits.go:36\) writes once per record, which no stdiobuf build flag changes; flush once after the loop$`
		leave(r == "q") // want `^per-record Flush of a buffer over os.Stdout via leave\(\): bufio.Writer.Flush \(exits.go:42\) writes once per record`
	}
	out.Flush()
}

// printAll writes a line per record to w.
func printAll(w io.Writer, recs []string) int {
	for _, r := range recs {
		fmt.Fprintln(w, r)
	}
	return 0
}

// Main ends the program, but the loop of the function it calls runs per
// record.
func Main(recs []string) {
	os.Exit(printAll(os.Stdout, recs)) // want `^per-record write to os.Stdout via printAll\(w\): fmt.Fprintln \(exits.go:65\) makes one system call per record`
}
