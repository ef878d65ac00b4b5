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

// setup is what a stream knows about how it is to be buffered. Its fields
// are of two kinds:
//
//  1. the settings, what the caller asked for: policy, size, and a Setvbuf
//     setting (vbuf, vmode, vsize). Reset keeps them (settings).
//  2. the decision that doallocate makes from them for the underlying
//     reader or writer, and what the stream did since: mode, decided,
//     overFD, info, why, calls. Reset drops them, and the decision is
//     made again for the new reader or writer.
//
// mode is the copy of info.Mode that the hot paths of Reader, Writer and
// Scanner check; apply is the one place that sets it, so it cannot fall
// out of step with the decision.
type setup struct {
	mode    Mode     // info.Mode, set only by apply
	policy  Policy   // as given; PolicyDefault is resolved at decide time
	size    int      // a size from NewReaderSize/NewWriterSize; 0 if none
	vbuf    bool     // Setvbuf was called: vmode and vsize win over all else
	vmode   Mode     // the mode Setvbuf asked for
	vsize   int      // the size Setvbuf asked for; 0: the policy's size
	decided bool     // info and why hold a decision
	overFD  bool     // decided for a descriptor
	info    Info     // the decision; its Reason and call counts are filled in by report
	why     reason   // why the decision is what it is: Info's Reason, unformatted
	calls   counters // calls made on the underlying reader or writer
}

// settings returns the part of s that Reset keeps: the settings, with no
// decision.
func (s *setup) settings() setup {
	return setup{policy: s.policy, size: s.size, vbuf: s.vbuf, vmode: s.vmode, vsize: s.vsize}
}

// report returns the decision with its reason and the current call
// counts.
func (s *setup) report() Info {
	i := s.info
	if !s.decided {
		i.Fd = -1 // not 0, which would read as standard input
	}
	i.Reason = s.why.String()
	if s.decided && i.Policy == PolicyDefault {
		i.Policy = defaultPolicy() // not a descriptor: see decide
	}
	i.Reads, i.Writes, i.Kernel = s.calls.reads, s.calls.writes, s.calls.kernel
	i.Ahead, i.Overlapped, i.Waited = s.calls.ahead, s.calls.overlapped, s.calls.waited
	return i
}

// decide is doallocate: it fstat()s the descriptor behind u (if any) and
// fills s.info with the mode and size, and s.why with the reason for them.
// The order of precedence is: Setvbuf, then the _STDBUF_ variable of a
// standard descriptor, then the policy with the terminal and stderr rules.
// It allocates nothing (but for a _STDBUF_ reason): Reset and decide run
// once per stream, as often as a program makes streams.
func (s *setup) decide(u any, dir direction) {
	s.decided = true
	s.info = Info{Fd: -1}
	s.why = reason{}
	in := &s.info

	var stat fileStat
	fd, statted, isFD := statDescriptor(u, &stat)
	s.overFD = isFD
	if !isFD {
		// Not a descriptor: exactly what bufio gives, whatever the
		// policy, which report resolves only if Info is asked (reading
		// the environment costs more than the rest of a Reset).
		in.Policy = s.policy
		in.Size, s.why.size = bufioSize, sizeNotDescriptor
		if s.size != 0 {
			in.Size, s.why.size = s.size, sizeRequested
		}
		s.apply()
		return
	}
	var st *fileStat
	if statted {
		st = &stat
	}
	policy := s.policy
	if policy == PolicyDefault {
		policy = defaultPolicy()
	}
	in.Fd, in.Policy = fd, policy
	if st != nil {
		in.Blksize = st.blksize
	}

	// The policy's answer, then the rules glibc applies on top of it.
	in.Size, s.why = policy.size(st)
	if limit, ok := fileCap(st); ok && dir == reading && in.Size > limit {
		in.Size, s.why.capped, s.why.fileSize = limit, true, st.size
	}
	if s.size != 0 {
		in.Size, s.why = s.size, reason{size: sizeRequested}
	}
	switch {
	case policy == PolicyBufio:
	case fd == 2 && dir == writing:
		in.Mode, s.why.mode = Unbuffered, modeStderr
	case st != nil && st.terminal && policy != PolicyRust:
		in.Mode, s.why.mode = LineBuffered, modeTerminal
	}

	if mode, size, env, ok := stdbufSetting(fd, dir); ok {
		in.Mode, s.why.mode, s.why.env = mode, modeStdbuf, env
		if size > 0 {
			in.Size = size
		}
	}
	s.apply()
}

// keeps reports whether a Reset to u would decide exactly as s did: s
// decided for a value that is not a descriptor, and u is not one either.
// That decision depends only on the settings, which Reset keeps.
func (s *setup) keeps(u any) bool {
	_, hasFd := u.(interface{ Fd() uintptr }) // isDescriptor's first test, inlined
	return s.decided && !s.overFD && (!hasFd || !isDescriptor(u))
}

// keepsFile reports whether a Reset from old to u keeps s's decision for
// a descriptor: s decided for the *os.File u, old itself. An *os.File
// stands for one descriptor until it is closed, and then for none: its
// number, reused by another file, is never its again. What the decision
// was made from stays: the settings (SetPolicy and Setvbuf decide again
// when they are called), the descriptor's kind, st_blksize, the standard
// descriptor's number. Only the cap at a file's size may be stale, if
// the file grew: the buffer stays the size decided, as glibc's stays the
// size doallocate gave it until fclose, and as bufio's stays its size.
func (s *setup) keepsFile(old, u any) bool {
	return s.decided && s.overFD && isOSFile(u) && u == old
}

// apply puts what Setvbuf asked for (if anything) over the decision and
// sets the cached mode from it. Every change of the decision ends here.
func (s *setup) apply() {
	if s.vbuf {
		s.info.Mode, s.why.mode = s.vmode, modeSetvbuf
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
