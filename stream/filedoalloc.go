package stream

// This file is the one place that decides a stream's buffering mode and
// buffer size, as glibc's _IO_file_doallocate (libio/filedoalloc.c) does
// for a FILE: lazily, at the first operation that needs the buffer, from
// fstat(2) of the descriptor underneath.

// direction tells a reading stream from a writing one: the standard
// stream rules and the _STDBUF_ variables depend on it.
type direction uint8

const (
	reading direction = iota
	writing
)

// setup is what a stream knows about how it is to be buffered: what the
// caller asked for, and, once decided, what doallocate chose.
//
// mode is the copy of info.Mode that the hot paths of Reader, Writer and
// Scanner check; apply is the one place that sets it, so it cannot fall
// out of step with the decision.
type setup struct {
	mode    Mode   // info.Mode, set only by apply
	policy  Policy // as given; PolicyDefault is resolved at decide time
	size    int    // a size from NewReaderSize/NewWriterSize; 0 if none
	vbuf    bool   // Setvbuf was called: vmode and vsize win over all else
	vmode   Mode
	vsize   int // 0: the policy's size
	decided bool
	info    Info     // the decision; its call counts are filled in by report
	calls   counters // calls made on the underlying reader or writer
}

// report returns the decision with the current call counts.
func (s *setup) report() Info {
	i := s.info
	if !s.decided {
		i.Fd = -1 // not 0, which would read as standard input
	}
	i.Reads, i.Writes, i.Kernel = s.calls.reads, s.calls.writes, s.calls.kernel
	i.Ahead, i.Overlapped, i.Waited = s.calls.ahead, s.calls.overlapped, s.calls.waited
	return i
}

// decide is doallocate: it fstat()s the descriptor behind u (if any) and
// fills s.info with the mode, size and the reason for them. The order of
// precedence is: Setvbuf, then the _STDBUF_ variable of a standard
// descriptor, then the policy with the terminal and stderr rules.
func (s *setup) decide(u any, dir direction) {
	s.decided = true
	s.info = Info{Fd: -1}
	in := &s.info

	fd, st, isFD := statDescriptor(u)
	policy := s.policy
	if policy == PolicyDefault {
		policy = defaultPolicy()
	}
	in.Policy = policy
	if !isFD {
		// Not a descriptor: exactly what bufio gives.
		in.Size, in.Reason = bufioSize, "not a descriptor: bufio's 4096"
		if s.size != 0 {
			in.Size, in.Reason = s.size, "requested size"
		}
		s.apply()
		return
	}
	in.Fd = fd
	if st != nil {
		in.Blksize = st.blksize
	}

	// The policy's answer, then the rules glibc applies on top of it.
	in.Size, in.Reason = policy.size(st)
	if limit, ok := fileCap(st); ok && dir == reading && in.Size > limit {
		in.Size, in.Reason = limit, in.Reason+", capped at st_size "+itoa(st.size)+" in whole blocks"
	}
	if s.size != 0 {
		in.Size, in.Reason = s.size, "requested size"
	}
	switch {
	case policy == PolicyBufio:
	case fd == 2 && dir == writing:
		in.Mode, in.Reason = Unbuffered, "standard error: "+in.Reason
	case st != nil && st.terminal && policy != PolicyRust:
		in.Mode, in.Reason = LineBuffered, "terminal: "+in.Reason
	}

	if mode, size, reason, ok := stdbufSetting(fd, dir); ok {
		in.Mode, in.Reason = mode, reason
		if size > 0 {
			in.Size = size
		}
	}
	s.apply()
}

// apply puts what Setvbuf asked for (if anything) over the decision and
// sets the cached mode from it. Every change of the decision ends here.
func (s *setup) apply() {
	if s.vbuf {
		s.info.Mode, s.info.Reason = s.vmode, "Setvbuf"
		if s.vsize > 0 {
			s.info.Size = s.vsize
		}
	}
	s.mode = s.info.Mode
}

// SetPolicy sets the policy that decides the Reader's mode and size over a
// file descriptor, as NewReaderPolicy does. Before the first read it only
// records p; after it the decision is made again and the buffer resized,
// keeping every unread byte. A Setvbuf setting still wins. An invalid
// policy returns an error wrapping ErrInvalidPolicy and changes nothing.
func (b *Reader) SetPolicy(p Policy) error {
	if !p.valid() {
		return p.invalid()
	}
	b.s.policy = p
	if b.s.decided {
		b.decide()
		b.refit()
	}
	return nil
}

// SetPolicy sets the policy that decides the Writer's mode and size over a
// file descriptor, as NewWriterPolicy does. Before the first write it only
// records p; after it the buffer is flushed (on failure the error is
// returned and nothing changes) and the decision made again. A Setvbuf
// setting still wins. An invalid policy returns an error wrapping
// ErrInvalidPolicy and changes nothing.
func (b *Writer) SetPolicy(p Policy) error {
	if !p.valid() {
		return p.invalid()
	}
	if !b.s.decided {
		b.s.policy = p
		return nil
	}
	if err := b.Flush(); err != nil {
		return err
	}
	b.s.policy = p
	b.decide()
	b.refit()
	return nil
}
