//go:build linux

package stream

import (
	"cmp"
	"errors"
	"io"
	"syscall"
)

// A copyPlan is a kernel copy decided on and not yet begun: the source
// (its LimitedReaders unwrapped), the destination, and what the kernel
// needs to know of each end.
type copyPlan struct {
	src     copySource
	dst     io.Writer
	in, out copyEnd
}

// planCopy decides whether up to limit bytes (limit < 0: to the end) of
// src can move to dst inside the kernel, and if so returns the plan. It
// changes nothing at either end (fstat and fcntl only), so a caller
// decides before it flushes anything.
//
// A kernel copy stands in for the Read and Write calls a user-space copy
// would make, so it takes only ends whose Read and Write are the
// descriptor's own bytes: a non-nil *os.File at both ends, the source
// perhaps under *io.LimitedReaders. The concrete type, not what a value
// offers: a type embedding *os.File, or any value with an Fd or
// SyscallConn method, may transform, count or log in its own Read and
// Write, which a copy between the descriptor numbers would bypass. (Such
// a value is still a descriptor for deciding a stream's size and mode:
// see fd.go.) A socket of package net is not taken either: telling a
// *net.TCPConn from a type embedding one needs package net or reflect,
// which this package does not link into every program; bufio's rule, which
// the callers then follow, reaches package net's and package os's own
// kernel copies (TCPConn.WriteTo, File.ReadFrom's splice) for it.
func planCopy(dst io.Writer, src io.Reader, limit int64) (p copyPlan, ok bool) {
	if !isOSFile(dst) || !isOSFile(copySourceEnd(src)) {
		return copyPlan{}, false
	}
	return describeCopy(dst, newCopySource(src, limit))
}

// describeCopy is planCopy past the choice of ends: whether the
// descriptors behind s and dst suit a kernel copy, and if there is
// anything to copy.
func describeCopy(dst io.Writer, s copySource) (p copyPlan, ok bool) {
	if s.remain <= 0 {
		return copyPlan{}, false
	}
	in, ok := describe(s.r)
	if !ok {
		return copyPlan{}, false
	}
	out, ok := describe(dst)
	if !ok || !compatible(&in, &out) {
		return copyPlan{}, false
	}
	return copyPlan{src: s, dst: dst, in: in, out: out}, true
}

// run moves the bytes (see the package's zero-copy rules in zerocopy.go):
// handled is false when the kernel refused before any byte moved, and the
// caller copies in user space. c counts the calls made.
func (p *copyPlan) run(c *counters) (written int64, handled bool, err error) {
	// The destination's RawConn is taken again, after the caller's flush
	// into it: under stdiobuf build -stdout, os.Stdout's SyscallConn first
	// writes out what package os buffers for it, where the flush may just
	// have put bytes that must come before the copied ones.
	if rc, ok := rawConn(p.dst); ok {
		p.out.rc = rc
	}
	written, handled, err = p.runWith(linuxSys{}, c)
	sigpipeOnEPIPE(p.dst, err)
	return written, handled, err
}

// linuxSys is the kernelSys that makes the system calls.
type linuxSys struct{}

func (linuxSys) copyFileRange(dst, src, n int) (int, error) { return copyFileRange(dst, src, n) }
func (linuxSys) sendfile(dst, src, n int) (int, error)      { return sendfile(dst, src, n) }
func (linuxSys) splice(dst, src, n, flags int) (int, error) { return splice(dst, src, n, flags) }

// pipe is non-blocking, so that a splice into a full pipe or out of an
// empty one fails with EAGAIN instead of waiting for a transfer that only
// this goroutine could make. A bigger pipe means fewer splice calls.
func (linuxSys) pipe() (r, w int, err error) { return newPipe(pipeSize) }

const (
	// pipeSize is the size asked for the intermediate pipe: the default
	// /proc/sys/fs/pipe-max-size, as Go's own splice uses.
	pipeSize = 1 << 20

	// pipeFlags are the flags of every splice into or out of the
	// intermediate pipe. The pipe is O_NONBLOCK, but before Linux 5.1
	// splice ignored a pipe's O_NONBLOCK, so a splice into the full pipe
	// or out of the empty one would wait for good: SPLICE_F_NONBLOCK makes
	// it fail with EAGAIN on every kernel Go supports (3.2 on), as Go's
	// internal/poll/splice_linux.go passes it.
	pipeFlags = spliceMove | spliceNonblock

	// maxRound is the most bytes one call is asked to move: the kernel's
	// MAX_RW_COUNT (INT_MAX rounded down to a page), which it would clamp
	// a larger count to anyway.
	maxRound = 0x7ffff000
)

