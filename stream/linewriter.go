package stream

import (
	"bytes"
	"strings"
)

// Line buffering is a thin layer over the block-buffered writer, as Rust's
// LineWriterShim is over its BufWriter: the bytes go into the buffer by
// the block rules (a full buffer is flushed as in full mode), and then
// everything through the last newline written goes out in one write(2),
// the tail staying buffered. glibc (_IO_new_file_xsputn) does the same,
// except that it writes the first chunk of a fresh stream byte by byte, a
// quirk not copied here.

// writeLines is Write for a line-buffered Writer.
func (b *Writer) writeLines(p []byte) (int, error) {
	nn, err := b.writeBlock(p)
	if err != nil {
		return nn, err
	}
	if i := bytes.LastIndexByte(p, '\n'); i >= 0 {
		return nn, b.flushLines(len(p) - 1 - i)
	}
	return nn, nil
}

// writeLinesString is WriteString for a line-buffered Writer.
func (b *Writer) writeLinesString(s string) (int, error) {
	nn, err := b.writeBlockString(s)
	if err != nil {
		return nn, err
	}
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return nn, b.flushLines(len(s) - 1 - i)
	}
	return nn, nil
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

// flushChunk applies the mode to m bytes just read into the end of the
// buffer (by ReadFrom): a line-buffered writer writes out through their
// last newline, an unbuffered one writes them all.
func (b *Writer) flushChunk(m int) error {
	switch b.s.mode {
	case LineBuffered:
		if i := bytes.LastIndexByte(b.buf[b.n-m:b.n], '\n'); i >= 0 {
			return b.flushLines(m - 1 - i)
		}
	case Unbuffered:
		return b.Flush()
	}
	return nil
}
