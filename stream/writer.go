package stream

import (
	"io"
	"unicode/utf8"
)

// Writer implements buffering for an io.Writer object. It is bufio.Writer,
// with glibc's choice of mode and size for a writer over a file descriptor.
//
// The bytes buffered and not yet written are buf[0:n]. A Writer over a
// descriptor has a nil buf until its first write; then doallocate
// (filedoalloc.go) decides its mode and size. An unbuffered Writer
// allocates a buffer only if AvailableBuffer or ReadFrom needs one.
//
// If an error occurs writing to a Writer, no more data will be accepted
// and all subsequent writes, and Flush, will return the error; the bytes
// that were not written stay buffered (Buffered tells how many). After all
// data has been written, the client should call Flush to guarantee all
// data has been forwarded to the underlying io.Writer.
//
// A Writer is not safe for use by several goroutines at once; Stdout and
// Stderr are.
type Writer struct {
	err  error
	buf  []byte
	n    int
	wr   io.Writer
	mode Mode // copy of s.info.Mode, checked on every write
	s    setup
}

// NewWriterSize returns a new Writer whose buffer has at least the
// specified size; a size <= 0 means the default (see NewWriter). If the
// argument io.Writer is already a Writer with large enough size, it
// returns the underlying Writer. Over a file descriptor the size is kept,
// and the mode is still decided at the first write: a terminal is line
// buffered, standard error unbuffered.
func NewWriterSize(w io.Writer, size int) *Writer {
	if b, ok := w.(*Writer); ok && b.Size() >= size {
		return b
	}
	return newWriter(w, PolicyDefault, max(size, 0))
}

// NewWriter returns a new Writer. Over a file descriptor its mode and size
// are decided at the first write by the process default policy (see
// PolicyDefault); over anything else its buffer has bufio's 4096 bytes.
// If the argument io.Writer is already a Writer of at least 4096 bytes, it
// returns the underlying Writer.
func NewWriter(w io.Writer) *Writer {
	if b, ok := w.(*Writer); ok && b.Size() >= bufioSize {
		return b
	}
	return newWriter(w, PolicyDefault, 0)
}

// NewWriterPolicy returns a new Writer whose mode and size over a file
// descriptor are decided by policy p at the first write. Over anything
// else it is NewWriter.
func NewWriterPolicy(w io.Writer, p Policy) *Writer {
	return newWriter(w, p, 0)
}

func newWriter(w io.Writer, p Policy, size int) *Writer {
	b := &Writer{wr: w}
	b.s.policy, b.s.size = p, size
	if !isDescriptor(w) {
		b.init()
	}
	return b
}

// init is doallocate for a Writer: decide, then allocate unless the
// writer is unbuffered.
func (b *Writer) init() {
	if !b.s.decided {
		b.s.decide(b.wr, writing)
		b.mode = b.s.info.Mode
	}
	if b.buf == nil && b.mode != Unbuffered {
		b.buf = make([]byte, b.s.info.Size)
	}
}

// Size returns the size of the underlying buffer in bytes. For a Writer
// over a descriptor that has not written yet it makes the decision (an
// fstat) without allocating the buffer.
func (b *Writer) Size() int {
	if b.buf == nil && b.wr != nil {
		if !b.s.decided {
			b.s.decide(b.wr, writing)
			b.mode = b.s.info.Mode
		}
		return b.s.info.Size
	}
	return len(b.buf)
}

// Info reports the Writer's mode, size, policy, the reason for them and
// the calls it has made. It makes the decision if none was made yet.
func (b *Writer) Info() Info {
	b.Size()
	return b.s.report()
}

// Reset discards any unflushed buffered data, clears any error, and
// resets b to write its output to w. A Setvbuf setting and the policy are
// kept; the mode and size are decided again for w. Calling Reset on the
// zero value of Writer initializes the buffer to bufio's default size (for
// a writer that is not a descriptor). Calling w.Reset(w) does nothing.
func (b *Writer) Reset(w io.Writer) {
	// If a Writer w is passed to NewWriter, NewWriter will return w.
	// Different layers of code may do that, and then later pass w
	// to Reset. Avoid infinite recursion in that case.
	if b == w {
		return
	}
	s := setup{policy: b.s.policy, size: b.s.size, vbuf: b.s.vbuf, vmode: b.s.vmode, vsize: b.s.vsize}
	old := b.buf
	*b = Writer{wr: w, s: s}
	if !isDescriptor(w) {
		b.s.decide(w, writing)
		b.mode = b.s.info.Mode
		if b.mode != Unbuffered && len(old) == b.s.info.Size {
			b.buf = old // reused: init allocates only when there is none
		}
		b.init()
	}
}

