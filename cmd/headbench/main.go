//go:build linux

// Command headbench measures what the buffer size does to a
// getdelim/fwrite loop: the benchmark of the glibc patch proposal to size
// FILE buffers by st_blksize, `head -n 290955` over a 230 MB file.
//
// It times `getdelim --loop -n N < input > /dev/null` and `getdelim -n N`
// under each buffering policy of package stream (the world's rules:
// glibc's, the glibc proposal's, Go's bufio, Rust's, coreutils',
// CPython's) and a sweep of fixed sizes, beside the programs a user would
// pick instead (GNU head, the same loop in C on glibc, Go's bufio, cat), on
// file systems that report st_blksize 1 KiB (ext4 -b 1024), 4 KiB (ext4,
// tmpfs), 128 KiB and 1 MiB (XFS), and writes the tables, every run,
// benchstat input and charts.
//
// Usage:
//
//	go run ./cmd/headbench [--quick] [--runs N] [--out DIR] [--input FILE]
//	    [--fs LIST | --no-mount] [--paths LIST] [--policies LIST]
//	    [--sweep LIST] [--peers LIST]
//
// Options are GNU-style, as getdelim's (internal/getopt). Run
// `go run ./cmd/headbench --help` for every option. It runs on Linux only:
// it needs /proc, loop devices and Linux's file system types.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-sigs
		cancel(interrupted{sig})
	}()
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	cancel(nil)
	os.Exit(code)
}

// run runs headbench with args and returns the exit status: 0 when every
// figure was taken, 1 when something failed, 2 for a bad command line,
// 128+signal when interrupted.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args)
	switch {
	case errors.Is(err, errHelp):
		fmt.Fprint(stdout, usageText)
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "headbench: %v\nTry 'headbench --help' for more information.\n", err)
		return 2
	}
	s := &session{o: o, out: stdout, log: stderr, prog: newProgress(stderr)}
	return s.main(ctx)
}
