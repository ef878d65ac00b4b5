package stream

import "io"

// startBufSize is bufio.Scanner's first buffer size.
const startBufSize = 4096

// Scanner provides a convenient interface for reading data such as a file
// of newline-delimited lines of text. It is bufio.Scanner, with the reads
// of a stream over a file descriptor: its buffer takes the policy's size,
// so it reads as much a call as a Reader does, an unbuffered one (stdbuf
// -i0) reads one byte at a time, and a line-buffered or unbuffered one
// flushes Stdout first, as a Reader does. Over anything else it is exactly
// bufio.Scanner.
//
// The buffer size and the token limit are different things: however large
// the buffer, the split function is offered at most as many bytes as
// bufio's largest buffer would hold (MaxScanTokenSize, or what Buffer
// set), and a token that does not fit in them fails with ErrTooLong, as in
// bufio.
//
// A Scanner stops for good at the end of the input, at the first read
// error, or at a token longer than the buffer may grow, and by then it may
// have read well past the last token it returned. Use a Reader to recover
// from errors, to read huge tokens, or to go on reading after a scan.
type Scanner struct {
	r            io.Reader // The reader provided by the client.
	split        SplitFunc // The function to split the tokens.
	maxTokenSize int       // Maximum size of a token.
	token        []byte    // Last token returned by split.
	buf          []byte    // Buffer used as argument to split: data is buf[start:end].
	start        int       // First non-processed byte in buf.
	end          int       // End of the data offered to split: at most limit bytes from start.
	filled       int       // End of data in buf; past end only over a descriptor.
	err          error     // Sticky error.
	held         error     // A read error after buf[end:filled], for err once that is offered.
	empties      int       // Count of successive empty tokens.
	scanCalled   bool      // Scan has been called; buffer is in use.
	done         bool      // Scan has finished.
	limit        int       // bufio's largest buffer: the most split is offered
	maxBuf       int       // the size the buffer may grow to: limit, or the policy's size if larger
	s            setup     // the settings and the decision (filedoalloc.go)
}

// NewScanner returns a Scanner over r that splits it into lines (ScanLines)
// until Split says otherwise.
func NewScanner(r io.Reader) *Scanner {
	return &Scanner{
		r:            r,
		split:        ScanLines,
		maxTokenSize: MaxScanTokenSize,
	}
}

// Err returns the error that stopped the Scanner, or nil if it stopped at
// the end of the input.
func (s *Scanner) Err() error {
	if s.err == io.EOF {
		return nil
	}
	return s.err
}

// Bytes returns the last token Scan found, as a slice of the Scanner's
// buffer that the next Scan may overwrite.
func (s *Scanner) Bytes() []byte {
	return s.token
}

// Text returns the last token Scan found, as a new string.
func (s *Scanner) Text() string {
	return string(s.token)
}