// Flush writes any buffered data to the underlying io.Writer.
func (b *Writer) Flush() error {
	return b.flushN(b.n)
}

// flushN writes the first k buffered bytes and keeps the rest. If the
// write fails, the bytes it did not take stay buffered and the error
// becomes sticky.
func (b *Writer) flushN(k int) error {
	if b.err != nil {
		return b.err
	}
	if k == 0 {
		return nil
	}
	b.s.calls.writes++
	n, err := b.wr.Write(b.buf[0:k])
	if n < 0 {
		panic(errNegativeWrite)
	}
	if n < k && err == nil {
		err = io.ErrShortWrite
	}
	if n > 0 {
		copy(b.buf, b.buf[n:b.n])
		b.n -= n
	}
	b.err = err
	return err
}

// Available returns how many bytes are unused in the buffer (0 for an
// unbuffered Writer that has no buffer).
func (b *Writer) Available() int {
	if b.buf == nil && b.wr != nil {
		b.init()
	}
	return len(b.buf) - b.n
}

// AvailableBuffer returns an empty buffer with b.Available() capacity.
// This buffer is intended to be appended to and
// passed to an immediately succeeding Write call.
// The buffer is only valid until the next write operation on b.
func (b *Writer) AvailableBuffer() []byte {
	if b.buf == nil && b.wr != nil {
		b.init()
	}
	return b.buf[b.n:][:0]
}

// Buffered returns the number of bytes that have been written into the current buffer.
func (b *Writer) Buffered() int { return b.n }

// writeDirect hands p to the underlying writer whole, as an unbuffered
// stream does, continuing after short writes.
func (b *Writer) writeDirect(p []byte) (nn int, err error) {
	if b.err != nil {
		return 0, b.err
	}
	if err := b.Flush(); err != nil {
		return 0, err
	}
	for len(p) > 0 {
		b.s.calls.writes++
		n, err := b.wr.Write(p)
		if n < 0 {
			panic(errNegativeWrite)
		}
		nn += n
		p = p[n:]
		if err == nil && n == 0 {
			err = io.ErrShortWrite
		}
		if err != nil {
			b.err = err
			return nn, err
		}
	}
	return nn, nil
}

// Write writes the contents of p into the buffer.
// It returns the number of bytes written.
// If nn < len(p), it also returns an error explaining
// why the write is short.
//
// A line-buffered Writer then writes out everything through the last
// newline of p; an unbuffered one hands p to the underlying writer at once.
func (b *Writer) Write(p []byte) (nn int, err error) {
	// The common case first, small enough to be inlined into the caller:
	// a fully buffered write that fits.
	if b.err == nil && b.mode == FullyBuffered && len(p) <= len(b.buf)-b.n {
		b.n += copy(b.buf[b.n:], p)
		return len(p), nil
	}
	return b.write(p)
}

// write is Write past its fast path.
func (b *Writer) write(p []byte) (nn int, err error) {
	if b.mode != FullyBuffered || b.buf == nil {
		b.init()
		switch b.mode {
		case LineBuffered:
			return b.writeLines(p)
		case Unbuffered:
			return b.writeDirect(p)
		}
	}
	return b.writeBlock(p)
}

// writeBlock is Write in full buffering: bufio's algorithm.
func (b *Writer) writeBlock(p []byte) (nn int, err error) {
	for len(p) > b.Available() && b.err == nil {
		var n int
		if b.Buffered() == 0 {
			// Large write, empty buffer.
			// Write directly from p to avoid copy.
			b.s.calls.writes++
			n, b.err = b.wr.Write(p)
			if n < 0 {
				panic(errNegativeWrite)
			}
		} else {
			n = copy(b.buf[b.n:], p)
			b.n += n
			b.Flush()
		}
		nn += n
		p = p[n:]
	}
	if b.err != nil {
		return nn, b.err
	}
	n := copy(b.buf[b.n:], p)
	b.n += n
	nn += n
	return nn, nil
}

