package stream

import "strconv"

// Mode is a stream's buffering mode, as setvbuf(3) takes it.
type Mode int

// The three modes, with the values of glibc's _IOFBF, _IOLBF and _IONBF.
const (
	// FullyBuffered streams read and write whole buffers.
	FullyBuffered Mode = 0
	// LineBuffered writers send everything through the last newline of
	// each write at once; line-buffered readers flush Stdout (if it is
	// line buffered) before they read their descriptor.
	LineBuffered Mode = 1
	// Unbuffered writers hand each write to the underlying writer whole;
	// unbuffered readers never read ahead of what the caller asked for.
	Unbuffered Mode = 2
)

// String returns "full", "line" or "none" (stdbuf's words are 0 and L).
func (m Mode) String() string {
	switch m {
	case FullyBuffered:
		return "full"
	case LineBuffered:
		return "line"
	case Unbuffered:
		return "none"
	}
	return "Mode(" + strconv.Itoa(int(m)) + ")"
}

// checkVbuf validates Setvbuf's arguments.
func checkVbuf(mode Mode, size int) error {
	if mode != FullyBuffered && mode != LineBuffered && mode != Unbuffered {
		return &detailError{ErrInvalidMode, strconv.Itoa(int(mode))}
	}
	if size < 0 {
		return &detailError{ErrInvalidSize, strconv.Itoa(size)}
	}
	return nil
}

// Setvbuf sets the buffering mode and size, as setvbuf(3), and may be
// called at any time. A size of 0 means the policy's size. An unknown mode
// or a negative size returns an error and changes nothing.
//
// Unlike glibc, it never drops input: every buffered unread byte stays
// readable, so if more bytes are unread than size the buffer is made as
// large as they are, and stays that size. A reader's size is at least 16
// bytes, as in bufio. Setvbuf wins over the policy, the terminal rule and
// _STDBUF_I.
func (b *Reader) Setvbuf(mode Mode, size int) error {
	if err := checkVbuf(mode, size); err != nil {
		return err
	}
	b.s.setvbuf(b.rd, reading, mode, size)
	b.updateAhead()
	b.refit()
	return nil
}

// Setvbuf sets the buffering mode and size, as setvbuf(3), and may be
// called at any time. It first flushes buffered output; if that fails it
// returns the error and changes nothing. A size of 0 means the policy's
// size. An unknown mode or a negative size returns an error and changes
// nothing. Setvbuf wins over the policy, the terminal and standard-error
// rules, and _STDBUF_O and _STDBUF_E. As after SetPolicy, an unbuffered
// Writer drops its buffer (Available is 0) and a buffered one gets a
// buffer of the new size at once.
func (b *Writer) Setvbuf(mode Mode, size int) error {
	if err := checkVbuf(mode, size); err != nil {
		return err
	}
	if err := b.Flush(); err != nil {
		return err
	}
	b.s.setvbuf(b.wr, writing, mode, size)
	b.refit()
	return nil
}

// setvbuf records a Setvbuf call and applies it. Size 0 stands for the
// policy's size, which needs a decision (an fstat) if none was made or if
// an earlier Setvbuf replaced the policy's size.
func (s *setup) setvbuf(u any, dir direction, mode Mode, size int) {
	s.vbuf, s.vmode, s.vsize = true, mode, size
	if !s.decided || size == 0 {
		s.decide(u, dir)
		return
	}
	s.apply()
}
