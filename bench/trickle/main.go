//go:build linux

// Command trickle writes to standard output the way the programs that
// `stdiobuf build -stdout`'s bound exists for do: a line every -period
// (progress, a log), each stamped with the time it was written, or with
// -ready one "READY" line and then nothing for -hold, as a server that
// prints READY and waits. bench/stdoutlat runs it, built plainly and with
// -stdout, and measures how late each line arrives.
//
// Lines are "SEQ UNIXNANO\n" (READY: "READY UNIXNANO\n"). At the end it
// syncs standard output (under -stdout: flushes it) and reports on
// standard error the write(2) calls it made, from /proc/self/io:
// "writes N".
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"
)

func main() {
	period := flag.Duration("period", 10*time.Millisecond, "time between lines")
	lines := flag.Int("lines", 100, "how many lines")
	ready := flag.Bool("ready", false, "print one READY line, then wait for -hold")
	hold := flag.Duration("hold", 300*time.Millisecond, "with -ready: how long to wait after the line")
	flag.Parse()
	if *ready {
		fmt.Printf("READY %d\n", time.Now().UnixNano())
		time.Sleep(*hold)
	} else {
		next := time.Now()
		for i := range *lines {
			fmt.Printf("%d %d\n", i, time.Now().UnixNano())
			next = next.Add(*period)
			time.Sleep(time.Until(next))
		}
	}
	os.Stdout.Sync()
	n, err := syscw()
	if err != nil {
		fmt.Fprintln(os.Stderr, "trickle:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "writes %d\n", n)
}

// syscw is the count of write system calls the process made so far.
func syscw() (int, error) {
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0, err
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("syscw: ")); ok {
			return strconv.Atoi(string(v))
		}
	}
	return 0, fmt.Errorf("no syscw in /proc/self/io")
}
