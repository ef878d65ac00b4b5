package stream

import (
	"io"
	"os"
)

// Package os is imported by this file and std.go alone. `stdiobuf build
// -stdout` compiles this package as the bufio that package os itself
// imports (os buffers the process's standard output with it), so there it
// cannot import os: the generator replaces the two files with ones that do
// without it (internal/osstdout/bufio).

// newSyscallError is os.NewSyscallError: the error of a failed kernel
// copy, as os.File's own copies report theirs.
func newSyscallError(name string, err error) error { return os.NewSyscallError(name, err) }

// osFile returns w if it is an *os.File: the writer whose Write turns
// EPIPE on standard output or standard error into the runtime's SIGPIPE.
func osFile(w io.Writer) (io.Writer, bool) {
	f, ok := w.(*os.File)
	return f, ok
}

// raFile is what read-ahead reads from, at offsets: an *os.File, whose
// reads hold its internal reference so that its owner's Close never
// closes the descriptor under a read in flight (readahead.go).
type raFile interface {
	io.ReaderAt
	io.Seeker
}

// raFileOf returns r if it is a non-nil *os.File.
func raFileOf(r io.Reader) (raFile, bool) {
	f, ok := r.(*os.File)
	if !ok || f == nil {
		return nil, false
	}
	return f, true
}
