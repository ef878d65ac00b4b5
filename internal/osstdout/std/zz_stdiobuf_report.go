//go:build stdiobuf_std

// This file is added to package os by `stdiobuf build -stdout` and
// `-files`. It gives bufio's report at exit (STDIOBUF_REPORT), which
// cannot import os, the files it needs, and names the buffers' files.

package os

import (
	"bufio"
	"errors"
	"io"
	"sync/atomic"
	_ "unsafe" // for go:linkname
)

// stdioSetReportSide is bufio's setReportSide
// (internal/osstdout/bufio/osfile.go). The signature must stay the same
// as setReportSide's: no compiler checks it across a go:linkname.
//
//go:linkname stdioSetReportSide bufio.setReportSide
func stdioSetReportSide(open func(string) (io.Writer, func() error, error), readlink func(string) (string, error))

// readlink is Readlink's own body: under -files Readlink writes out every
// buffered file first, as a path operation, which the report, naming a
// stream at its first write, must not make happen.
func init() { stdioSetReportSide(stdioReportOpen, readlink) }

// stdioReportOpen creates or truncates the report's file.
func stdioReportOpen(name string) (io.Writer, func() error, error) {
	f, err := OpenFile(name, O_WRONLY|O_CREATE|O_TRUNC, 0o666)
	if err != nil {
		return nil, nil, err
	}
	return f, f.Close, nil
}

// stdioWroteAround is bufio's wroteAround: it counts a write made around
// a buffer for the report. The signature must stay the same as
// wroteAround's.
//
//go:linkname stdioWroteAround bufio.wroteAround
func stdioWroteAround(w *bufio.Writer, n int)

// rawWrite is a write of the buffer's owner straight to its file f,
// around w, which the report counts as w's.
func (b *stdioBuffer) rawWrite(f *File, p []byte) (int, error) {
	n, err := f.stdioRawWrite(p)
	stdioWroteAround(b.w, n)
	return n, err
}

// Name names the file the buffer writes to, for the report's line.
func (r stdioRawFile) Name() string { return r.f.Name() }

// StdiobufBuffer tells the report which of package os's buffers writes
// through r: standard output's (-stdout) or a file's (-files).
func (r stdioRawFile) StdiobufBuffer() string {
	if r.f == stdioOut.out {
		return "stdout"
	}
	return "files"
}

// stdioReadAround is bufio's readAround: it counts, for the report, the
// system calls a read buffer made. The signature must stay the same as
// readAround's.
//
//go:linkname stdioReadAround bufio.readAround
func stdioReadAround(r *bufio.Reader, reads, kernel, n int)

// stdioReadPlainly is bufio's readPlain: the report's line of a file that
// had a buffer decided says it is read plainly, and why. The signature
// must stay the same as readPlain's.
//
//go:linkname stdioReadPlainly bufio.readPlain
func stdioReadPlainly(r *bufio.Reader, why string)

// stdioReportActive is bufio's reportActive: whether the report is on.
//
//go:linkname stdioReportActive bufio.reportActive
func stdioReportActive() bool

// counted counts, for the report, system calls the buffer made on its
// file: reads read(2) calls that brought n bytes into the program (a
// pipe's consume brings none: its bytes came through the copy), kernel
// tee(2) calls. It costs a call and a test while the report is off.
func (b *stdioReadBuf) counted(reads, kernel, n int) {
	stdioReadAround(b.rd, reads, kernel, n)
}

// plainNow records, for the report, that b's file is read plainly from
// now on, for the reason why.
func (b *stdioReadBuf) plainNow(why string) { stdioReadPlainly(b.rd, why) }

// stdioReportPlain is bufio's reportPlainFile: it registers a file read
// or written plainly for the report. The signature must stay the same
// as reportPlainFile's.
//
//go:linkname stdioReportPlain bufio.reportPlainFile
func stdioReportPlain(u any, write bool, state func() (calls, bytes int64, why string))

// stdioReportOn is whether the report is on, read once: bufio, which os
// imports, has read the variable by the time os initialises.
var stdioReportOn = stdioReportActive()

// stdioPlainCount is, while the report is on, what a file's plain Reads
// and Writes made: the read(2) and write(2) calls of *File's Read and
// Write that no buffer of os made (a file read in blocks of 4096 bytes
// or more, standard error, a pipe), each a line of the report
// (buffer=none), and why the file stayed plain. Reads before a read
// buffer's decision and after its file is read plainly go to that
// buffer's line (line); the first Write of a file that gets a write
// buffer at its second goes to that buffer's line (stdioBuffer's
// before), and is taken off here. It refers to no *File, so that a
// file the program drops is freed and closed as without the report.
type stdioPlainCount struct {
	reads, readBytes   atomic.Int64
	writes, writeBytes atomic.Int64
	small              atomic.Bool // a plain Read of fewer than stdioReadSmall bytes was made
	readSeen           atomic.Bool // the read line is registered
	writeSeen          atomic.Bool // the write line is registered
	readWhy, writeWhy  atomic.Pointer[string]
	// line is the Reader whose line the file's plain reads count on
	// once a read buffer was decided for it (the buffer's, or the one
	// that decided it plain with a reason).
	line atomic.Pointer[bufio.Reader]
}

// stdioPlainFile is what a plain file's line is registered with: the
// original methods, and buffer=none.
type stdioPlainFile struct{ stdioRawFile }

// StdiobufBuffer says that no buffer of os's is over the file.
func (stdioPlainFile) StdiobufBuffer() string { return "none" }

