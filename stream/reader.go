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
// with glibc's choice of mode and size for a reader over a file
// descriptor: a Reader over a descriptor decides its mode and size at its
// first operation that needs the buffer.
//
// A Reader reads ahead by up to its buffer size. Over a descriptor that
// others read after it (a shell group, a child process) the offset is
// left that far past the last byte returned; Sync gives those bytes back
// (see the package documentation).
//
// A Reader is not safe for use by several goroutines at once; Stdin is.
type Reader struct {
	buf          []byte     // nil until init
	rd           io.Reader  // reader provided by the client
	r, w         int        // buf read and write positions: buf[r:w] is buffered, not yet read
	err          error      // the last read error, returned and cleared by readErr
	lastByte     int        // last byte read for UnreadByte; -1 means invalid
	lastRuneSize int        // size of last rune read for UnreadRune; -1 means invalid
	ra           *readahead // nil unless reading ahead (readahead.go)
	spare        []byte     // the buffer before a Reset, for init to reuse if the size fits; nil once buf is set
	s            setup      // the settings and the decision (filedoalloc.go)
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
// descriptor are decided by policy p at the first read (an invalid p is
// taken as PolicyDefault). Over anything else it is NewReader.
func NewReaderPolicy(rd io.Reader, p Policy) *Reader {
	if !p.valid() {
		p = PolicyDefault
	}
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

// decide is doallocate's decision for the Reader (an fstat), with mode,
// the copy of it that fill checks, kept in step.
func (b *Reader) decide() {
	b.s.decide(b.rd, reading)
	b.updateAhead()
	if reportOn {
		reportDecided(b, &b.s, b.rd, reading)
	}
}

// init is doallocate for a Reader: decide, then allocate, or reuse the
// buffer a Reset kept if it has the size decided.
func (b *Reader) init() {
	if !b.s.decided {
		b.decide()
	}
	b.buf = reuse(b.spare, b.bufSize())
	b.spare = nil
}

// reuse returns buf if it has size bytes, else a new buffer of that size.
func reuse(buf []byte, size int) []byte {
	if len(buf) == size {
		return buf
	}
	return make([]byte, size)
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

// refit makes the buffer agree with a new decision (Setvbuf, SetPolicy),
// keeping every unread byte. A Reader that has no buffer yet gets one at
// its first read.
func (b *Reader) refit() {
	if reportOn {
		reportDecided(b, &b.s, b.rd, reading)
	}
	if b.buf != nil {
		b.resize(b.bufSize())
	}
}

// Size returns the size of the underlying buffer in bytes. For a Reader
// over a descriptor that has not read yet it makes the decision (an fstat)
// without allocating the buffer.
func (b *Reader) Size() int {
	if b.buf == nil && b.rd != nil {
		if !b.s.decided {
			b.decide()
		}
		return b.bufSize()
	}
	return len(b.buf)
}

// Info reports the Reader's mode, size, policy, the reason for them and
// the calls it has made. It makes the decision if none was made yet.
func (b *Reader) Info() Info {
	size := b.Size()
	if b.ra != nil && b.ra.run != nil {
		b.ra.tell(b.ra.run) // the reads made ahead so far
	}
	i := b.s.report()
	if b.s.decided {
		i.Size = size // at least 16 bytes, or more if Setvbuf kept more unread
	}
	return i
}

// Reset discards any buffered data, resets all state, and switches the
// buffered reader to read from r. What the Reader was asked for (its size,
// policy and Setvbuf setting) is kept; its mode and size are decided again
// for r, unless they cannot come out otherwise: r is the very reader b
// has, or r is not a descriptor and neither was the reader before, or r
// is the *os.File the Reader decided for (still open or since closed;
// SetPolicy and Setvbuf decide again when called). Then the decision, its
// counts (Info) and the buffer stay, without an fstat, as glibc decides
// once per FILE; a Reader over a file that has grown since keeps the size
// capped at the file's old size. Calling Reset on the zero value of Reader
// initializes the buffer to bufio's default size (for a reader that is
// not a descriptor). Calling b.Reset(b) does nothing.
func (b *Reader) Reset(r io.Reader) {
	// NewReader(b) returns b itself, so code may well call b.Reset(b):
	// reading from itself would never end.
	if b == r {
		return
	}
	if b.buf != nil && (sameValue(b.rd, r) || b.s.keepsFile(b.rd, r) || b.s.keeps(r)) {
		// The common case of a Reader reused over the reader it has,
		// over memory, or over the same file: only the state of the
		// reading is new.
		b.resetAhead()
		b.rd, b.r, b.w, b.err = r, 0, 0, nil
		b.lastByte, b.lastRuneSize = -1, -1
		return
	}
	b.reset(r)
}

// reset is Reset for a new decision: the settings stay (setup.settings),
// the old buffer is kept as a spare for init, and a reader that is not a
// descriptor is decided and given its buffer at once, as bufio's is.
func (b *Reader) reset(r io.Reader) {
	b.resetAhead()
	s := b.s.settings()
	spare := b.buf
	if spare == nil {
		spare = b.spare
	}
	*b = Reader{rd: r, lastByte: -1, lastRuneSize: -1, spare: spare, s: s}
	if !isDescriptor(r) {
		b.init()
	}
}

// read is one Read on the underlying reader. A line-buffered or
// unbuffered reader first flushes Stdout if it is line buffered, as
// glibc's underflow does, so a prompt is seen before the program waits.
func (b *Reader) read(p []byte) (int, error) {
	if b.s.mode != FullyBuffered {
		flushStdoutBeforeRead()
	}
	b.s.calls.reads++
	n, err := b.rd.Read(p)
	if n < 0 {
		panic(errNegativeRead)
	}
	b.s.calls.bytes += int64(n)
	return n, err
}

// fill makes room at the front of the buffer and reads once more into the
// rest of it (one byte when unbuffered, so that the reader never holds
// input its caller did not ask for). A reader that keeps answering (0,
// nil) is given up on after maxConsecutiveEmptyReads tries with
// io.ErrNoProgress. The caller guarantees the buffer is not full.
func (b *Reader) fill() {
	if b.buf == nil {
		b.init()
	}
	if b.ra != nil && b.fillAhead() {
		return
	}
	if b.r > 0 {
		b.w = copy(b.buf, b.buf[b.r:b.w])
		b.r = 0
	}
	if b.w == len(b.buf) {
		panic("stream: fill called with a full buffer")
	}
	room := b.buf[b.w:]
	if b.s.mode == Unbuffered {
		room = room[:1]
	}
	for range maxConsecutiveEmptyReads {
		n, err := b.read(room)
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

// readErr hands the pending read error to the caller, once.
func (b *Reader) readErr() error {
	err := b.err
	b.err = nil
	return err
}

// forgetLast makes the next UnreadByte and UnreadRune fail: nothing that
// was read can be put back after a Peek, Discard, WriteTo or copy.
func (b *Reader) forgetLast() {
	b.lastByte, b.lastRuneSize = -1, -1
}

// Peek returns the next n bytes without consuming them, reading more if the
// buffer holds fewer. The slice points into the buffer and is good until
// the next read. When fewer than n bytes come back, err says why: the read
// error, or ErrBufferFull if n is more than the buffer can hold (or the
// reader stopped short without an error). Peek makes a following
// UnreadByte or UnreadRune fail.
func (b *Reader) Peek(n int) ([]byte, error) {
	if n < 0 {
		return nil, ErrNegativeCount
	}
	if b.buf == nil {
		b.init()
	}
	b.forgetLast()
	for b.Buffered() < min(n, len(b.buf)) && b.err == nil {
		b.fill()
	}
	if n > len(b.buf) {
		return b.buf[b.r:b.w], ErrBufferFull
	}
	if have := b.Buffered(); have < n {
		err := b.readErr()
		if err == nil {
			err = ErrBufferFull
		}
		return b.buf[b.r:b.w], err
	}
	return b.buf[b.r : b.r+n], nil
}

// Discard consumes the next n bytes and returns how many it consumed; if
// that is fewer than n, err says why. Discarding no more than Buffered()
// bytes never reads.
func (b *Reader) Discard(n int) (discarded int, err error) {
	if n < 0 {
		return 0, ErrNegativeCount
	}
	if n == 0 {
		return 0, nil
	}
	b.forgetLast()
	for discarded < n {
		if b.Buffered() == 0 {
			b.fill()
		}
		skip := min(b.Buffered(), n-discarded)
		b.r += skip
		discarded += skip
		if discarded < n && b.err != nil {
			return discarded, b.readErr()
		}
	}
	return n, nil
}

// Read reads up to len(p) bytes into p: what is buffered, or else the
// result of a single Read of the underlying reader, so n may be less than
// len(p) (io.ReadFull reads them all). With an empty buffer, a read of at
// least a buffer's worth, or any read of an unbuffered Reader, goes
// straight into p. Data and io.EOF may come back together if the
// underlying reader returns them so.
func (b *Reader) Read(p []byte) (n int, err error) {
	if len(p) == 0 {
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
		if b.ra != nil {
			return b.readAhead(p)
		}
		if len(p) >= len(b.buf) || b.s.mode == Unbuffered {
			n, b.err = b.read(p)
			if n > 0 {
				b.lastByte, b.lastRuneSize = int(p[n-1]), -1
			}
			return n, b.readErr()
		}
		// One read into the empty buffer; fill would retry empty reads.
		b.r, b.w = 0, 0
		n, b.err = b.read(b.buf)
		if n == 0 {
			return 0, b.readErr()
		}
		b.w = n
	}
	// A reader that claimed more than it was given makes this slice panic
	// (as in bufio: Go issue 49795).
	n = copy(p, b.buf[b.r:b.w])
	b.r += n
	b.lastByte, b.lastRuneSize = int(b.buf[b.r-1]), -1
	return n, nil
}

// ReadByte returns the next byte, or the error that stops there.
func (b *Reader) ReadByte() (byte, error) {
	// The common case first, straight through: a byte buffered.
	if b.r < b.w {
		c := b.buf[b.r]
		b.r++
		b.lastByte, b.lastRuneSize = int(c), -1
		return c, nil
	}
	return b.readByte()
}

// readByte is ReadByte with nothing buffered: it fills the buffer first.
func (b *Reader) readByte() (byte, error) {
	b.lastRuneSize = -1
	for b.r == b.w {
		if b.err != nil {
			return 0, b.readErr()
		}
		b.fill()
	}
	c := b.buf[b.r]
	b.r++
	b.lastByte = int(c)
	return c, nil
}

// UnreadByte puts back the last byte read, so the next read returns it
// again. It fails with ErrInvalidUnreadByte unless the last call was a read
// that returned a byte (Peek, Discard and WriteTo are not reads), and after
// a Read that refilled the buffer from its start.
func (b *Reader) UnreadByte() error {
	if b.lastByte < 0 || b.r == 0 && b.w > 0 {
		return ErrInvalidUnreadByte
	}
	if b.r == 0 {
		// Nothing buffered (b.w == 0): the byte becomes the buffer.
		b.w = 1
	} else {
		b.r--
	}
	b.buf[b.r] = byte(b.lastByte)
	b.forgetLast()
	return nil
}

// ReadRune decodes the next UTF-8 character and returns it with its size
// in bytes. A byte that does not start a valid encoding is consumed alone
// and returned as unicode.ReplacementChar (U+FFFD) of size 1.
func (b *Reader) ReadRune() (r rune, size int, err error) {
	if b.buf == nil {
		b.init()
	}
	// Read until a whole rune is buffered, the input ends, or the buffer
	// is full.
	for b.Buffered() < utf8.UTFMax && !utf8.FullRune(b.buf[b.r:b.w]) && b.err == nil && b.Buffered() < len(b.buf) {
		b.fill()
	}
	b.lastRuneSize = -1
	if b.r == b.w {
		return 0, 0, b.readErr()
	}
	r, size = utf8.DecodeRune(b.buf[b.r:b.w])
	b.r += size
	b.lastByte, b.lastRuneSize = int(b.buf[b.r-1]), size
	return r, size, nil
}

// UnreadRune puts back the last rune read. It is stricter than UnreadByte:
// it fails with ErrInvalidUnreadRune unless the last call was ReadRune.
func (b *Reader) UnreadRune() error {
	if b.lastRuneSize < 0 || b.r < b.lastRuneSize {
		return ErrInvalidUnreadRune
	}
	b.r -= b.lastRuneSize
	b.forgetLast()
	return nil
}

// Buffered returns how many bytes can be read without reading the
// underlying reader.
func (b *Reader) Buffered() int { return b.w - b.r }

// ReadSlice reads through the first delim and returns a slice of the
// buffer holding it, good until the next read (ReadBytes and ReadString
// return copies). If the input ends or fails first, it returns what was
// buffered and the error (often io.EOF); if the buffer fills first, the
// whole buffer and ErrBufferFull. So err != nil exactly when line does not
// end in delim.
func (b *Reader) ReadSlice(delim byte) (line []byte, err error) {
	searched := 0 // bytes at b.r already known to hold no delim
	for {
		if i := bytes.IndexByte(b.buf[b.r+searched:b.w], delim); i >= 0 {
			end := b.r + searched + i + 1
			line = b.buf[b.r:end]
			b.r = end
			break
		}
		if b.err != nil {
			line = b.buf[b.r:b.w]
			b.r = b.w
			err = b.readErr()
			break
		}
		// A nil buffer (a descriptor's first read) is not full: fill
		// allocates it. The check stays off the path of every call.
		if b.Buffered() == len(b.buf) && b.buf != nil {
			line = b.buf
			b.r = b.w
			err = ErrBufferFull
			break
		}
		searched = b.Buffered()
		b.fill()
	}
	if len(line) > 0 {
		b.lastByte, b.lastRuneSize = int(line[len(line)-1]), -1
	}
	return line, err
}

// ReadLine returns the next line without its end ("\n" or "\r\n"), as a
// slice of the buffer good until the next read. A line longer than the
// buffer comes in pieces, each with isPrefix true but the last. It returns
// either a line or an error, never both, and says nothing of a missing
// final newline. Most callers want ReadString('\n') or a Scanner. An
// UnreadByte after ReadLine puts back the last byte read, which may belong
// to the line end.
func (b *Reader) ReadLine() (line []byte, isPrefix bool, err error) {
	line, err = b.ReadSlice('\n')
	if err == ErrBufferFull {
		// A "\r\n" may straddle two pieces: leave the '\r' for the next
		// call, which will see whether a '\n' follows.
		if n := len(line); n > 0 && line[n-1] == '\r' {
			if b.r == 0 {
				panic("stream: ReadLine cannot step back before the buffer")
			}
			b.r--
			line = line[:n-1]
		}
		return line, true, nil
	}
	if len(line) == 0 {
		if err != nil {
			line = nil
		}
		return line, false, err
	}
	switch {
	case bytes.HasSuffix(line, []byte("\r\n")):
		line = line[:len(line)-2]
	case line[len(line)-1] == '\n':
		line = line[:len(line)-1]
	}
	return line, false, nil
}

// collectFragments reads through the first delim. It returns copies of
// the full buffers it passed on the way, the final piece (still in the
// buffer), their total length and the error that ended the search early.
func (b *Reader) collectFragments(delim byte) (full [][]byte, last []byte, total int, err error) {
	for {
		piece, e := b.ReadSlice(delim)
		if e != ErrBufferFull {
			return full, piece, total + len(piece), e
		}
		full = append(full, bytes.Clone(piece))
		total += len(piece)
	}
}

// ReadBytes reads through the first delim and returns a new slice holding
// it. If the input ends or fails first, it returns what it read and the
// error (often io.EOF), so err != nil exactly when the data does not end in
// delim. Getdelim does the same into a slice it reuses; a Scanner is
// simpler for most uses.
func (b *Reader) ReadBytes(delim byte) ([]byte, error) {
	full, last, total, err := b.collectFragments(delim)
	buf := make([]byte, 0, total)
	for _, f := range full {
		buf = append(buf, f...)
	}
	return append(buf, last...), err
}

// ReadString is ReadBytes returning a string.
func (b *Reader) ReadString(delim byte) (string, error) {
	full, last, total, err := b.collectFragments(delim)
	var s strings.Builder
	s.Grow(total)
	for _, f := range full {
		s.Write(f)
	}
	s.Write(last)
	return s.String(), err
}
