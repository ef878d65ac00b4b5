package stream

import (
	"io"
	"math"
)

// Zero-copy.
//
// Writer.ReadFrom, Reader.WriteTo and Reader.CopyBytes first decide
// whether the rest of a copy can move inside the kernel (planCopy, which
// looks at both ends and changes neither), and only then pass on the bytes
// they hold in their buffers and run the plan. On Linux
// (zerocopy_linux.go) the kernel moves the bytes with copy_file_range,
// sendfile or splice, between two concrete *os.File values; elsewhere
// (zerocopy_other.go) there is never a plan and the caller copies in user
// space, as bufio does.
//
// The rule that keeps every byte accounted for: a plan's run declines
// (handled false) only while no byte has been taken from the source, so the
// caller's user-space copy starts exactly where the kernel copy would have.
// Once a byte has moved, the kernel copy finishes the job or returns the
// error that stopped it.
//
// Counting, for Info: every copy_file_range, sendfile and splice call adds
// one to c.kernel, successful or not, and nothing else: Reads and Writes
// count read(2) and write(2) calls, which a kernel copy does not make. The
// rare Write that hands on bytes left in the intermediate pipe after a
// failure is a write, and counts as one. c is one set of counters for both
// ends: the caller credits the kernel calls to both streams, since each
// took part in every one, and the writes to the stream that writes.

// kernelSys is the seam between a kernel copy's loops and the kernel: the
// calls that move bytes, and the one that makes the intermediate pipe. The
// descriptors' offsets are always the ones the kernel keeps (nil offset
// arguments), so a copy starts at the current offset and leaves it after
// the last byte copied. Each call returns what the system call did: a byte
// count, or an error (a syscall.Errno) with a count of zero or less.
//
// copyPlan.run uses the real calls; tests pass their own kernelSys to
// runWith to make the kernel refuse or fail at a chosen call.
type kernelSys interface {
	// copyFileRange moves up to n bytes from the file src to the file dst.
	copyFileRange(dst, src, n int) (int, error)
	// sendfile moves up to n bytes from the file src to dst.
	sendfile(dst, src, n int) (int, error)
	// splice moves up to n bytes from src to dst; one of them is a pipe.
	// flags are splice(2)'s: spliceMove, spliceNonblock.
	splice(dst, src, n, flags int) (int, error)
	// pipe makes the intermediate pipe for splicing between two
	// descriptors neither of which is a pipe: non-blocking, close-on-exec,
	// and as large as the system lets it be.
	pipe() (r, w int, err error)
}

// copySource is the reader a kernel copy takes bytes from: src with any
// *io.LimitedReader wrappers taken off, and how many bytes it may take.
type copySource struct {
	r      io.Reader
	limits []*io.LimitedReader // outermost first
	remain int64
}

// copySourceEnd is src with any *io.LimitedReader wrappers taken off: the
// reader whose type decides whether a kernel copy may stand in for it.
func copySourceEnd(src io.Reader) io.Reader {
	for {
		lr, ok := src.(*io.LimitedReader)
		if !ok {
			return src
		}
		src = lr.R
	}
}

// newCopySource unwraps src for a copy of at most limit bytes (limit < 0:
// until EOF), so that the kernel sees the descriptor under the
// LimitedReaders and stops at the smallest of their limits.
func newCopySource(src io.Reader, limit int64) copySource {
	s := copySource{r: src, remain: math.MaxInt64}
	if limit >= 0 {
		s.remain = limit
	}
	for {
		lr, ok := s.r.(*io.LimitedReader)
		if !ok {
			return s
		}
		s.limits = append(s.limits, lr)
		s.remain = min(s.remain, lr.N)
		s.r = lr.R
	}
}

// took records that n bytes were taken from the underlying reader, keeping
// each LimitedReader's N what it would be had they been read through it.
func (s *copySource) took(n int64) {
	s.remain -= n
	for _, lr := range s.limits {
		lr.N -= n
	}
}