// runWith is run with the system calls made through sys.
func (p *copyPlan) runWith(sys kernelSys, c *counters) (written int64, handled bool, err error) {
	in, out := &p.in, &p.out
	t := &transfer{sys: sys, c: c, src: &p.src, dst: p.dst, in: in, out: out}
	switch {
	case in.kind == kindRegular && out.kind == kindRegular:
		// copy_file_range can share extents or copy on the server; where
		// it cannot (another file system type, an older kernel), sendfile
		// still saves the trip through user space.
		t.direct("copy_file_range", sys.copyFileRange)
		if t.declined {
			t.declined = false
			t.direct("sendfile", sys.sendfile)
		}
	case in.kind == kindRegular:
		t.direct("sendfile", sys.sendfile)
	case in.kind == kindPipe || out.kind == kindPipe:
		// No SPLICE_F_NONBLOCK: whether a call on the caller's own pipe
		// may block is left to the descriptors' O_NONBLOCK flags, as it
		// is for read and write.
		t.direct("splice", func(dst, src, n int) (int, error) {
			return sys.splice(dst, src, n, spliceMove)
		})
	default:
		t.throughPipe()
	}
	if t.declined {
		return 0, false, nil
	}
	return t.written, true, t.err
}

// copyEnd is one end of a kernel copy.
type copyEnd struct {
	rc   syscall.RawConn
	kind fileKind // kindRegular: copy_file_range, sendfile; kindPipe: splice;
	// kindSocket (a stream socket): splice, or sendfile into it; kindOther
	// (a device): splice, through a pipe if need be
	// nonblock says the descriptor has O_NONBLOCK set. Go sets it on the
	// descriptors its poller waits for and leaves the others blocking, so
	// it tells which way to wait when a call on this end would block.
	nonblock   bool
	appendMode bool // O_APPEND: no call but write(2) writes at the end
	direct     bool // O_DIRECT: buffers must be aligned as only the caller knows
	dev, ino   uint64
}

// describe finds the descriptor behind x and what kind of file it is;
// ok is false if x has none, or one that no kernel copy can use.
func describe(x any) (e copyEnd, ok bool) {
	rc, ok := rawConn(x)
	if !ok {
		return copyEnd{}, false
	}
	e.rc = rc
	ok = false
	cerr := rc.Control(func(fd uintptr) {
		var st fileStat
		if !fstat(fd, &st) {
			return
		}
		var err error
		e.nonblock, e.appendMode, e.direct, err = fileFlags(fd)
		if err != nil {
			return
		}
		e.dev, e.ino = st.dev, st.ino
		switch st.kind {
		case kindRegular:
			e.kind = kindRegular
		case kindPipe:
			e.kind = kindPipe
		case kindSocket:
			// A datagram would be cut wherever a call happens to end.
			if !streamSocket(fd) {
				return
			}
			e.kind = kindSocket
		case kindDir:
			return
		default:
			e.kind = kindOther
		}
		ok = true
	})
	return e, ok && cerr == nil
}

// compatible reports whether a kernel copy from in to out is worth trying.
func compatible(in, out *copyEnd) bool {
	switch {
	case out.appendMode:
		// copy_file_range, sendfile and splice all refuse an O_APPEND
		// destination (EBADF or EINVAL).
		return false
	case in.direct || out.direct:
		// O_DIRECT wants aligned offsets and lengths; the caller's buffer
		// may have been sized for it, the kernel's pieces are not.
		return false
	case in.kind == kindRegular && out.kind == kindRegular && in.dev == out.dev && in.ino == out.ino:
		// A file copied into itself: copy_file_range refuses, and sendfile
		// would read the bytes it has just written, on and on.
		return false
	}
	return true
}

// next is what a copy loop does after a call.
type next int

const (
	stop    next = iota // the copy is over: done, failed or declined
	waitSrc             // wait until the source is readable, then go on
	waitDst             // wait until the destination is writable, then go on
	again               // go on at once
)

