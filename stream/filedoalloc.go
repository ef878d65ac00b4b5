package stream

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// This file is the one place that decides a stream's buffering mode and
// buffer size, as glibc's _IO_file_doallocate (libio/filedoalloc.c) does
// for a FILE: lazily, at the first operation that needs the buffer, from
// fstat(2) of the descriptor underneath.

const (
	// bufioSize is bufio's default buffer size, used for every stream that
	// is not a file descriptor and by PolicyBufio.
	bufioSize = 4096

	// glibcBUFSIZ is glibc's BUFSIZ: the size glibc uses when fstat fails
	// or reports no block size, and the cap of its current rule.
	glibcBUFSIZ = 8192

	// maxBlksizeBuffer caps st_blksize under PolicyBlksize. It is the value
	// of the glibc patch proposal (Dec 2025): 128 KiB gave a getdelim/fwrite
	// loop 1.69x the speed of 8 KiB on ZFS, while the 512 KiB to 4 MiB that
	// NFS, CIFS and CephFS report is "a lot for an iostream". Past 128 KiB
	// the syscall count stops mattering: getdelim --loop with 128 KiB and
	// 1 MiB buffers took 62.1 and 63.1 ms on XFS (headbench, 2026-11-30).
	maxBlksizeBuffer = 128 << 10

	// coreutilsIOBufsize is coreutils' IO_BUFSIZE (src/ioblksize.h, since
	// 2024): the smallest buffer at which syscall overhead stopped
	// mattering on all 11 systems of its dd sweep.
	coreutilsIOBufsize = 256 << 10

	// maxBufferSize bounds sizes that come from the environment or from
	// ParsePolicy, so that a typo cannot ask for terabytes.
	maxBufferSize = 1 << 30

	// minReadBufferSize is bufio's minimum reader size: ReadRune and
	// UnreadRune need a few bytes of room.
	minReadBufferSize = 16
)

// A Policy decides the buffer size of a stream over a file descriptor
// (and, with the terminal check, its mode). A positive Policy is a fixed
// size in bytes, as setvbuf with a size; the named policies are the
// negative constants. The zero Policy, PolicyDefault, stands for the
// process default: $STDIOBUF_POLICY if it is set and valid, else
// PolicyBlksize.
type Policy int

// The named policies. See the package documentation for a table.
const (
	// PolicyDefault resolves, when a buffer is allocated, to the policy
	// named by the environment variable STDIOBUF_POLICY, or PolicyBlksize.
	PolicyDefault Policy = 0
	// PolicyBlksize is min(st_blksize, 128 KiB); 8192 if fstat fails or
	// st_blksize <= 0. Terminals are line buffered.
	PolicyBlksize Policy = -1
	// PolicyBufsiz is glibc's rule since 2.25: min(st_blksize, 8192);
	// 8192 if fstat fails. Terminals are line buffered.
	PolicyBufsiz Policy = -2
	// PolicyCoreutils is coreutils' io_blksize(): the smallest multiple
	// of st_blksize that is at least 256 KiB, rounded up to a power of two
	// for regular files. Terminals are line buffered.
	PolicyCoreutils Policy = -3
	// PolicyBufio is Go's bufio: 4096 bytes, never line buffered, and no
	// special case for standard error.
	PolicyBufio Policy = -4
)

// PolicyEnv is the environment variable that sets the process default
// policy: blksize, bufsiz, coreutils, bufio, or a size such as 65536 or 64K.
const PolicyEnv = "STDIOBUF_POLICY"

var policyNames = [...]string{"default", "blksize", "bufsiz", "coreutils", "bufio"}

// String returns the policy's name as ParsePolicy reads it: "blksize",
// "bufsiz", "coreutils", "bufio", "default", or a byte count such as
// "65536". An invalid policy prints as "Policy(-9)".
func (p Policy) String() string {
	switch {
	case p > 0:
		return strconv.Itoa(int(p))
	case p > -Policy(len(policyNames)):
		return policyNames[-p]
	}
	return fmt.Sprintf("Policy(%d)", int(p))
}

// valid reports whether p is one of the named policies or a size.
func (p Policy) valid() bool { return p > -Policy(len(policyNames)) }

// ParsePolicy parses a policy name (blksize, bufsiz, coreutils, bufio or
// default, in any case) or a size: a decimal byte count with an optional
// suffix K, KiB (1024), KB (1000), M, MiB, MB, G, GiB or GB, at most 1 GiB.
// The error names the text that did not parse.
func ParsePolicy(s string) (Policy, error) {
	for i, name := range policyNames {
		if strings.EqualFold(s, name) {
			return Policy(-i), nil
		}
	}
	n, err := parseSize(s)
	if err != nil {
		return 0, fmt.Errorf("stream: invalid policy %q: want blksize, bufsiz, coreutils, bufio or a size such as 65536 or 64K: %w", s, err)
	}
	return Policy(n), nil
}

