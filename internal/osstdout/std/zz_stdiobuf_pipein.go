//go:build stdiobuf_std

// This file is added to package os by `stdiobuf build -stdout`; it does
// something only in a build with -files (stdioFilesOn), on a system that
// has tee(2) (stdioPipeSys: Linux). It gives the original standard
// input, when it is a pipe or a FIFO, the read buffer a regular file gets
// (zz_stdiobuf_reads.go), without ever taking from the pipe a byte the
// program has not used: a pipe cannot give bytes back.
//
// A fill copies what the pipe holds, up to stdioPipeCopy bytes, with
// tee(2) into a private pipe, and reads the copy from there: the bytes
// stay in standard input's pipe. Each time the program has used the
// policy's size of them (the size a plain reader's buffer would read),
// and when it has used all the buffer holds, one read(2) of standard
// input takes exactly those bytes out of the pipe (the consume). So the
// pipe holds, at any time, the bytes the program has not read, plus at
// most a buffer of the policy's size that it has read; "give back" for
// a pipe is a consume of the used bytes, and the unused ones are
// dropped from the buffer (the pipe still holds them), wherever a
// regular file's buffer gives back. A Read returns what the pipe holds,
// up to what was asked: the bytes a plain read(2) would return. A fill
// and its copy's read are two system calls where a plain reader's
// buffer makes one, and tee(2) copies no more than the pipe holds: the
// copy is larger than the policy's size so that, while the pipe keeps
// ahead of the program, the calls stay about a plain reader's.
//
// A copy taken without consuming could be read a second time by another
// reader of the same pipe; so the pipe is buffered only where no other
// reader is seen. Decided once, at standard input's stdioPipeAfter-th
// Read of fewer than stdioReadSmall bytes (before it, Reads are plain):
// /proc lists no other descriptor open for reading on the pipe, neither
// in this process nor in another process of its session (a process of
// the session whose descriptors cannot be read: plain). Readers that come
// later are seen where they come from this process: a child handed the
// pipe (the buffer is given back and the pipe read plainly from then on,
// as a regular file handed to a child) and another *File of this
// process reading the same pipe (os.NewFile(0, ...), /dev/stdin: the
// same). Not seen: processes of other sessions, a descriptor sent over
// a socket (the buffer is given back before the write, as at every
// flush point, but stays), taken through /proc/PID/fd or pidfd_getfd,
// or made with a raw dup(2) and read raw, a child of syscall.ForkExec.
//
// Until they are consumed, the pipe holds the bytes the program has read
// from it: a writer that fills the pipe waits up to one buffer of the
// policy's size sooner than in a plain build.
//
// A fill waits for the peer that writes the pipe; it runs with the
// buffer marked busy and its lock released, so that nothing that gives
// buffers back waits for it (the buffer is empty while it runs). A
// second Read of the same *File waits for it, as a plain Read waits for
// os's read lock.

package os

import (
	"bufio"
	"sync"
)

// stdioPipeOps is what the target's system gives a pipe's read buffer.
type stdioPipeOps struct {
	// usable reports whether f, the original standard input, a pipe
	// whose fstat is fi, may be buffered: open read-only and blocking,
	// and no other reader of the pipe seen. It says why not, the zero
	// stdioPipeWhy if it may.
	usable func(f *File, fi FileInfo) stdioPipeWhy
	// open makes the private pipe, close-on-exec.
	open func() (r, w int, err error)
	// tee copies up to n bytes of what f's pipe holds into the pipe w
	// without taking them from f's, waiting for a first byte or the
	// end, as read(2) waits; 0 at the end.
	tee func(f *File, w, n int) (int, error)
	// read reads p's length from the descriptor fd, retried on EINTR.
	read func(fd int, p []byte) (int, error)
	// holds is how many bytes f's pipe holds (FIONREAD); 0 where it
	// cannot say.
	holds func(f *File) int
	// close closes fd.
	close func(fd int)
}

// stdioPipeAfter is the number of small Reads (of fewer than
// stdioReadSmall bytes) of standard input on a pipe after which it is
// decided whether the pipe gets a read buffer: a program that reads a
// line or a few numbers of it pays nothing for the look through /proc,
// 0.5 ms with 74 processes on the machine, 7.5 ms with 674
// (bench/pipescan.sh).
const stdioPipeAfter = 64

// stdioPipeSys is the system's part; the target's own file sets it
// (Linux: its sys_linux.go). Where it is nil, a pipe is read plainly.
var stdioPipeSys *stdioPipeOps

// stdioPipeCopy is the most bytes a fill copies where the policy's size
// is smaller: a pipe's default capacity, 16 of the policy's usual 4 KiB.
const stdioPipeCopy = 64 << 10

