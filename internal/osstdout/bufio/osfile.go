//go:build stdiobuf_std

package bufio

import (
	"errors"
	"io"
	"strconv"
	"syscall"
	_ "unsafe" // for go:linkname
)

// Under `stdiobuf build -stdout` package os imports this package to buffer
// the process's standard output, so this package cannot import os. This
// file and std.go stand in for stream's osfile.go and std.go.

// osSide is what package os tells this package about its files, which
// this package cannot name. Package os fills it while it initialises,
// through setOSSide, before any package that imports os does; in a
// program without package os it stays empty, and no value is an *os.File.
var osSide struct {
	isFile  func(v any) bool        // v is a non-nil *os.File, not a type embedding one
	flushed func(w io.Writer) error // called after a Writer over w flushed (kernelFlush)
}

// setOSSide is the one channel from package os to this package: os calls
// it through a go:linkname (os's zz_stdiobuf_stdout.go, stdioSetBufioSide,
// repeats this signature, which no compiler checks across the two: change
// both together).
//
//go:linkname setOSSide
func setOSSide(isFile func(any) bool, flushed func(io.Writer) error) {
	osSide.isFile, osSide.flushed = isFile, flushed
}

// kernelFlush is called by Writer.Flush once its bytes went to w: if w is
// the process's original standard output, which package os buffers, os
// writes them out, so that they are in the kernel when Flush returns, as
// after fflush(stdout) in C.
func kernelFlush(w io.Writer) error {
	if osSide.flushed == nil {
		return nil
	}
	return osSide.flushed(w)
}

// syscallError is what a failed kernel copy returns here, in place of
// *os.SyscallError (which this package cannot name): the same text, and
// the errno behind it through errors.Is and errors.As.
type syscallError struct {
	Syscall string
	Err     error
}

func (e *syscallError) Error() string { return e.Syscall + ": " + e.Err.Error() }

func (e *syscallError) Unwrap() error { return e.Err }

// newSyscallError is os.NewSyscallError without package os.
func newSyscallError(name string, err error) error {
	if err == nil {
		return nil
	}
	return &syscallError{name, err}
}

// isOSFile reports whether v is a non-nil *os.File, as package os says
// (osSide): the one kind of destination, and one of the sources, whose
// Read and Write a kernel copy may stand in for (planCopy).
func isOSFile(v any) bool {
	return osSide.isFile != nil && osSide.isFile(v)
}

// controlOSFile reports that v is no *os.File it can reach without an
// interface: the caller (statDescriptor) then takes v's descriptor
// through SyscallConn, as for any descriptor.
func controlOSFile(v any, fn func(fd uintptr)) (isFile bool, err error) {
	return false, nil
}

// osFile returns w if it is a descriptor writer (an *os.File is one: it has
// Fd and SyscallConn), whose Write turns EPIPE on standard output or
// standard error into the runtime's SIGPIPE.
func osFile(w io.Writer) (io.Writer, bool) {
	_, fd := w.(interface{ Fd() uintptr })
	_, conn := w.(syscall.Conn)
	return w, fd && conn
}

// raFile is what read-ahead reads from, at offsets (readahead.go).
type raFile interface {
	io.ReaderAt
	io.Seeker
}

// raFileOf returns r if it is a non-nil *os.File, as package os says
// (osSide): read-ahead reads a concrete file through its ReadAt, never a
// type that embeds one and overrides Read.
func raFileOf(r io.Reader) (raFile, bool) {
	f, ok := r.(raFile)
	if !ok || osSide.isFile == nil || !osSide.isFile(r) {
		return nil, false
	}
	return f, true
}

// writeUnkept is w.Write(p) for package os, through a go:linkname (os's
// zz_stdiobuf_buffer.go, stdioWriterWrite, declares it //go:noescape and
// repeats this signature, which no compiler checks across the two:
// change both together). It keeps nothing of p once it returns where w's
// writer does not, as the file writers of os's buffers do not.
//
//go:linkname writeUnkept
func writeUnkept(w *Writer, p []byte) (int, error) { return w.Write(p) }

// writerSpace returns, where w is fully buffered and takes a write that
// fits without counting it (the report counts each write of the Writers
// it lists: countWrites), w's buffer and the places where w counts the
// bytes it holds and keeps its error; otherwise a nil buffer. Package os
// copies a Write that fits the free space straight into buf[*n:] and
// adds to *n, under its own lock, while *err is nil: no call a Write, as
// a bufio.Writer's Write makes none. A Writer's buffer and mode are set
// at its first write and change only where Setvbuf, SetPolicy or Reset
// make them, which os never calls on its Writers; os asks again after
// each write that goes through w. Through a go:linkname (os's
// zz_stdiobuf_buffer.go, stdioWriterSpace, repeats this signature:
// change both together).
//
//go:linkname writerSpace
func writerSpace(w *Writer) (buf []byte, n *int, err *error) {
	if w.s.mode != FullyBuffered {
		return nil, nil, nil
	}
	return w.buf, &w.n, &w.err
}

