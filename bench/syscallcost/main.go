//go:build linux

// Command syscallcost measures what one 4096-byte write to /dev/null costs
// from Go, through (*os.File).Write (what a Writer uses), the file's
// RawConn, and a bare syscall.Syscall; bench/c/write4k.c measures the same
// write(2) from C. Each figure is the median over 9 rounds of 56000 calls,
// the number of 4 KiB writes the head benchmark makes to its output. The
// difference between Go's and C's figures, times 56000, is what a Go
// getdelim/write loop pays over the C loop at the same buffer sizes: the
// runtime's entry to and exit from every system call, which no Go code
// avoids safely (a raw system call that blocks stalls the scheduler).
package main

import (
	"fmt"
	"os"
	"slices"
	"syscall"
	"time"
	"unsafe"
)

const (
	calls  = 56000
	rounds = 9
)

func main() {
	f, err := os.OpenFile("/dev/null", os.O_WRONLY, 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, "syscallcost:", err)
		os.Exit(1)
	}
	rc, err := f.SyscallConn()
	if err != nil {
		fmt.Fprintln(os.Stderr, "syscallcost:", err)
		os.Exit(1)
	}
	buf := make([]byte, 4096)
	rawWrite := func(fd uintptr) bool {
		syscall.Write(int(fd), buf)
		return true
	}
	var fd uintptr
	rc.Control(func(d uintptr) { fd = d })
	paths := []struct {
		name  string
		write func()
	}{
		{"(*os.File).Write", func() { f.Write(buf) }},
		{"RawConn.Write + write(2)", func() { rc.Write(rawWrite) }},
		{"syscall.Syscall(SYS_WRITE)", func() {
			syscall.Syscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
		}},
	}
	ns := make([][]time.Duration, len(paths))
	for range rounds { // interleaved: each round times every path once
		for i, p := range paths {
			start := time.Now()
			for range calls {
				p.write()
			}
			ns[i] = append(ns[i], time.Since(start)/calls)
		}
	}
	for i, p := range paths {
		slices.Sort(ns[i])
		fmt.Printf("%s\t%d ns/call\n", p.name, ns[i][rounds/2].Nanoseconds())
	}
}
