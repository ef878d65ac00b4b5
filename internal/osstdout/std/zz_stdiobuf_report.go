//go:build stdiobuf_std

// This file is added to package os by `stdiobuf build -stdout` and
// `-files`. It gives bufio's report at exit (STDIOBUF_REPORT), which
// cannot import os, the files it needs, and names the buffers' files.

package os

import (
	"bufio"
	"io"
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
