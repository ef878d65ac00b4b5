// Command plaincost times plain Reads and Writes of *os.File that no
// buffer of package os's takes under `stdiobuf build -files` (one byte
// at a time to /dev/null and from /dev/zero, character devices), for
// bench/report-totals.sh's cost check: each is a system call, and the
// report's counting adds, with STDIOBUF_REPORT unset, one test of a
// variable to it.
//
//	plaincost N
//
// prints "write NS read NS", nanoseconds per call.
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

func main() {
	n, err := strconv.Atoi(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "usage: plaincost N")
		os.Exit(2)
	}
	w, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		panic(err)
	}
	r, err := os.Open("/dev/zero")
	if err != nil {
		panic(err)
	}
	b := []byte{'x'}
	start := time.Now()
	for range n {
		w.Write(b)
	}
	wt := time.Since(start)
	start = time.Now()
	for range n {
		r.Read(b)
	}
	rt := time.Since(start)
	fmt.Printf("write %.1f read %.1f\n", float64(wt.Nanoseconds())/float64(n), float64(rt.Nanoseconds())/float64(n))
}
