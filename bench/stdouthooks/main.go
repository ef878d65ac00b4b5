// Command stdouthooks is what bench/stdout-hooks.sh times, built plainly
// and with `stdiobuf build -stdout`: the start of a program (one line,
// then exit; -stdout starts a goroutine for fatal signals, and a thread
// before its buffer's first byte), and the runtime's println, which
// under -stdout first asks package os whether standard output must be
// flushed.
//
//	stdouthooks hello
//	stdouthooks quiet       nothing: no buffer takes a byte
//	stdouthooks println N   N println calls
//	stdouthooks mixed N     N pairs of fmt.Println and println
//	stdouthooks wait N      N lines, then "ready" on standard error, then
//	                        sleep until killed (-stdout flushes before a
//	                        fatal signal's death)
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: stdouthooks hello | quiet | println N | mixed N | wait N")
		os.Exit(2)
	}
	n := 0
	if len(os.Args) > 2 {
		var err error
		if n, err = strconv.Atoi(os.Args[2]); err != nil || n < 0 {
			fmt.Fprintf(os.Stderr, "stdouthooks: bad count %q\n", os.Args[2])
			os.Exit(2)
		}
	}
	switch os.Args[1] {
	case "hello":
		fmt.Println("hello")
	case "quiet":
	case "println":
		for i := range n {
			println("line", i)
		}
	case "mixed":
		for i := range n {
			fmt.Println("out", i)
			println("err", i)
		}
	case "wait":
		for i := range n {
			fmt.Println("line", i)
		}
		fmt.Fprintln(os.Stderr, "ready")
		time.Sleep(time.Hour)
	default:
		fmt.Fprintf(os.Stderr, "stdouthooks: unknown case %q\n", os.Args[1])
		os.Exit(2)
	}
}
