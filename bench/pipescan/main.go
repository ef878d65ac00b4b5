// Command pipescan times the Reads of a program that reads its standard
// input one byte at a time, for bench/pipescan.sh: built with
// `stdiobuf build -files` and standard input a pipe, its second Read is
// where -files decides whether the pipe gets a read buffer, which
// includes the look through /proc for other readers of the pipe.
//
// It prints, in microseconds, the second Read's time and the median of
// the next reads': "second 123.4 median 0.2".
package main

import (
	"fmt"
	"os"
	"slices"
	"time"
)

func main() {
	const reads = 64
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
	rest := slices.Clone(ds[2:])
	slices.Sort(rest)
	us := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }
	fmt.Printf("second %.1f median %.1f\n", us(ds[1]), us(rest[len(rest)/2]))
}
