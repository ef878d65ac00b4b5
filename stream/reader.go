package stream

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf8"
)

// maxConsecutiveEmptyReads is how many (0, nil) reads in a row a Reader
// tolerates before it gives up with io.ErrNoProgress, as bufio does.
const maxConsecutiveEmptyReads = 100

// Reader implements buffering for an io.Reader object. It is bufio.Reader,
// with glibc's choice of mode and size for a reader over a file descriptor.
//
// The bytes buffered and not yet read are buf[r:w]. A Reader over a
// descriptor has a nil buf until its first operation that needs one; then
// doallocate (filedoalloc.go) decides its mode and size.
//
// A Reader is not safe for use by several goroutines at once; Stdin is.
type Reader struct {
	buf          []byte
	rd           io.Reader // reader provided by the client
	r, w         int       // buf read and write positions
	err          error
	lastByte     int  // last byte read for UnreadByte; -1 means invalid
	lastRuneSize int  // size of last rune read for UnreadRune; -1 means invalid
	mode         Mode // copy of s.info.Mode, checked on every fill
	s            setup
}

// NewReaderSize returns a new Reader whose buffer has at least the
// specified size (and at least 16 bytes). If the argument io.Reader is
// already a Reader with large enough size, it returns the underlying
// Reader. Over a file descriptor the size is kept, and the mode is still
// decided at the first read: a terminal is line buffered.
func NewReaderSize(rd io.Reader, size int) *Reader {
	if b, ok := rd.(*Reader); ok && b.Size() >= size {
		return b
	}
	return newReader(rd, PolicyDefault, max(size, minReadBufferSize))
}

// NewReader returns a new Reader. Over a file descriptor its mode and size
// are decided at the first read by the process default policy (see
// PolicyDefault); over anything else its buffer has bufio's 4096 bytes.
// If the argument io.Reader is already a Reader of at least 4096 bytes, it
// returns the underlying Reader.
func NewReader(rd io.Reader) *Reader {
	if b, ok := rd.(*Reader); ok && b.Size() >= bufioSize {
		return b
	}
	return newReader(rd, PolicyDefault, 0)
}

// NewReaderPolicy returns a new Reader whose mode and size over a file
// descriptor are decided by policy p at the first read. Over anything else
// it is NewReader.
func NewReaderPolicy(rd io.Reader, p Policy) *Reader {
	return newReader(rd, p, 0)
}

func newReader(rd io.Reader, p Policy, size int) *Reader {
	b := &Reader{rd: rd, lastByte: -1, lastRuneSize: -1}
	b.s.policy, b.s.size = p, size
	b.allocEager()
	return b
}

// allocEager allocates the buffer at once for a reader that is not over a
// descriptor: there is nothing to fstat, and bufio allocates eagerly.
func (b *Reader) allocEager() {
	if !isDescriptor(b.rd) {
		b.init()
	}
}

// init is doallocate for a Reader: decide, then allocate.
func (b *Reader) init() {
	if !b.s.decided {
		b.s.decide(b.rd, reading)
		b.mode = b.s.info.Mode
	}
	b.buf = make([]byte, b.bufSize())
}

// bufSize is the decided size, at least bufio's minimum for a reader.
func (b *Reader) bufSize() int { return max(b.s.info.Size, minReadBufferSize) }

// resize moves the unread bytes into a buffer of the given size, or of
// their own size if they are more: input is never dropped.
func (b *Reader) resize(size int) {
	unread := b.w - b.r
	size = max(size, unread)
	if size == len(b.buf) {
		return
	}
	buf := make([]byte, size)
	copy(buf, b.buf[b.r:b.w])
	b.buf, b.r, b.w = buf, 0, unread
	b.lastByte, b.lastRuneSize = -1, -1
}

// Size returns the size of the underlying buffer in bytes. For a Reader
// over a descriptor that has not read yet it makes the decision (an fstat)
// without allocating the buffer.
func (b *Reader) Size() int {
	if b.buf == nil && b.rd != nil {
		if !b.s.decided {
			b.s.decide(b.rd, reading)
			b.mode = b.s.info.Mode
		}
		return b.bufSize()
	}
	return len(b.buf)
}

// Info reports the Reader's mode, size, policy, the reason for them and
// the calls it has made. It makes the decision if none was made yet.
func (b *Reader) Info() Info {
	b.Size()
	return b.s.report()
}

