package stream

import (
	"bytes"
	"strings"
)

// lineShim is the layer of a line-buffered Writer, as Rust's
// LineWriterShim is over its BufWriter. A write goes into the buffer by
// the fully buffered rules (writeBlock: a buffer that fills is written
// out), and then everything through the last newline written goes out in
// one write to the underlying writer; the bytes after it stay buffered.
// glibc's _IO_new_file_xsputn does the same, except that it writes the
// first chunk of a fresh stream byte by byte, which lineShim does not.
//
// If that last write fails, the write returns len(p) with the error.
// bufio's rule decides it: n counts the bytes the Writer took from p, and
// it took them all. They stay buffered (Buffered counts them) and the
// error is sticky, as when bufio.Writer.Write tops up its buffer and the
// flush fails. Rust's shim flushes before it takes anything, because its
// write cannot return a count and an error at once; io.Writer's can, so
// the count stays true.
type lineShim Writer

func (l *lineShim) write(p []byte) (int, error) {
	b := (*Writer)(l)
	nn, err := b.writeBlock(p)
	if err != nil {
		return nn, err
	}
	if i := bytes.LastIndexByte(p, '\n'); i >= 0 {
		return nn, b.flushLines(len(p) - 1 - i)
	}
	return nn, nil
}

func (l *lineShim) writeString(s string) (int, error) {
	b := (*Writer)(l)
	nn, err := b.writeBlockString(s)
	if err != nil {
		return nn, err
	}
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return nn, b.flushLines(len(s) - 1 - i)
	}
	return nn, nil
}

// flushRead writes out what ReadFrom read through its last newline.
func (l *lineShim) flushRead(m int) error {
	b := (*Writer)(l)
	if i := bytes.LastIndexByte(b.buf[b.n-m:b.n], '\n'); i >= 0 {
		return b.flushLines(m - 1 - i)
	}
	return nil
}

// flushLines writes the buffer out through its last newline, which lies
// just before the last tail buffered bytes. If no more than tail bytes are
// buffered, the newline has already gone out with a full buffer.
func (b *Writer) flushLines(tail int) error {
	if b.n > tail {
		return b.flushN(b.n - tail)
	}
	return nil
}
