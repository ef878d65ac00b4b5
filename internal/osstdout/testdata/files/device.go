package main

import (
	"fmt"
	"os"
)

// The cases that reach one file through two names: FILE and ARGS[0], a
// block device's two nodes (the test makes the second with mknod).
func init() {
	// Writes through both names, each opened at offset 0: "aaaa\n"
	// through FILE, "bbbbbbbb\n" through ARGS[0] over it, then "cc\n"
	// through FILE at offset 5. In the program's order the file begins
	// "bbbbbcc\n\n"; if each name had a buffer of its own, written out
	// in turn at exit, it would begin "bbbbbbbb\n".
	cases["twonames"] = func(path string, args []string) {
		f := opened(os.OpenFile(path, os.O_WRONLY, 0))
		g := opened(os.OpenFile(args[0], os.O_WRONLY, 0))
		fmt.Fprint(f, "aaaa\n")
		fmt.Fprint(g, "bbbbbbbb\n")
		fmt.Fprint(f, "cc\n")
	}
	// Writes an integer through FILE and reads it with fmt.Fscan through
	// ARGS[0], five times: each read sees the integer just written, as
	// long as no read buffer of ARGS[0] holds what came before it.
	cases["twonamesread"] = func(path string, args []string) {
		f := opened(os.OpenFile(path, os.O_WRONLY, 0))
		g := opened(os.Open(args[0]))
		for i := range 5 {
			fmt.Fprintf(f, "%d\n", 100000+i)
			scanInts(g, 1)
		}
	}
}