// Reset discards any buffered data, resets all state, and switches the
// buffered reader to read from r. A Setvbuf setting and the policy are
// kept; the mode and size are decided again for r. Calling Reset on the
// zero value of Reader initializes the buffer to bufio's default size (for
// a reader that is not a descriptor). Calling b.Reset(b) does nothing.
func (b *Reader) Reset(r io.Reader) {
	// If a Reader r is passed to NewReader, NewReader will return r.
	// Different layers of code may do that, and then later pass r
	// to Reset. Avoid infinite recursion in that case.
	if b == r {
		return
	}
	s := setup{policy: b.s.policy, size: b.s.size, vbuf: b.s.vbuf, vmode: b.s.vmode, vsize: b.s.vsize}
	old := b.buf
	*b = Reader{rd: r, lastByte: -1, lastRuneSize: -1, s: s}
	if !isDescriptor(r) {
		b.s.decide(r, reading)
		b.mode = b.s.info.Mode
		if len(old) == b.bufSize() {
			b.buf = old
		} else {
			b.buf = make([]byte, b.bufSize())
		}
	}
}

// read is one Read on the underlying reader. A line-buffered or
// unbuffered reader first flushes Stdout if it is line buffered, as
// glibc's underflow does, so a prompt is seen before the program waits.
func (b *Reader) read(p []byte) (int, error) {
	if b.mode != FullyBuffered {
		flushStdoutBeforeRead()
	}
	b.s.calls.reads++
	n, err := b.rd.Read(p)
	if n < 0 {
		panic(errNegativeRead)
	}
	return n, err
}

// fill reads a new chunk into the buffer; an unbuffered reader reads one
// byte, so that it never reads past what its caller asked for.
func (b *Reader) fill() {
	if b.buf == nil {
		b.init()
	}
	// Slide existing data to beginning.
	if b.r > 0 {
		copy(b.buf, b.buf[b.r:b.w])
		b.w -= b.r
		b.r = 0
	}

	if b.w >= len(b.buf) {
		panic("stream: tried to fill full buffer")
	}

	p := b.buf[b.w:]
	if b.mode == Unbuffered {
		p = p[:1]
	}
	// Read new data: try a limited number of times.
	for i := maxConsecutiveEmptyReads; i > 0; i-- {
		n, err := b.read(p)
		b.w += n
		if err != nil {
			b.err = err
			return
		}
		if n > 0 {
			return
		}
	}
	b.err = io.ErrNoProgress
}

func (b *Reader) readErr() error {
	err := b.err
	b.err = nil
	return err
}

// Peek returns the next n bytes without advancing the reader. The bytes stop
// being valid at the next read call. If necessary, Peek will read more bytes
// into the buffer in order to make n bytes available. If Peek returns fewer
// than n bytes, it also returns an error explaining why the read is short.
// The error is ErrBufferFull if n is larger than b's buffer size.
//
// Calling Peek prevents a UnreadByte or UnreadRune call from succeeding
// until the next read operation.
func (b *Reader) Peek(n int) ([]byte, error) {
	if n < 0 {
		return nil, ErrNegativeCount
	}
	if b.buf == nil {
		b.init()
	}

	b.lastByte = -1
	b.lastRuneSize = -1

	for b.w-b.r < n && b.w-b.r < len(b.buf) && b.err == nil {
		b.fill() // b.w-b.r < len(b.buf) => buffer is not full
	}

	if n > len(b.buf) {
		return b.buf[b.r:b.w], ErrBufferFull
	}

	// 0 <= n <= len(b.buf)
	var err error
	if avail := b.w - b.r; avail < n {
		// not enough data in buffer
		n = avail
		err = b.readErr()
		if err == nil {
			err = ErrBufferFull
		}
	}
	return b.buf[b.r : b.r+n], err
}

// Discard skips the next n bytes, returning the number of bytes discarded.
//
// If Discard skips fewer than n bytes, it also returns an error.
// If 0 <= n <= b.Buffered(), Discard is guaranteed to succeed without
// reading from the underlying io.Reader.
func (b *Reader) Discard(n int) (discarded int, err error) {
	if n < 0 {
		return 0, ErrNegativeCount
	}
	if n == 0 {
		return
	}

	b.lastByte = -1
	b.lastRuneSize = -1

	remain := n
	for {
		skip := b.Buffered()
		if skip == 0 {
			b.fill()
			skip = b.Buffered()
		}
		skip = min(skip, remain)
		b.r += skip
		remain -= skip
		if remain == 0 {
			return n, nil
		}
		if b.err != nil {
			return n - remain, b.readErr()
		}
	}
}