// stdioPipe is a read buffer's part over a pipe.
type stdioPipe struct {
	r, w int       // the private pipe's descriptors, -1 until the first fill and once closed; guarded by the buffer's mu
	busy bool      // a fill or a read straight into the caller's slice runs with mu released; guarded by mu
	idle sync.Cond // signalled when busy ends; its L is the buffer's mu
	done int       // buf[:done] is consumed already, done <= the buffer's r; guarded by mu
}

// stdioPipeWhy is why a pipe is read plainly (stdioPipeOps.usable), the
// zero value where it may be buffered: a rule and the process or
// descriptor the rule names. It is a value, formatted (String) only for
// the report, so that deciding allocates nothing for it.
type stdioPipeWhy struct {
	rule stdioPipeRule
	n    int // the process, or this process's descriptor, the rule names
}

// stdioPipeRule is the rule that keeps a pipe plain.
type stdioPipeRule uint8

const (
	stdioPipeAlone       stdioPipeRule = iota // no other reader seen: buffered
	stdioPipeNoFlags                          // fcntl(F_GETFL) failed
	stdioPipeNotRead                          // not open read-only (O_RDWR)
	stdioPipeNonblocking                      // in non-blocking mode
	stdioPipeNoProc                           // /proc cannot be read
	stdioPipeNoSession                        // process n's session cannot be read
	stdioPipeHidden                           // process n of the session cannot be looked at
	stdioPipeOtherReader                      // process n holds it open for reading
	stdioPipeOwnReader                        // this process's descriptor n is open on it for reading
)

// String says why, for the report's reason.
func (w stdioPipeWhy) String() string {
	n := stdioItoa(w.n)
	switch w.rule {
	case stdioPipeNoFlags:
		return "pipe: fcntl(F_GETFL) failed"
	case stdioPipeNotRead:
		return "pipe: not open read-only"
	case stdioPipeNonblocking:
		return "pipe: non-blocking"
	case stdioPipeNoProc:
		return "pipe: /proc cannot be read"
	case stdioPipeNoSession:
		return "pipe: the session of process " + n + " cannot be read"
	case stdioPipeHidden:
		return "pipe: process " + n + " of the session cannot be looked at"
	case stdioPipeOtherReader:
		return "pipe: process " + n + " holds it open for reading"
	case stdioPipeOwnReader:
		return "pipe: descriptor " + n + " of this process is open on it for reading"
	}
	return "pipe"
}

// stdioItoa is n in decimal.
func stdioItoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

// stdioPipeBuf returns a read buffer of size bytes over f, the
// original standard input, a pipe whose fstat is fi, that rd decided;
// or nil, and why, if the pipe is read plainly (stdioPipeOps.usable).
// The caller holds stdioFiles.mu.
func stdioPipeBuf(f *File, fi FileInfo, rd *bufio.Reader, size int) (*stdioReadBuf, stdioPipeWhy) {
	if why := stdioPipeSys.usable(f, fi); why.rule != stdioPipeAlone {
		return nil, why
	}
	b := &stdioReadBuf{f: f, fd: f.stdioRawFd(), info: fi, size: size, rd: rd}
	b.pipe = &stdioPipe{r: -1, w: -1}
	b.pipe.idle.L = &b.mu
	stdioReads.pipe.Store(b)
	return b, stdioPipeWhy{}
}

// fill fills b's empty buffer from the pipe: tee(2) into the private
// pipe, then read(2) of the copy, with mu released for both. It returns
// the bytes buffered, 0 at the end of the pipe; plain if the pipe is to
// be read plainly from now on: b was made plain while the fill ran (a
// child handed the pipe, exit, Close: what it copied is dropped, the
// pipe still holds it), or tee(2) failed (a plain read returns the
// error, as without the buffer). The caller holds mu.
func (p *stdioPipe) fill(b *stdioReadBuf) (m int, plain bool) {
	if b.direct {
		return 0, true
	}
	ops := stdioPipeSys
	if p.r < 0 {
		r, w, err := ops.open()
		if err != nil {
			b.plainNow("pipe: pipe2 failed: read plainly from then on")
			b.plainFor()
			return 0, true
		}
		p.r, p.w = r, w
	}
	if b.buf == nil {
		b.buf = make([]byte, max(b.size, stdioPipeCopy))
	}
	p.away(b)
	m, err := 0, error(ErrClosed)
	if stdioReads.tee.lock() {
		m, err = ops.tee(b.f, p.w, len(b.buf))
		stdioReads.tee.unlock()
	}
	reads, k := 0, 0
	if m > 0 && err == nil {
		stdioHeard(b.f)
		// The copy is all in the private pipe: one read(2) takes it.
		var rerr error
		reads = 1
		if k, rerr = ops.read(p.r, b.buf[:m]); k != m || rerr != nil {
			err = ErrInvalid
		}
	}
	p.back(b)
	b.counted(reads, 1, k)
	if err != nil {
		if !b.direct {
			b.plainNow("pipe: its copy failed: read plainly from then on")
		}
		b.plainFor()
	}
	if b.direct {
		return 0, true
	}
	return m, false
}