// Scan finds the next token, for Bytes and Text to return, and reports
// whether there was one. After it returns false, Err tells whether the end
// of the input or an error stopped it. A split function that keeps
// returning empty tokens at the end of the input without consuming any
// makes Scan panic rather than loop forever.
func (s *Scanner) Scan() bool {
	if s.done {
		return false
	}
	if !s.scanCalled {
		s.scanCalled = true
		// The first I/O: a descriptor's mode and size are decided now,
		// whether or not Buffer supplied the first buffer.
		s.limit = max(s.maxTokenSize, len(s.buf))
		s.maxBuf = s.limit
		if isDescriptor(s.r) {
			s.s.decide(s.r, reading)
			s.maxBuf = max(s.limit, s.s.info.Size)
			if reportOn {
				reportDecided(s, &s.s, s.r, reading)
			}
		}
	}
	for {
		// Offer the split function what is offered (buf[start:end]);
		// once the input has ended it is asked even with nothing, for
		// a last (empty) token.
		if s.end > s.start || s.err != nil {
			advance, token, err := s.split(s.buf[s.start:s.end], s.err != nil)
			if err != nil {
				if err == ErrFinalToken {
					// The split function's last word: a non-nil token
					// (even an empty one) is returned, then no more.
					s.token = token
					s.done = true
					return token != nil
				}
				s.setErr(err)
				return false
			}
			if !s.advance(advance) {
				return false
			}
			s.token = token
			if token != nil {
				if s.err == nil || advance > 0 {
					s.empties = 0
				} else {
					// An empty token at the end that consumed nothing.
					s.empties++
					if s.empties > maxConsecutiveEmptyReads {
						panic("stream.Scan: too many empty tokens without progressing")
					}
				}
				return true
			}
		}
		if s.filled > s.end {
			// Read but not yet offered (only over a descriptor):
			// offer more before reading, unless the offer already
			// filled bufio's largest buffer.
			if s.end-s.start >= s.limit {
				s.setErr(ErrTooLong)
				return false
			}
			s.offer()
			continue
		}
		// No token in what is buffered: done if the input has ended,
		// else read more.
		if s.err != nil {
			s.start, s.end, s.filled = 0, 0, 0
			return false
		}
		// From here all that was read is offered (end == filled).
		// Move the data to the front when the buffer's end is reached or
		// more than half of it lies consumed before the data.
		if s.start > 0 && (s.end == len(s.buf) || s.start > len(s.buf)/2) {
			copy(s.buf, s.buf[s.start:s.end])
			s.end -= s.start
			s.start, s.filled = 0, s.end
		}
		// A full offer stops the Scanner where bufio's full buffer
		// would; a full buffer doubles, up to maxBuf.
		if s.end-s.start >= s.limit || s.end == len(s.buf) {
			const maxInt = int(^uint(0) >> 1) // so the doubling cannot overflow
			if s.end-s.start >= s.limit || len(s.buf) >= s.maxBuf || len(s.buf) > maxInt/2 {
				s.setErr(ErrTooLong)
				return false
			}
			newSize := len(s.buf) * 2
			if newSize == 0 {
				newSize = s.firstSize()
			}
			newSize = min(newSize, s.maxBuf)
			newBuf := make([]byte, newSize)
			copy(newBuf, s.buf[s.start:s.end])
			s.buf = newBuf
			s.end -= s.start
			s.start, s.filled = 0, s.end
		}
		// Read once; a reader that keeps returning nothing is given up on
		// with io.ErrNoProgress, one that claims more than it was given
		// with ErrBadReadCount.
		room := s.buf[s.filled:]
		if s.s.mode == Unbuffered {
			room = room[:1] // never read ahead of the token
		}
		for loop := 0; ; {
			n, err := s.read(room)
			if n < 0 || n > len(room) {
				s.setErr(ErrBadReadCount)
				break
			}
			s.filled += n
			if err != nil {
				s.held = err
				break
			}
			if n > 0 {
				s.empties = 0
				break
			}
			loop++
			if loop > maxConsecutiveEmptyReads {
				s.setErr(io.ErrNoProgress)
				break
			}
		}
		s.offer()
	}
}

// offer extends the bytes offered to the split function over what was
// read, up to bufio's largest buffer (limit bytes), so that the split
// function never sees more than it would under bufio. A read error comes
// into view (s.err) only once all the bytes before it are offered.
func (s *Scanner) offer() {
	s.end = min(s.filled, s.start+s.limit)
	if s.end == s.filled && s.held != nil {
		s.setErr(s.held)
		s.held = nil
	}
}

// firstSize is the size of the first buffer: bufio's 4096, or for a
// descriptor the policy's size.
func (s *Scanner) firstSize() int {
	if !s.s.decided {
		return startBufSize
	}
	return max(s.s.info.Size, minReadBufferSize)
}

// read is one Read on the underlying reader; a line-buffered or
// unbuffered Scanner flushes Stdout first, as a Reader does.
func (s *Scanner) read(p []byte) (int, error) {
	if s.s.mode != FullyBuffered {
		flushStdoutBeforeRead()
	}
	s.s.calls.reads++
	n, err := s.r.Read(p)
	s.s.calls.bytes += int64(max(n, 0))
	return n, err
}

// advance consumes n of the bytes offered to the split function (what is
// buffered, up to the limit), or records why it cannot.
func (s *Scanner) advance(n int) bool {
	if n < 0 {
		s.setErr(ErrNegativeAdvance)
		return false
	}
	if n > s.end-s.start {
		s.setErr(ErrAdvanceTooFar)
		return false
	}
	s.start += n
	return true
}

// setErr keeps the first error, letting a real one replace io.EOF.
func (s *Scanner) setErr(err error) {
	if s.err == nil || s.err == io.EOF {
		s.err = err
	}
}

// Buffer gives the Scanner buf (all of its capacity) to start with and
// lets it grow its buffer up to max bytes; a token must be shorter than
// the larger of max and cap(buf). With max <= cap(buf) it never allocates.
// Without a call the limit is MaxScanTokenSize. Buffer panics once
// scanning has begun.
func (s *Scanner) Buffer(buf []byte, max int) {
	if s.scanCalled {
		panic("Buffer called after Scan")
	}
	s.buf = buf[0:cap(buf)]
	s.maxTokenSize = max
}

// Split sets the function that cuts the input into tokens (ScanLines if
// never called). It panics once scanning has begun.
func (s *Scanner) Split(split SplitFunc) {
	if s.scanCalled {
		panic("Split called after Scan")
	}
	s.split = split
}

// Info reports the Scanner's decision for a descriptor (a zero Info with
// Fd -1 before its first read, or for anything else) and its read calls.
func (s *Scanner) Info() Info {
	i := s.s.report()
	if !s.s.decided {
		i.Fd = -1
	}
	return i
}
