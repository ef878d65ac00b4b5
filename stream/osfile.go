package stream

import (
	"io"
	"os"
	"strconv"
)

// Package os is imported by this file and std.go alone. `stdiobuf build
// -stdout` compiles this package as the bufio that package os itself
// imports (os buffers the process's standard output with it), so there it
// cannot import os: the generator replaces the two files with ones that do
// without it (internal/osstdout/bufio).

// newSyscallError is os.NewSyscallError: the error of a failed kernel
// copy, as os.File's own copies report theirs.
func newSyscallError(name string, err error) error { return os.NewSyscallError(name, err) }

// isOSFile reports whether v is a non-nil *os.File, itself and not a
// type embedding one: the one kind of destination, and one of the
// sources, whose Read and Write a kernel copy may stand in for
// (planCopy).
func isOSFile(v any) bool {
	f, ok := v.(*os.File)
	return ok && f != nil
}

// controlOSFile calls fn with the descriptor of v if v is a non-nil
// *os.File, as its SyscallConn's Control does; isFile is false, and fn is
// not called, if v is not one. Called on the concrete type, SyscallConn
// and Control are inlined and devirtualized, so that neither the RawConn
// nor fn escapes: deciding a stream over a file allocates nothing.
func controlOSFile(v any, fn func(fd uintptr)) (isFile bool, err error) {
	f, ok := v.(*os.File)
	if !ok || f == nil {
		return false, nil
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return true, err
	}
	return true, rc.Control(fn)
}

// osFile returns w if it is an *os.File: the writer whose Write turns
// EPIPE on standard output or standard error into the runtime's SIGPIPE.
func osFile(w io.Writer) (io.Writer, bool) {
	f, ok := w.(*os.File)
	return f, ok
}

// kernelFlush is called by Writer.Flush once its bytes went to w: w's own
// buffering, if it has any, is its own business here. (Under `stdiobuf
// build -stdout`, where package os buffers the original standard output,
// the twin of this file writes that buffer out.)
func kernelFlush(w io.Writer) error { return nil }

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

// openReport creates or truncates the file the report at exit goes to
// (report.go), and returns it with its Close.
func openReport(name string) (io.Writer, func() error, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		return nil, nil, err
	}
	return f, f.Close, nil
}

// fdPath returns where descriptor fd leads as /proc says ("/tmp/out",
// "pipe:[1234]", "/dev/null"), or "" where there is no /proc.
func fdPath(fd int) string {
	p, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	if err != nil {
		return ""
	}
	return p
}