// generatedFile reports whether fd's file system makes its files'
// contents at each read (generatedFS): under -files package os keeps
// such files unbuffered, through a go:linkname (its sys_linux.go).
//
//go:linkname generatedFile
func generatedFile(fd uintptr) bool { return generatedFS(fd) }

// reportSide is what package os gives the report at exit (report.go),
// which needs files: os fills it while it initialises, through
// setReportSide. In a program without package os it stays empty, and
// the report goes to standard error.
var reportSide struct {
	open     func(name string) (io.Writer, func() error, error) // creates the report's file
	readlink func(name string) (string, error)                  // os.Readlink
}

// setReportSide fills reportSide: os calls it through a go:linkname
// (os's zz_stdiobuf_report.go, stdioSetReportSide, repeats this
// signature, which no compiler checks across the two: change both
// together).
//
//go:linkname setReportSide
func setReportSide(open func(string) (io.Writer, func() error, error), readlink func(string) (string, error)) {
	reportSide.open, reportSide.readlink = open, readlink
}

// openReport creates or truncates the report's file, through package os.
func openReport(name string) (io.Writer, func() error, error) {
	if reportSide.open == nil {
		return nil, nil, errNoOS
	}
	return reportSide.open(name)
}

// errNoOS is openReport's error in a program without package os.
var errNoOS = errors.New("no package os to create it")

// fdPath returns where descriptor fd leads as /proc says ("/tmp/out",
// "pipe:[1234]", "/dev/null"), or "" where there is no /proc.
func fdPath(fd int) string {
	if reportSide.readlink == nil {
		return ""
	}
	p, err := reportSide.readlink("/proc/self/fd/" + strconv.Itoa(fd))
	if err != nil {
		return ""
	}
	return p
}

// wroteAround counts, for the report, a write of n bytes that package os
// made straight to w's descriptor, around w, as one call and one write:
// os's buffers (-stdout, -files) send a write of a buffer or more so. os
// calls it through a go:linkname (its zz_stdiobuf_report.go,
// stdioWroteAround, repeats this signature: change both together).
//
//go:linkname wroteAround
func wroteAround(w *Writer, n int) {
	if reportOn && w.s.overFD {
		w.s.calls.taken++
		w.s.calls.writes++
		w.s.calls.bytes += int64(max(n, 0))
	}
}

// readAround counts, for the report, system calls that package os made
// for the read buffer r decided (-files), whose own Reader never reads:
// reads read(2) calls that brought n bytes into the program, kernel
// tee(2) calls of a pipe. os calls it through a go:linkname (its
// zz_stdiobuf_report.go, stdioReadAround, repeats this signature: change
// both together).
//
//go:linkname readAround
func readAround(r *Reader, reads, kernel, n int) {
	if reportOn && r.s.overFD {
		r.s.calls.reads += int64(reads)
		r.s.calls.kernel += int64(kernel)
		r.s.calls.bytes += int64(max(n, 0))
	}
}

// readPlain records, for the report, that package os reads r's file
// plainly though r decided a buffer for it (-files): r's line says
// Unbuffered, with why as its reason. os calls it through a go:linkname
// (its zz_stdiobuf_report.go, stdioReadPlain, repeats this signature:
// change both together).
//
//go:linkname readPlain
func readPlain(r *Reader, why string) {
	if reportOn && r.s.decided {
		r.s.info.Mode, r.s.mode = Unbuffered, Unbuffered
		r.s.why.mode, r.s.why.os = modeOS, why
	}
}

// reportActive reports whether the report is on: package os formats the
// reason it gives readPlain only then. os calls it through a go:linkname
// (its zz_stdiobuf_report.go, stdioReportActive).
//
//go:linkname reportActive
func reportActive() bool { return reportOn }

// reportPlainFile registers, for the report, a file that package os
// reads (write false) or writes without a buffer (reportPlain). os calls
// it through a go:linkname (its zz_stdiobuf_report.go,
// stdioReportPlain, repeats this signature: change both together).
//
//go:linkname reportPlainFile
func reportPlainFile(u any, write bool, state func() (calls, bytes int64, why string)) {
	reportPlain(u, write, state)
}
