// Command pipescan times the Reads of a program that reads its standard
// input one byte at a time, for bench/pipescan.sh: built with
// `stdiobuf build -files` and standard input a pipe, its Read number
// -at (64 by default) is where -files decides whether the pipe gets a
// read buffer, which includes the look through /proc for other readers
// of the pipe and the first fill.
//
// It prints, in microseconds, that Read's time and the median of the
// Reads after it: "decision 123.4 median 0.2".
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"time"
)

func main() {
	at := flag.Int("at", 64, "the Read, counted from 1, whose time is the decision's")
	flag.Parse()
	reads := 2 * *at
	var b [1]byte
	ds := make([]time.Duration, 0, reads)
	for range reads {
		start := time.Now()
		if _, err := os.Stdin.Read(b[:]); err != nil {
			fmt.Fprintln(os.Stderr, "pipescan:", err)
			os.Exit(1)
		}
		ds = append(ds, time.Since(start))
	}
	rest := slices.Clone(ds[*at:])
	slices.Sort(rest)
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
	fmt.Printf("decision %.1f median %.1f\n", us(ds[*at-1]), us(rest[len(rest)/2]))
}