// readDirect reads into q straight from the pipe, as a plain Read does,
// with the buffer (empty) marked busy and mu released. The caller holds
// mu.
func (p *stdioPipe) readDirect(b *stdioReadBuf, q []byte) (int, error) {
	p.away(b)
	n, err := b.f.stdioRawRead(q)
	if n > 0 {
		stdioHeard(b.f)
	}
	p.back(b)
	return n, err
}

// away marks the buffer busy and lets mu go, before a call that waits
// for the pipe's writer. The caller holds mu, and the buffer is empty.
func (p *stdioPipe) away(b *stdioReadBuf) {
	p.busy = true
	b.mu.Unlock()
}

// back takes mu again after away's call and lets those waiting for it
// in; if the pipe was made plain meanwhile (plainFor left the private
// pipe to the call), it finishes that.
func (p *stdioPipe) back(b *stdioReadBuf) {
	b.mu.Lock()
	p.busy = false
	p.idle.Broadcast()
	if b.direct {
		b.plainFor()
	}
}

// waitFill waits, mu held, for a fill or a read straight from the pipe
// under way on b, if b is a pipe's buffer, as a plain Read waits for
// os's read lock. It returns at once once b is read plainly.
func (b *stdioReadBuf) waitFill() {
	for b.pipe != nil && b.pipe.busy && !b.direct {
		b.pipe.idle.Wait()
	}
}

// consume takes out of the pipe the bytes the program has used of the
// buffer and not yet consumed, buf[done:r], and with all drops the rest
// of the buffer (the pipe still holds it). A consume that gets fewer
// bytes than used (another reader took some) or an error leaves the
// pipe read plainly from then on, and the buffer empty. The caller
// holds mu and no fill runs.
func (p *stdioPipe) consume(b *stdioReadBuf, all bool) {
	if used := b.r - p.done; used > 0 {
		// The pipe holds what was used unless a reader unseen took some:
		// then the read would wait for the writer with mu held.
		n, err := 0, error(nil)
		if stdioPipeSys.holds(b.f) >= used {
			n, err = b.f.stdioRawRead(b.buf[p.done:b.r])
			b.counted(1, 0, 0) // its bytes came through the copy
		}
		if n != used || err != nil {
			if !b.direct {
				b.plainNow("pipe: another reader took bytes it holds: read plainly from then on")
			}
			b.plainFor()
			all = true
		}
	}
	p.done = b.r
	if all {
		b.r, b.w, p.done = 0, 0, 0
	}
}

// giveBack is a pipe's give-back: the used bytes consumed, the unused
// ones dropped; with last, the pipe is read plainly from then on. While
// a fill runs the buffer is empty and the pipe holds every byte the
// program has not read: only last is recorded, and the fill drops what
// it copied. The caller holds mu.
func (p *stdioPipe) giveBack(b *stdioReadBuf, last bool) {
	if !p.busy {
		p.consume(b, true)
	}
	b.setHeld(b.r < b.w)
	if last {
		b.plainFor()
	}
}

// plainFor makes b's pipe read plainly from now on: its private pipe is
// closed unless a fill is using it (the fill closes it when it ends),
// and the set no longer looks for other readers of it. The caller holds
// mu.
func (b *stdioReadBuf) plainFor() {
	b.direct = true
	p := b.pipe
	if p == nil || p.busy {
		return
	}
	if p.r >= 0 {
		stdioPipeSys.close(p.r)
		stdioPipeSys.close(p.w)
		p.r, p.w = -1, -1
	}
	stdioReads.pipe.CompareAndSwap(b, nil)
}

// stdioReadsIn reports whether a plain Read of f is stdioReadIn's: f is
// the original standard input, under -files, where its pipe can be
// buffered.
func stdioReadsIn(f *File) bool {
	return stdioFilesOn && f != nil && f == stdioOut.in && stdioPipeSys != nil
}