// Read reads data into p.
// It returns the number of bytes read into p.
// The bytes are taken from at most one Read on the underlying Reader,
// hence n may be less than len(p).
// To read exactly len(p) bytes, use io.ReadFull(b, p).
// If the underlying Reader can return a non-zero count with io.EOF,
// then this Read method can do so as well; see the io.Reader docs.
// An unbuffered Reader with nothing buffered reads straight into p.
func (b *Reader) Read(p []byte) (n int, err error) {
	n = len(p)
	if n == 0 {
		if b.Buffered() > 0 {
			return 0, nil
		}
		return 0, b.readErr()
	}
	if b.buf == nil {
		b.init()
	}
	if b.r == b.w {
		if b.err != nil {
			return 0, b.readErr()
		}
		if len(p) >= len(b.buf) || b.mode == Unbuffered {
			// Large read, empty buffer.
			// Read directly into p to avoid copy.
			n, b.err = b.read(p)
			if n > 0 {
				b.lastByte = int(p[n-1])
				b.lastRuneSize = -1
			}
			return n, b.readErr()
		}
		// One read.
		// Do not use b.fill, which will loop.
		b.r = 0
		b.w = 0
		n, b.err = b.read(b.buf)
		if n == 0 {
			return 0, b.readErr()
		}
		b.w += n
	}

	// copy as much as we can
	// Note: if the slice panics here, it is probably because
	// the underlying reader returned a bad count (Go issue 49795).
	n = copy(p, b.buf[b.r:b.w])
	b.r += n
	b.lastByte = int(b.buf[b.r-1])
	b.lastRuneSize = -1
	return n, nil
}

// ReadByte reads and returns a single byte.
// If no byte is available, returns an error.
func (b *Reader) ReadByte() (byte, error) {
	b.lastRuneSize = -1
	for b.r == b.w {
		if b.err != nil {
			return 0, b.readErr()
		}
		b.fill() // buffer is empty
	}
	c := b.buf[b.r]
	b.r++
	b.lastByte = int(c)
	return c, nil
}

// UnreadByte unreads the last byte. Only the most recently read byte can be unread.
//
// UnreadByte returns an error if the most recent method called on the
// Reader was not a read operation. Notably, Peek, Discard, and WriteTo are not
// considered read operations.
func (b *Reader) UnreadByte() error {
	if b.lastByte < 0 || b.r == 0 && b.w > 0 {
		return ErrInvalidUnreadByte
	}
	// b.r > 0 || b.w == 0
	if b.r > 0 {
		b.r--
	} else {
		// b.r == 0 && b.w == 0
		b.w = 1
	}
	b.buf[b.r] = byte(b.lastByte)
	b.lastByte = -1
	b.lastRuneSize = -1
	return nil
}

// ReadRune reads a single UTF-8 encoded Unicode character and returns the
// rune and its size in bytes. If the encoded rune is invalid, it consumes one byte
// and returns unicode.ReplacementChar (U+FFFD) with a size of 1.
func (b *Reader) ReadRune() (r rune, size int, err error) {
	if b.buf == nil {
		b.init()
	}
	for b.r+utf8.UTFMax > b.w && !utf8.FullRune(b.buf[b.r:b.w]) && b.err == nil && b.w-b.r < len(b.buf) {
		b.fill() // b.w-b.r < len(buf) => buffer is not full
	}
	b.lastRuneSize = -1
	if b.r == b.w {
		return 0, 0, b.readErr()
	}
	r, size = utf8.DecodeRune(b.buf[b.r:b.w])
	b.r += size
	b.lastByte = int(b.buf[b.r-1])
	b.lastRuneSize = size
	return r, size, nil
}

// UnreadRune unreads the last rune. If the most recent method called on
// the Reader was not a ReadRune, UnreadRune returns an error. (In this
// regard it is stricter than UnreadByte, which will unread the last byte
// from any read operation.)
func (b *Reader) UnreadRune() error {
	if b.lastRuneSize < 0 || b.r < b.lastRuneSize {
		return ErrInvalidUnreadRune
	}
	b.r -= b.lastRuneSize
	b.lastByte = -1
	b.lastRuneSize = -1
	return nil
}

// Buffered returns the number of bytes that can be read from the current buffer.
func (b *Reader) Buffered() int { return b.w - b.r }