// parseSize reads a positive byte count with an optional unit suffix.
func parseSize(s string) (int, error) {
	digits := len(s) - len(strings.TrimLeft(s, "0123456789"))
	if digits == 0 {
		return 0, ErrInvalidSize
	}
	n, err := strconv.ParseInt(s[:digits], 10, 64)
	if err != nil {
		return 0, ErrInvalidSize
	}
	unit := int64(1)
	switch strings.ToUpper(s[digits:]) {
	case "":
	case "K", "KIB":
		unit = 1 << 10
	case "KB":
		unit = 1e3
	case "M", "MIB":
		unit = 1 << 20
	case "MB":
		unit = 1e6
	case "G", "GIB":
		unit = 1 << 30
	case "GB":
		unit = 1e9
	default:
		return 0, ErrInvalidSize
	}
	if n <= 0 || n > maxBufferSize/unit {
		return 0, ErrInvalidSize
	}
	return int(n * unit), nil
}

// size is the buffer size p gives a descriptor for which fstat reported
// st (nil when fstat failed). p must be resolved (not PolicyDefault).
func (p Policy) size(st *fileStat) (size int, reason string) {
	if p > 0 {
		return int(p), "fixed size"
	}
	if p == PolicyBufio {
		return bufioSize, "bufio's 4096"
	}
	var blksize int64
	if st != nil {
		blksize = st.blksize
	}
	switch {
	case p == PolicyCoreutils:
		return coreutilsBlksize(blksize, st != nil && st.regular), fmt.Sprintf("io_blksize(st_blksize %d)", blksize)
	case st == nil:
		return glibcBUFSIZ, "fstat failed: BUFSIZ"
	case blksize <= 0:
		return glibcBUFSIZ, fmt.Sprintf("st_blksize %d: BUFSIZ", blksize)
	}
	limit := int64(maxBlksizeBuffer)
	if p == PolicyBufsiz {
		limit = glibcBUFSIZ
	}
	if blksize > limit {
		return int(limit), fmt.Sprintf("st_blksize %d capped at %d", blksize, limit)
	}
	return int(blksize), fmt.Sprintf("st_blksize %d", blksize)
}

// coreutilsBlksize is coreutils' io_blksize(): at least IO_BUFSIZE, a
// multiple of the block size, and a power of two for regular files.
func coreutilsBlksize(blksize int64, regular bool) int {
	if blksize <= 0 || blksize > maxBufferSize {
		blksize = coreutilsIOBufsize
	}
	size := (coreutilsIOBufsize + blksize - 1) / blksize * blksize
	if regular && size&(size-1) != 0 {
		p := int64(1)
		for p < size {
			p <<= 1
		}
		size = p
	}
	return int(size)
}

// direction tells a reading stream from a writing one: the standard
// stream rules and the _STDBUF_ variables depend on it.
type direction uint8

const (
	reading direction = iota
	writing
)

// setup is what a stream knows about how it is to be buffered: what the
// caller asked for, and, once decided, what doallocate chose.
type setup struct {
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
		if s.vbuf {
			s.applyVbuf()
		}
		return
	}
	in.Fd = fd
	if st != nil {
		in.Blksize = st.blksize
	}

	// The policy's answer, then the rules glibc applies on top of it.
	in.Size, in.Reason = policy.size(st)
	if s.size != 0 {
		in.Size, in.Reason = s.size, "requested size"
	}
	switch {
	case policy == PolicyBufio:
	case fd == 2 && dir == writing:
		in.Mode, in.Reason = Unbuffered, "standard error: "+in.Reason
	case st != nil && st.terminal:
		in.Mode, in.Reason = LineBuffered, "terminal: "+in.Reason
	}

	if mode, size, reason, ok := stdbufSetting(fd, dir); ok {
		in.Mode, in.Reason = mode, reason
		if size > 0 {
			in.Size = size
		}
	}
	if s.vbuf {
		s.applyVbuf()
	}
}

// applyVbuf puts what Setvbuf asked for over the decision.
func (s *setup) applyVbuf() {
	s.info.Mode, s.info.Reason = s.vmode, "Setvbuf"
	if s.vsize > 0 {
		s.info.Size = s.vsize
	}
}

// defaultPolicy is $STDIOBUF_POLICY, or PolicyBlksize when it is unset or
// does not parse (which is reported once on standard error).
func defaultPolicy() Policy {
	v, ok := os.LookupEnv(PolicyEnv)
	if !ok || v == "" {
		return PolicyBlksize
	}
	p, err := ParsePolicy(v)
	if err != nil {
		warnEnv(PolicyEnv, v, "want blksize, bufsiz, coreutils, bufio or a size such as 65536 or 64K; using blksize")
		return PolicyBlksize
	}
	if p == PolicyDefault {
		// STDIOBUF_POLICY=default: the default is blksize; a decided
		// stream never reports PolicyDefault.
		return PolicyBlksize
	}
	return p
}

// SetPolicy sets the policy that decides the Reader's mode and size over a
// file descriptor, as NewReaderPolicy does. Before the first read it only
// records p; after it the decision is made again and the buffer resized,
// keeping every unread byte. A Setvbuf setting still wins. An invalid
// policy returns an error wrapping ErrInvalidPolicy and changes nothing.
func (b *Reader) SetPolicy(p Policy) error {
	if !p.valid() {
		return fmt.Errorf("%w: %v", ErrInvalidPolicy, p)
	}
	b.s.policy = p
	if b.s.decided {
		b.decide()
		if b.buf != nil {
			b.resize(b.bufSize())
		}
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
		return fmt.Errorf("%w: %v", ErrInvalidPolicy, p)
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
	if b.buf != nil && len(b.buf) != b.s.info.Size {
		b.buf = nil
		b.init()
	}
	return nil
}