// stdioReadIn is Read's plain read of the original standard input
// (stdioReadsIn) until its read buffer is decided: its plain read holds
// stdioReads.tee, which a fill's tee(2) holds too, and is made only if
// standard input has not become buffered meanwhile,
// since a plain read that consumed bytes a pipe's fill had copied would
// have them read twice. A check before taking the lock would not do:
// another goroutine may decide and fill while this one waits for it.
// retry reports that it did not read: standard input is buffered now,
// and the caller reads through the buffer; so also where it became
// buffered after the caller, with no buffer yet (had false), passed it
// by.
//
// Whether standard input is a pipe is not asked here: that costs an
// fstat, which a program that reads only in blocks of stdioReadSmall
// bytes or more never pays (its Reads decide nothing). The lock costs no
// system call, and is taken on every undecided standard input whatever
// it is: a pipe, a FIFO, a terminal, a regular file until its decision,
// one in the runtime's poller. It is waited on only by other Reads of
// standard input, which plainly wait for os's read lock of the
// descriptor as long (a read parked in the poller holds that lock too),
// and by the first fill; like os's, it lets them go when standard input
// is closed (stdioTeeLock). It is this package's own, not os's read lock
// taken through a call of the system's part (stdioPipeOps), because a
// slice handed to a func value escapes: every Read of a *File would move
// its caller's buffer to the heap.
func stdioReadIn(f *File, p []byte, had bool) (n int, err error, retry bool) {
	switch f.stdioRead.v.Load() {
	case stdioReadFresh, stdioReadOnce, stdioReadPipe:
		if stdioReads.tee.lock() {
			defer stdioReads.tee.unlock()
			if f.stdioRead.v.Load() == stdioReadBuffered {
				return 0, nil, true
			}
		}
	case stdioReadBuffered:
		if !had {
			return 0, nil, true
		}
	}
	n, err = f.stdioRawRead(p)
	return n, err, false
}

// stdioTeeLock is stdioReads.tee: a lock that, as os's read lock of a
// descriptor, stops being waited for once the file is closed. A Read
// that waits for it behind a plain read blocked in read(2) gets the
// closed file's error when the program closes standard input, as
// plainly, instead of waiting for the pipe's writer.
type stdioTeeLock struct {
	mu     sync.Mutex
	free   sync.Cond // signalled when held ends, broadcast when closed is set; its L is mu
	held   bool      // guarded by mu
	closed bool      // the original standard input is closed; guarded by mu
}

func init() { stdioReads.tee.free.L = &stdioReads.tee.mu }

// lock takes l, waiting while another holds it, and reports true; or
// false, holding nothing, once standard input is closed.
func (l *stdioTeeLock) lock() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.held && !l.closed {
		l.free.Wait()
	}
	if l.closed {
		return false
	}
	l.held = true
	return true
}

// unlock lets l go.
func (l *stdioTeeLock) unlock() {
	l.mu.Lock()
	l.held = false
	l.free.Signal()
	l.mu.Unlock()
}

// close lets every waiter go, and every later lock fail: the original
// standard input is closed.
func (l *stdioTeeLock) close() {
	l.mu.Lock()
	l.closed = true
	l.free.Broadcast()
	l.mu.Unlock()
}

// stdioStdinClosed follows a Close of f: if f is the original standard
// input, whatever waits for stdioReads.tee goes on, to the closed file's
// error.
func stdioStdinClosed(f *File) {
	if stdioFilesOn && f != nil && f == stdioOut.in {
		stdioReads.tee.close()
	}
}

// Values of stdioReadState's pipe: whether a *File is on the pipe that
// standard input's read buffer copies from.
const (
	stdioPipeUnknown = iota
	stdioPipeOther
	stdioPipeSame
)

// stdioPipeReader comes before f reads the pipe or hands it on in a way
// the buffer cannot see: a plain Read, a kernel copy (WriteTo), a child
// handed f. If f is another *File on the pipe that standard input's
// read buffer copies from (os.NewFile(0, ...), a file opened as
// /dev/stdin), that buffer is given back and the pipe read plainly from
// then on, so that no byte is read twice. Decided once per *File, with
// an fstat, and only while such a buffer is in use: otherwise it costs
// one atomic load.
func stdioPipeReader(f *File) {
	if stdioFilesOn && f != nil && stdioReads.pipe.Load() != nil {
		stdioPipeReaderOn(f)
	}
}

// stdioPipeReaderOn is stdioPipeReader while standard input's pipe
// buffer is in use.
func stdioPipeReaderOn(f *File) {
	b := stdioReads.pipe.Load()
	if b == nil || f == b.f {
		return
	}
	st := f.stdioNotes.need()
	v := st.pipe.Load()
	if v == stdioPipeUnknown {
		v = stdioPipeOther
		if fi, err := f.stdioRawStat(); err == nil && stdioSameFile(fi, b.info) {
			v = stdioPipeSame
		}
		st.pipe.Store(v)
	}
	if v == stdioPipeSame {
		b.mu.Lock()
		if !b.direct {
			b.plainNow("pipe: another *File of this process reads it: read plainly from then on")
		}
		b.giveBack(true)
		b.mu.Unlock()
	}
}