// WriteByte writes a single byte.
func (b *Writer) WriteByte(c byte) error {
	// The common case first: a fully buffered writer with room.
	if b.err == nil && b.mode == FullyBuffered && b.n < len(b.buf) {
		b.buf[b.n] = c
		b.n++
		return nil
	}
	if b.mode != FullyBuffered || b.buf == nil {
		b.init()
		if b.mode != FullyBuffered {
			return b.writeByteMode(c)
		}
	}
	if b.err != nil {
		return b.err
	}
	if b.Available() <= 0 && b.Flush() != nil {
		return b.err
	}
	b.buf[b.n] = c
	b.n++
	return nil
}

// writeByteMode is WriteByte for line-buffered and unbuffered writers.
func (b *Writer) writeByteMode(c byte) error {
	if b.mode == Unbuffered {
		_, err := b.writeDirect([]byte{c})
		return err
	}
	_, err := b.writeLines([]byte{c})
	return err
}

// WriteRune writes a single Unicode code point, returning
// the number of bytes written and any error.
func (b *Writer) WriteRune(r rune) (size int, err error) {
	// Compare as uint32 to correctly handle negative runes.
	if uint32(r) < utf8.RuneSelf {
		err = b.WriteByte(byte(r))
		if err != nil {
			return 0, err
		}
		return 1, nil
	}
	if b.mode != FullyBuffered || b.buf == nil {
		b.init()
		if b.mode != FullyBuffered {
			// A rune of two bytes or more holds no newline byte.
			var enc [utf8.UTFMax]byte
			return b.Write(utf8.AppendRune(enc[:0], r))
		}
	}
	if b.err != nil {
		return 0, b.err
	}
	n := b.Available()
	if n < utf8.UTFMax {
		if b.Flush(); b.err != nil {
			return 0, b.err
		}
		n = b.Available()
		if n < utf8.UTFMax {
			// Can only happen if buffer is silly small.
			return b.WriteString(string(r))
		}
	}
	size = utf8.EncodeRune(b.buf[b.n:], r)
	b.n += size
	return size, nil
}

// WriteString writes a string.
// It returns the number of bytes written.
// If the count is less than len(s), it also returns an error explaining
// why the write is short.
func (b *Writer) WriteString(s string) (int, error) {
	if b.mode != FullyBuffered || b.buf == nil {
		b.init()
		switch b.mode {
		case LineBuffered:
			return b.writeLinesString(s)
		case Unbuffered:
			if sw, ok := b.wr.(io.StringWriter); ok {
				return b.writeDirectString(sw, s)
			}
			return b.writeDirect([]byte(s))
		}
	}
	return b.writeBlockString(s)
}

// writeDirectString is writeDirect for a string and a StringWriter.
func (b *Writer) writeDirectString(sw io.StringWriter, s string) (nn int, err error) {
	if err := b.Flush(); err != nil {
		return 0, err
	}
	for len(s) > 0 {
		b.s.calls.writes++
		n, err := sw.WriteString(s)
		if n < 0 {
			panic(errNegativeWrite)
		}
		nn += n
		s = s[n:]
		if err == nil && n == 0 {
			err = io.ErrShortWrite
		}
		if err != nil {
			b.err = err
			return nn, err
		}
	}
	return nn, nil
}

// writeBlockString is WriteString in full buffering: bufio's algorithm.
func (b *Writer) writeBlockString(s string) (int, error) {
	var sw io.StringWriter
	tryStringWriter := true

	nn := 0
	for len(s) > b.Available() && b.err == nil {
		var n int
		if b.Buffered() == 0 && sw == nil && tryStringWriter {
			// Check at most once whether b.wr is a StringWriter.
			sw, tryStringWriter = b.wr.(io.StringWriter)
		}
		if b.Buffered() == 0 && tryStringWriter {
			// Large write, empty buffer, and the underlying writer supports
			// WriteString: forward the write to the underlying StringWriter.
			// This avoids an extra copy.
			b.s.calls.writes++
			n, b.err = sw.WriteString(s)
			if n < 0 {
				panic(errNegativeWrite)
			}
		} else {
			n = copy(b.buf[b.n:], s)
			b.n += n
			b.Flush()
		}
		nn += n
		s = s[n:]
	}
	if b.err != nil {
		return nn, b.err
	}
	n := copy(b.buf[b.n:], s)
	b.n += n
	nn += n
	return nn, nil
}

// ReadWriter stores pointers to a Reader and a Writer.
// It implements io.ReadWriter.
type ReadWriter struct {
	*Reader
	*Writer
}

// NewReadWriter allocates a new ReadWriter that dispatches to r and w.
func NewReadWriter(r *Reader, w *Writer) *ReadWriter {
	return &ReadWriter{r, w}
}