// transfer is one kernel copy in progress.
type transfer struct {
	sys     kernelSys
	c       *counters
	src     *copySource
	dst     io.Writer
	in, out *copyEnd

	taken    int64 // bytes taken from the source
	written  int64 // bytes handed to the destination; less than taken only while some sit in the intermediate pipe
	declined bool  // the kernel refused before any byte was taken: the caller copies
	err      error
}

// count records one kernel copy call. It is no read(2) or write(2), so
// Info's Reads and Writes do not count it.
func (t *transfer) count() {
	if t.c != nil {
		t.c.kernel++
	}
}

// fail ends the transfer after call name failed with err. Before any byte
// was taken, a refusal (the kernel cannot copy between these descriptors)
// leaves the copy to the caller; anything else is the copy's error.
func (t *transfer) fail(name string, err error) {
	if t.taken == 0 && refusal(name, err) {
		t.declined = true
		return
	}
	t.err = newSyscallError(name, err)
}

// refusal reports whether err from call name means that the kernel cannot
// do this copy at all, so that it has not touched either descriptor.
func refusal(name string, err error) bool {
	switch err {
	case syscall.EINVAL, // a descriptor whose file cannot do it; O_APPEND
		syscall.ENOSYS,     // a kernel without the call
		syscall.EXDEV,      // copy_file_range across file systems before Linux 5.19
		syscall.EOPNOTSUPP, // a file system without it (NFS)
		syscall.EBADF,      // copy_file_range into O_APPEND; a descriptor not open for it
		syscall.EPERM:      // seccomp filters in containers
		return true
	case syscall.EIO:
		// copy_file_range on CIFS (Go issue 42334).
		return name == "copy_file_range"
	}
	return false
}

// outcome sorts out a call from infd to outfd that returned n and err. It
// returns again with the bytes moved, none if the call was interrupted or
// both ends are ready by now; otherwise the end to wait for, or stop: at the
// end of the source, on an error, or declined.
func (t *transfer) outcome(name string, n int, err error, infd, outfd int) (int, next) {
	switch {
	case err == nil && n > 0:
		return n, again
	case err == nil:
		// The end of the source; or, on a first call, maybe a file system
		// that cannot (copy_file_range from procfs before Linux 5.19 says
		// 0). Declining lets the caller's read find out which.
		t.declined = t.taken == 0
		return 0, stop
	case err == syscall.EINTR:
		return 0, again
	case err == syscall.EAGAIN:
		return 0, blockedOn(infd, outfd)
	}
	t.fail(name, err)
	return 0, stop
}

// take records that n bytes were taken from the source.
func (t *transfer) take(n int) {
	t.src.took(int64(n))
	t.taken += int64(n)
}

// direct copies with one system call per round straight from the source's
// descriptor to the destination's.
func (t *transfer) direct(name string, call func(dst, src, n int) (int, error)) {
	t.run(func(sfd, dfd int) next {
		for t.src.remain > 0 {
			n, err := call(dfd, sfd, int(min(t.src.remain, maxRound)))
			t.count()
			n, nx := t.outcome(name, n, err, sfd, dfd)
			if nx != again {
				return nx
			}
			t.take(n)
			t.written += int64(n)
		}
		return stop
	})
}

// throughPipe copies with splice through an intermediate pipe, for two
// descriptors neither of which is a pipe.
func (t *transfer) throughPipe() {
	pr, pw, err := t.sys.pipe()
	if err != nil {
		t.declined = true
		return
	}
	defer syscall.Close(pr)
	defer syscall.Close(pw)
	probed := false
	inPipe := 0 // bytes taken from the source and not yet handed on
	t.run(func(sfd, dfd int) next {
		for !probed {
			// Splicing out of the empty pipe asks the destination whether
			// it takes spliced bytes at all (EAGAIN: it does) before a
			// byte is taken from the source.
			_, err := t.sys.splice(dfd, pr, 1, pipeFlags)
			t.count()
			switch err {
			case syscall.EINTR:
			case syscall.EAGAIN, nil:
				// nil: nothing can have moved out of an empty pipe.
				probed = true
			default:
				t.fail("splice", err)
				return stop
			}
		}
		for inPipe > 0 || t.src.remain > 0 {
			if inPipe == 0 {
				n, err := t.sys.splice(pw, sfd, int(min(t.src.remain, maxRound)), pipeFlags)
				t.count()
				n, nx := t.outcome("splice", n, err, sfd, pw)
				if nx != again {
					return nx
				}
				t.take(n)
				inPipe = n
				continue
			}
			n, err := t.sys.splice(dfd, pr, inPipe, pipeFlags)
			t.count()
			n, nx := t.outcome("splice", n, err, pr, dfd)
			if nx != again {
				return nx
			}
			inPipe -= n
			t.written += int64(n)
		}
		return stop
	})
	if inPipe > 0 {
		t.rescue(pr, inPipe)
	}
}