// stdioPlainOf returns f's counts, made on the first call.
func (f *File) stdioPlainOf() *stdioPlainCount {
	st := f.stdioNotes.need()
	if c := st.report.Load(); c != nil {
		return c
	}
	st.report.CompareAndSwap(nil, new(stdioPlainCount))
	return st.report.Load()
}

// stdioPlainRead counts, while the report is on, a plain Read of f of
// asked bytes that returned n and err: one read(2), unless none was made
// (nothing asked for, the file closed).
func stdioPlainRead(f *File, asked, n int, err error) {
	if stdioReportOn && asked > 0 {
		f.stdioPlainCounted(false, asked, n, err)
	}
}

// stdioPlainWrite counts, while the report is on, a plain Write of f
// that returned n and err: one write(2), unless the file was closed.
func stdioPlainWrite(f *File, n int, err error) {
	if stdioReportOn {
		f.stdioPlainCounted(true, 0, n, err)
	}
}

// stdioPlainCounted counts a plain read or write of f.
func (f *File) stdioPlainCounted(write bool, asked, n int, err error) {
	if f == nil || err != nil && n <= 0 && (errors.Is(err, ErrClosed) || errors.Is(err, ErrInvalid)) {
		return
	}
	c := f.stdioPlainOf()
	bytes := int64(max(n, 0))
	if write {
		c.writes.Add(1)
		c.writeBytes.Add(bytes)
		if !c.writeSeen.Load() && c.writeSeen.CompareAndSwap(false, true) {
			c.writeWhy.CompareAndSwap(nil, stdioPlainFirstWhy(f, true))
			stdioReportPlain(stdioPlainFile{stdioRawFile{f}}, true, c.writeState)
		}
		return
	}
	if rd := c.line.Load(); rd != nil {
		stdioReadAround(rd, 1, 0, n)
		return
	}
	if asked < stdioReadSmall {
		c.small.Store(true)
	}
	c.reads.Add(1)
	c.readBytes.Add(bytes)
	if !c.readSeen.Load() && c.readSeen.CompareAndSwap(false, true) {
		c.readWhy.CompareAndSwap(nil, stdioPlainFirstWhy(f, false))
		stdioReportPlain(stdioPlainFile{stdioRawFile{f}}, false, c.readState)
	}
}

// stdioPlainFirstWhy is why f is read or written plainly where that is
// known at its first plain read or write; nil where it is decided later.
func stdioPlainFirstWhy(f *File, write bool) *string {
	why := ""
	switch {
	case f == stdioOut.errf:
		why = "standard error: unbuffered, as in C"
	case !stdioFilesOn:
		why = "-stdout buffers standard output only"
	case f == stdioOut.out:
		why = "standard output: written plainly"
	default:
		return nil
	}
	return &why
}

// writeState is the write line's counts and reason at exit.
func (c *stdioPlainCount) writeState() (calls, bytes int64, why string) {
	calls, bytes = c.writes.Load(), c.writeBytes.Load()
	if p := c.writeWhy.Load(); p != nil {
		return calls, bytes, *p
	}
	if calls == 1 {
		return calls, bytes, "written once: a buffer is decided at the second Write"
	}
	return calls, bytes, "written plainly"
}

// readState is the read line's counts and reason at exit.
func (c *stdioPlainCount) readState() (calls, bytes int64, why string) {
	calls, bytes = c.reads.Load(), c.readBytes.Load()
	if p := c.readWhy.Load(); p != nil {
		return calls, bytes, *p
	}
	if !c.small.Load() {
		return calls, bytes, "reads of 4096 bytes or more (and ReadAt) go straight to the file"
	}
	return calls, bytes, "no second read of fewer than 4096 bytes: no buffer decided"
}

// stdioPlainWhy records, while the report is on, why f is read (write
// false) or written plainly, decided now.
func stdioPlainWhy(f *File, write bool, why string) {
	if !stdioReportOn || f == nil {
		return
	}
	c := f.stdioPlainOf()
	if write {
		c.writeWhy.Store(&why)
	} else {
		c.readWhy.Store(&why)
	}
}

// stdioReadLine makes rd's line, a read buffer's decided for f, the
// one f's plain reads count on from now on, with those made so far: the
// reads before the decision and after f is read plainly are the line's
// as strace sees them.
func stdioReadLine(f *File, rd *bufio.Reader) {
	if !stdioReportOn || f == nil || rd == nil {
		return
	}
	c := f.stdioPlainOf()
	c.line.Store(rd)
	if n := c.reads.Swap(0); n > 0 {
		stdioReadAround(rd, int(n), 0, int(c.readBytes.Swap(0)))
	}
}

// stdioWriteTaken takes f's plain writes off its line: a write buffer
// decided for f counts them (its first Write) on its own.
func stdioWriteTaken(f *File) {
	if !stdioReportOn || f == nil {
		return
	}
	c := f.stdioPlainOf()
	c.writes.Store(0)
	c.writeBytes.Store(0)
}

// stdioPlainKindWhy is why f, whose fstat is fi, neither a regular file
// nor a block device, has no buffer under -files.
func stdioPlainKindWhy(f *File, fi FileInfo) string {
	if !stdioReportOn {
		return ""
	}
	m := fi.Mode()
	switch {
	case m&ModeNamedPipe != 0 && f == stdioOut.in:
		return "pipe: standard input's gets a read buffer only from a pipe it can tee"
	case m&ModeNamedPipe != 0:
		return "pipe: only standard input's is buffered"
	case m&ModeSocket != 0:
		return "socket: not buffered under -files"
	case m&ModeCharDevice != 0:
		return "character device: not buffered under -files"
	case m.IsDir():
		return "directory"
	}
	return "not a regular file: not buffered under -files"
}
