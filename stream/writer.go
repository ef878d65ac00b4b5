package stream

import (
	"io"
	"unicode/utf8"
	"unsafe"
)

// Writer implements buffering for an io.Writer object. It is bufio.Writer,
// with glibc's choice of mode and size for a writer over a file descriptor:
// a Writer over a descriptor decides its mode and size at its first write.
// An unbuffered Writer hands every write on at once; its Available is 0.
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
	err   error     // the first write error, sticky; nil if none
	buf   []byte    // nil until init, and when unbuffered until ReadFrom needs one
	n     int       // buf[0:n] is buffered, not yet written
	wr    io.Writer // writer provided by the client
	spare []byte    // the buffer before a Reset, for init to reuse if the size fits; nil once buf is set
	s     setup     // the settings and the decision (filedoalloc.go)
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
// descriptor are decided by policy p at the first write (an invalid p is
// taken as PolicyDefault). Over anything else it is NewWriter.
func NewWriterPolicy(w io.Writer, p Policy) *Writer {
	if !p.valid() {
		p = PolicyDefault
	}
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

// decide is doallocate's decision for the Writer (an fstat), with mode,
// the copy of it that every write checks, kept in step.
func (b *Writer) decide() {
	b.s.decide(b.wr, writing)
	if reportOn {
		b.registerReport()
	}
}

// init is doallocate for a Writer: decide, then allocate unless the
// writer is unbuffered.
func (b *Writer) init() {
	if !b.s.decided {
		b.decide()
	}
	if b.buf == nil && b.s.mode != Unbuffered {
		b.buf = reuse(b.spare, b.s.info.Size)
		b.spare = nil
	}
}

// refit makes the buffer agree with a new decision (Setvbuf, SetPolicy);
// it is called with nothing buffered. A Writer that has no buffer yet gets
// one at its first write; an unbuffered Writer drops its buffer (ReadFrom
// makes one when it needs it); any other gets the decided size.
func (b *Writer) refit() {
	if reportOn {
		b.registerReport()
	}
	switch {
	case b.buf == nil:
	case b.s.mode == Unbuffered:
		b.buf = nil
	case len(b.buf) != b.s.info.Size:
		b.buf = make([]byte, b.s.info.Size)
	}
}

// Size returns the size of the underlying buffer in bytes. For a Writer
// over a descriptor that has not written yet it makes the decision (an
// fstat) without allocating the buffer.
func (b *Writer) Size() int {
	if b.buf == nil && b.wr != nil {
		if !b.s.decided {
			b.decide()
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

// Reset discards any unflushed buffered data, clears any error, and resets
// b to write its output to w. What the Writer was asked for (its size,
// policy and Setvbuf setting) is kept; its mode and size are decided again
// for w, unless they cannot come out otherwise: w is the very writer b
// has, or w is not a descriptor and neither was the writer before, or w
// is the *os.File the Writer decided for (still open or since closed;
// SetPolicy and Setvbuf decide again when called). Then the decision, its
// counts (Info) and the buffer stay, without an fstat, as glibc decides
// once per FILE. Calling Reset on the zero value of Writer initializes
// the buffer to bufio's default size (for a writer that is not a
// descriptor), except Reset(nil), which leaves it to the first write.
// Calling w.Reset(w) does nothing.
func (b *Writer) Reset(w io.Writer) {
	// The common case, a Writer reused over the writer it has, is all of
	// bufio's Reset, and small enough to be inlined as bufio's is. The
	// very value (has) stands for the same descriptor or the same
	// memory: a descriptor behind one value changes only if the value is
	// closed or its type makes it change, and writing to either fails or
	// goes where the program sent it, as with the decision kept.
	if b.has(w) {
		b.n, b.err = 0, nil
		return
	}
	b.resetTo(w)
}

// resetTo is Reset to a writer other than b's.
func (b *Writer) resetTo(w io.Writer) {
	// NewWriter(b) returns b itself, so code may well call b.Reset(b):
	// writing to itself would never end.
	if b == w {
		return
	}
	if b.s.keepsFile(b.wr, w) || b.s.keeps(w) {
		// A Writer reused over other memory, or over the same file:
		// the buffer and the decision stay.
		b.wr, b.n, b.err = w, 0, nil
		return
	}
	b.reset(w)
}

// has reports whether w is the very writer b has: sameValue's test, read
// in place. Reset's common case is this and two stores, inlined at the
// caller; sameValue's conversions to any would take it over the inlining
// budget, and copies of b.wr would cost it registers.
func (b *Writer) has(w io.Writer) bool {
	type iface struct{ tab, data unsafe.Pointer }
	return *(*iface)(unsafe.Pointer(&b.wr)) == *(*iface)(unsafe.Pointer(&w))
}

// reset is Reset for a new decision: the settings stay (setup.settings),
// the old buffer is kept as a spare for init, and a writer that is not a
// descriptor is decided and given its buffer at once, as bufio's is.
func (b *Writer) reset(w io.Writer) {
	s := b.s.settings()
	spare := b.buf
	if spare == nil {
		spare = b.spare
	}
	*b = Writer{wr: w, spare: spare, s: s}
	if !isDescriptor(w) {
		b.init()
	}
}

// Flush hands everything buffered to the underlying writer. After a
// failure it returns the same error every time. Under `stdiobuf build
// -stdout`, a Writer over the original standard output has its bytes in
// the kernel when Flush returns (kernelFlush).
func (b *Writer) Flush() error {
	if err := b.flushN(b.n); err != nil {
		return err
	}
	return kernelFlush(b.wr)
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
	b.s.calls.bytes += int64(n)
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

// Available returns how many more bytes a write can put in the buffer
// before it goes out: the buffer's free space when fully or line buffered,
// and 0 when unbuffered, since an unbuffered Writer hands every write on
// at once. It decides a Writer over a descriptor that has not written yet.
func (b *Writer) Available() int {
	if b.buf == nil && b.wr != nil {
		b.init()
	}
	if b.s.mode == Unbuffered {
		return 0
	}
	return b.free()
}

// free is the unused part of the buffer, whatever the mode: what ReadFrom
// and the block writes fill.
func (b *Writer) free() int { return len(b.buf) - b.n }

// AvailableBuffer returns the free part of the buffer as an empty slice
// of capacity Available() (nil when unbuffered), to append to and pass
// straight to Write (which then copies nothing if it fits). It is good
// only until the next write.
func (b *Writer) AvailableBuffer() []byte {
	if b.buf == nil && b.wr != nil {
		b.init()
	}
	if b.s.mode == Unbuffered {
		return nil
	}
	return b.buf[b.n:][:0]
}

// Buffered returns how many bytes are held, not yet written out: in full
// and line mode what the buffer holds; in unbuffered mode 0, except for
// bytes ReadFrom read and could not write (after an error, which is
// sticky, the unwritten bytes stay buffered in every mode).
func (b *Writer) Buffered() int { return b.n }

// Write takes p into the buffer, writing the buffer out whenever it fills
// (a p at least as large as the free buffer goes out directly, uncopied,
// when nothing is buffered). It returns how much of p it took; if not all,
// the error says why. A line-buffered Writer then writes out everything
// through the last newline of p; an unbuffered one hands p to the
// underlying writer at once.
func (b *Writer) Write(p []byte) (nn int, err error) {
	// The common case first, before any call: a fully buffered write
	// that fits. (Write is still too big for the compiler to inline.)
	if b.err == nil && b.s.mode == FullyBuffered && len(p) <= len(b.buf)-b.n {
		b.n += copy(b.buf[b.n:], p)
		return len(p), nil
	}
	return b.write(p)
}

// write is Write past its fast path.
func (b *Writer) write(p []byte) (int, error) {
	if sh := b.shim(); sh != nil {
		return sh.write(p)
	}
	return b.writeBlock(p)
}

// A shim is the layer over a Writer's buffer that gives a line-buffered
// or unbuffered Writer its mode: every write that misses the fully
// buffered fast paths goes through the shim that Writer.shim picks, so
// the mode is looked at in one place. A fully buffered Writer has no
// shim; its buffer is all it needs.
type shim interface {
	// write is Write in the shim's mode.
	write(p []byte) (int, error)
	// writeString is WriteString in the shim's mode.
	writeString(s string) (int, error)
	// flushRead applies the mode to the last m buffered bytes, which
	// ReadFrom has just read into the buffer.
	flushRead(m int) error
}

// shim returns the layer a line-buffered or unbuffered Writer writes
// through, or nil if b is fully buffered. It inlines, so that a fully
// buffered Writer pays one test for it.
func (b *Writer) shim() shim {
	if b.s.mode == FullyBuffered && b.buf != nil {
		return nil
	}
	return b.pickShim()
}

// pickShim is shim for a Writer that may not have decided: a Writer over
// a descriptor makes its decision (and gets its buffer) here, at its
// first write. It is kept out of line so that shim inlines.
//
//go:noinline
func (b *Writer) pickShim() shim {
	b.init()
	b.countWrite()
	switch b.s.mode {
	case LineBuffered:
		return (*lineShim)(b)
	case Unbuffered:
		return (*directShim)(b)
	}
	return nil
}

// directShim is the layer of an unbuffered Writer: each write, after
// whatever is buffered, goes to the underlying writer whole, a string
// through its WriteString if it has one, uncopied.
type directShim Writer

func (d *directShim) write(p []byte) (int, error) {
	b := (*Writer)(d)
	if err := b.Flush(); err != nil {
		return 0, err
	}
	return writeOut(b, p, b.wr.Write)
}

func (d *directShim) writeString(s string) (int, error) {
	b := (*Writer)(d)
	sw, ok := b.wr.(io.StringWriter)
	if !ok {
		return d.write([]byte(s))
	}
	if err := b.Flush(); err != nil {
		return 0, err
	}
	return writeOut(b, s, sw.WriteString)
}

// writeOut hands p to write, one of b's underlying writer's methods,
// until all of it is taken, continuing after short writes. It stops at
// the first error (a write that takes nothing is io.ErrShortWrite), which
// becomes b's sticky error, and returns how much of p was taken.
func writeOut[T []byte | string](b *Writer, p T, write func(T) (int, error)) (nn int, err error) {
	for len(p) > 0 {
		b.s.calls.writes++
		n, err := write(p)
		if n < 0 {
			panic(errNegativeWrite)
		}
		b.s.calls.bytes += int64(n)
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

// flushRead writes out everything ReadFrom read.
func (d *directShim) flushRead(int) error { return (*Writer)(d).Flush() }

// writeBlock is Write for a fully buffered Writer. While p does not fit
// beside what is buffered, it goes straight to the underlying writer if
// nothing is buffered, or else tops the buffer up and flushes it; the rest
// is buffered. After an error nothing more is taken.
func (b *Writer) writeBlock(p []byte) (nn int, err error) {
	for b.err == nil && len(p) > b.free() {
		var n int
		if b.n == 0 {
			b.s.calls.writes++
			n, b.err = b.wr.Write(p)
			if n < 0 {
				panic(errNegativeWrite)
			}
			b.s.calls.bytes += int64(n)
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
	b.n += copy(b.buf[b.n:], p)
	return nn + len(p), nil
}

// WriteByte writes one byte.
func (b *Writer) WriteByte(c byte) error {
	// The common case first: a fully buffered writer with room.
	if b.err == nil && b.s.mode == FullyBuffered && b.n < len(b.buf) {
		b.buf[b.n] = c
		b.n++
		return nil
	}
	if sh := b.shim(); sh != nil {
		_, err := sh.write([]byte{c})
		return err
	}
	if b.err != nil {
		return b.err
	}
	if b.free() <= 0 && b.Flush() != nil {
		return b.err
	}
	b.buf[b.n] = c
	b.n++
	return nil
}

// WriteRune writes r UTF-8 encoded (an invalid r as U+FFFD) and returns
// how many bytes that took.
func (b *Writer) WriteRune(r rune) (size int, err error) {
	// The common case first, before any call: a fully buffered writer
	// with room for any rune.
	if b.err == nil && b.s.mode == FullyBuffered && len(b.buf)-b.n >= utf8.UTFMax {
		size = utf8.EncodeRune(b.buf[b.n:], r)
		b.n += size
		return size, nil
	}
	return b.writeRune(r)
}

// writeRune is WriteRune past its fast path.
func (b *Writer) writeRune(r rune) (size int, err error) {
	if uint32(r) < utf8.RuneSelf { // as uint32, so negative runes are not ASCII
		err = b.WriteByte(byte(r))
		if err != nil {
			return 0, err
		}
		return 1, nil
	}
	if sh := b.shim(); sh != nil {
		var enc [utf8.UTFMax]byte
		return sh.write(utf8.AppendRune(enc[:0], r))
	}
	if b.err != nil {
		return 0, b.err
	}
	if b.free() < utf8.UTFMax {
		if b.Flush() != nil {
			return 0, b.err
		}
		if b.free() < utf8.UTFMax {
			// A buffer of fewer than 4 bytes: let WriteString split it.
			return b.WriteString(string(r))
		}
	}
	size = utf8.EncodeRune(b.buf[b.n:], r)
	b.n += size
	return size, nil
}

// WriteString is Write for a string. A string that goes out directly goes
// through the underlying writer's WriteString if it has one, uncopied.
func (b *Writer) WriteString(s string) (int, error) {
	// The common case first, before any call, as in Write.
	if b.err == nil && b.s.mode == FullyBuffered && len(s) <= len(b.buf)-b.n {
		b.n += copy(b.buf[b.n:], s)
		return len(s), nil
	}
	return b.writeString(s)
}

// writeString is WriteString past its fast path.
func (b *Writer) writeString(s string) (int, error) {
	if sh := b.shim(); sh != nil {
		return sh.writeString(s)
	}
	return b.writeBlockString(s)
}

// writeBlockString is writeBlock for a string. Whether the underlying
// writer is an io.StringWriter is asked once, and only if a string is to
// go out directly.
func (b *Writer) writeBlockString(s string) (nn int, err error) {
	var sw io.StringWriter
	asked, direct := false, false
	for b.err == nil && len(s) > b.free() {
		if b.n == 0 && !asked {
			sw, direct = b.wr.(io.StringWriter)
			asked = true
		}
		var n int
		if b.n == 0 && direct {
			b.s.calls.writes++
			n, b.err = sw.WriteString(s)
			if n < 0 {
				panic(errNegativeWrite)
			}
			b.s.calls.bytes += int64(n)
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
	b.n += copy(b.buf[b.n:], s)
	return nn + len(s), nil
}

// ReadWriter joins a Reader and a Writer into an io.ReadWriter.
type ReadWriter struct {
	*Reader
	*Writer
}

// NewReadWriter returns a ReadWriter that reads from r and writes to w.
func NewReadWriter(r *Reader, w *Writer) *ReadWriter {
	return &ReadWriter{r, w}
}