// ReadSlice reads until the first occurrence of delim in the input,
// returning a slice pointing at the bytes in the buffer.
// The bytes stop being valid at the next read.
// If ReadSlice encounters an error before finding a delimiter,
// it returns all the data in the buffer and the error itself (often io.EOF).
// ReadSlice fails with error ErrBufferFull if the buffer fills without a delim.
// Because the data returned from ReadSlice will be overwritten
// by the next I/O operation, most clients should use
// ReadBytes or ReadString instead.
// ReadSlice returns err != nil if and only if line does not end in delim.
func (b *Reader) ReadSlice(delim byte) (line []byte, err error) {
	if b.buf == nil {
		b.init()
	}
	s := 0 // search start index
	for {
		// Search buffer.
		if i := bytes.IndexByte(b.buf[b.r+s:b.w], delim); i >= 0 {
			i += s
			line = b.buf[b.r : b.r+i+1]
			b.r += i + 1
			break
		}

		// Pending error?
		if b.err != nil {
			line = b.buf[b.r:b.w]
			b.r = b.w
			err = b.readErr()
			break
		}

		// Buffer full?
		if b.Buffered() >= len(b.buf) {
			b.r = b.w
			line = b.buf
			err = ErrBufferFull
			break
		}

		s = b.w - b.r // do not rescan area we scanned before

		b.fill() // buffer is not full
	}

	// Handle last byte, if any.
	if i := len(line) - 1; i >= 0 {
		b.lastByte = int(line[i])
		b.lastRuneSize = -1
	}

	return
}

// ReadLine is a low-level line-reading primitive. Most callers should use
// ReadBytes('\n') or ReadString('\n') instead or use a Scanner.
//
// ReadLine tries to return a single line, not including the end-of-line bytes.
// If the line was too long for the buffer then isPrefix is set and the
// beginning of the line is returned. The rest of the line will be returned
// from future calls. isPrefix will be false when returning the last fragment
// of the line. The returned buffer is only valid until the next call to
// ReadLine. ReadLine either returns a non-nil line or it returns an error,
// never both.
//
// The text returned from ReadLine does not include the line end ("\r\n" or "\n").
// No indication or error is given if the input ends without a final line end.
// Calling UnreadByte after ReadLine will always unread the last byte read
// (possibly a character belonging to the line end) even if that byte is not
// part of the line returned by ReadLine.
func (b *Reader) ReadLine() (line []byte, isPrefix bool, err error) {
	line, err = b.ReadSlice('\n')
	if err == ErrBufferFull {
		// Handle the case where "\r\n" straddles the buffer.
		if len(line) > 0 && line[len(line)-1] == '\r' {
			// Put the '\r' back on buf and drop it from line.
			// Let the next call to ReadLine check for "\r\n".
			if b.r == 0 {
				// should be unreachable
				panic("stream: tried to rewind past start of buffer")
			}
			b.r--
			line = line[:len(line)-1]
		}
		return line, true, nil
	}

	if len(line) == 0 {
		if err != nil {
			line = nil
		}
		return
	}
	err = nil

	if line[len(line)-1] == '\n' {
		drop := 1
		if len(line) > 1 && line[len(line)-2] == '\r' {
			drop = 2
		}
		line = line[:len(line)-drop]
	}
	return
}

// collectFragments reads until the first occurrence of delim in the input.
// It returns copies of the full buffers it passed, the final fragment (in
// the buffer: valid until the next read), their total length and the error.
func (b *Reader) collectFragments(delim byte) (full [][]byte, frag []byte, total int, err error) {
	for {
		var e error
		frag, e = b.ReadSlice(delim)
		if e == nil { // got final fragment
			break
		}
		if e != ErrBufferFull { // unexpected error
			err = e
			break
		}
		full = append(full, bytes.Clone(frag))
		total += len(frag)
	}
	return full, frag, total + len(frag), err
}

// ReadBytes reads until the first occurrence of delim in the input,
// returning a slice containing the data up to and including the delimiter.
// If ReadBytes encounters an error before finding a delimiter,
// it returns the data read before the error and the error itself (often io.EOF).
// ReadBytes returns err != nil if and only if the returned data does not end in
// delim. For a loop that reuses its memory, see Getdelim.
// For simple uses, a Scanner may be more convenient.
func (b *Reader) ReadBytes(delim byte) ([]byte, error) {
	full, frag, n, err := b.collectFragments(delim)
	buf := make([]byte, n)
	n = 0
	for _, f := range full {
		n += copy(buf[n:], f)
	}
	copy(buf[n:], frag)
	return buf, err
}

// ReadString reads until the first occurrence of delim in the input,
// returning a string containing the data up to and including the delimiter.
// If ReadString encounters an error before finding a delimiter,
// it returns the data read before the error and the error itself (often io.EOF).
// ReadString returns err != nil if and only if the returned data does not end in
// delim.
// For simple uses, a Scanner may be more convenient.
func (b *Reader) ReadString(delim byte) (string, error) {
	full, frag, n, err := b.collectFragments(delim)
	var s strings.Builder
	s.Grow(n)
	for _, f := range full {
		s.Write(f)
	}
	s.Write(frag)
	return s.String(), err
}