// run calls step with the descriptors of both ends, holding the source's
// read lock and the destination's write lock as a Read and a Write on them
// would, until step says stop. When step would block on a descriptor in
// Go's poller, run lets the poller wait for it (so deadlines apply); a
// blocking descriptor is waited for in poll(2), as long as a read or write
// on it would have blocked.
func (t *transfer) run(step func(sfd, dfd int) next) {
	var blocked next
	var werr, perr error
	rerr := t.in.rc.Read(func(sfd uintptr) bool {
		werr = t.out.rc.Write(func(dfd uintptr) bool {
			for {
				blocked = step(int(sfd), int(dfd))
				switch {
				case blocked == stop:
					return true
				case blocked == again:
					continue
				case blocked == waitSrc && t.in.nonblock:
					return true // and the Read callback returns false
				case blocked == waitDst && t.out.nonblock:
					return false
				}
				fd := int(sfd)
				if blocked == waitDst {
					fd = int(dfd)
				}
				if perr = waitBlocking(fd, blocked == waitDst); perr != nil {
					return true
				}
			}
		})
		return werr != nil || perr != nil || blocked != waitSrc
	})
	if err := cmp.Or(perr, werr, rerr); err != nil && t.err == nil && !t.declined {
		// Waiting failed: a deadline passed, the file was closed. Before
		// any byte moved, the caller's own Read or Write meets the same
		// condition and reports it as it always does.
		if t.taken == 0 {
			t.declined = true
		} else {
			t.err = err
		}
	}
}

// blockedOn tells which end a call from infd to outfd that failed with
// EAGAIN waits for. Either could be the one, a splice between two pipes
// or a pipe and a socket fails whichever of them is not ready, so ask
// poll(2); again means both are ready by now.
func blockedOn(infd, outfd int) next {
	switch {
	case !pollNow(infd, false):
		return waitSrc
	case !pollNow(outfd, true):
		return waitDst
	}
	return again
}

// pollNow reports whether fd is ready for reading (or writing) at once;
// a poll that fails says ready, so that the next call reports the error.
func pollNow(fd int, write bool) bool {
	for {
		ready, err := pollReady(fd, write, false)
		if err != syscall.EINTR {
			return ready || err != nil
		}
	}
}

// waitBlocking waits in poll(2) until fd is ready for reading (or
// writing), or hung up or failed, which the next call reports.
func waitBlocking(fd int, write bool) error {
	for {
		ready, err := pollReady(fd, write, true)
		if err == nil && ready {
			return nil
		}
		if err != nil && err != syscall.EINTR {
			return newSyscallError("poll", err)
		}
	}
}

// rescue hands on the n bytes left in the intermediate pipe after the
// splice out of it failed, with the destination's Write, so that bytes
// taken from the source reach the destination whenever it still takes
// them.
func (t *transfer) rescue(pr, n int) {
	buf := make([]byte, min(n, 64<<10))
	for n > 0 {
		m, err := syscall.Read(pr, buf[:min(n, len(buf))])
		if err == syscall.EINTR {
			continue
		}
		if err != nil || m <= 0 {
			return
		}
		n -= m
		w, err := t.dst.Write(buf[:m])
		if t.c != nil {
			t.c.writes++
		}
		t.written += int64(w)
		if err != nil {
			return
		}
	}
}

// sigpipeOnEPIPE gives a kernel copy's EPIPE the consequence a write
// through *os.File has: on standard output or standard error the Go
// runtime then kills the program with SIGPIPE, as a C program dies (see
// os/signal). os.File does this inside its Write, which the kernel copy
// bypassed; one more write of one byte through the file hands the runtime
// the EPIPE it acts on. The byte cannot be delivered: a pipe or socket
// that has lost its reader never gets one back. On other descriptors the
// write just fails again and the copy's error is returned as it was.
func sigpipeOnEPIPE(dst io.Writer, err error) {
	if f, ok := osFile(dst); ok && errors.Is(err, syscall.EPIPE) {
		f.Write([]byte{'\n'})
	}
}
