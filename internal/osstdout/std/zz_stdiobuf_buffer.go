//go:build stdiobuf_std

// This file is added to package os by `stdiobuf build -stdout`:
// stdioBuffer, the state of a *File whose writes go through a buffer, and
// the rules by which goroutines share it. Nothing in it depends on which
// file it buffers: the original standard output has one
// (zz_stdiobuf_stdout.go), and under -files so has every regular file
// the program writes (zz_stdiobuf_files.go).
//
// No goroutine waits for a lock whose holder may be blocked in a system
// call on a peer (a full pipe, a terminal stopped with ^S), and a flush
// already under way is as good as one's own:
//   - mu guards memory and is never held across a system call;
//   - the goroutine that writes to the file with the buffer's bytes (a
//     flush), or with a Write the buffer does not simply take, marks the
//     buffer busy and holds wmu, not mu, across its write(2); w is then
//     its alone, and no byte enters the buffer;
//   - a write (Write, a write through another *File on the same file, a
//     flush the program asks for) waits on wmu for the one under way, as
//     in a plain build a Write waits for os.File's own write lock. That
//     keeps causal order: a Write never returns with its bytes queued
//     behind a flush that may never end;
//   - anything else that flushes (Fd, Stat, a child process, the bound, a
//     read of standard input) returns at once while the buffer is busy:
//     everything buffered is part of the write under way, and what a
//     line-buffered write leaves is flushed when it ends (missed).
//     Otherwise it flushes itself; before a read of standard input it
//     hands the flush to the runtime's goroutine instead, so that a
//     reader never waits on a write(2): in a plain build the writer, not
//     the reader, is the one that waits on a full pipe;
//   - exit, Close and the flushes of a dying program wait a bounded time
//     for the write under way (waitIdle), then go on without it, as a
//     plain build's exit does not wait for a writer stuck in write(2);
//   - the runtime's print hook and the fatal-error path never wait for a
//     write their own goroutine has under way (busyG), and take mu only
//     by TryLock for a bounded time, so a print the runtime makes while
//     its goroutine is inside the buffer cannot deadlock.
//
// The bound's clock and timer are the runtime's (its
// zz_stdiobuf_bound.go): the real clock, whatever testing/synctest bubble
// a writer runs in.

package os

import (
	"bufio"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// runtime_stdioBoundStart starts the runtime's goroutine that calls fire
// when an armed deadline passes or runtime_stdioWake asks for it.
// Implemented in runtime.
func runtime_stdioBoundStart(fire func())

// runtime_stdioArm makes fire run at when (runtime_stdioNanotime's clock)
// at the latest. Implemented in runtime.
func runtime_stdioArm(when int64)

// runtime_stdioWake makes fire run soon, on the runtime's goroutine.
// Implemented in runtime.
func runtime_stdioWake()

// runtime_stdioNanotime is the real monotonic clock, in nanoseconds, also
// inside a synctest bubble. Implemented in runtime.
func runtime_stdioNanotime() int64

// runtime_stdioSleep sleeps ns nanoseconds of the real clock.
// Implemented in runtime.
func runtime_stdioSleep(ns int64)

// runtime_stdioG identifies the calling goroutine. Implemented in runtime.
func runtime_stdioG() uintptr

// stdioWriterWrite is w.Write(p) for a buffer's Writer, whose writer is
// its file's original Write (stdioRawFile), which keeps nothing of p:
// so nothing of p outlives the call. Escape analysis cannot see that
// through the Writer's io.Writer, and called as w.Write(p) every Write
// of a buffered *File would move its caller's slice to the heap, where
// the plain build leaves it on the stack, and tests of the standard
// library that count allocations would fail. So it is bufio's
// writeUnkept, declared here without escapes; the signature must stay
// the same as writeUnkept's.
//
//go:noescape
//go:linkname stdioWriterWrite bufio.writeUnkept
func stdioWriterWrite(w *bufio.Writer, p []byte) (int, error)

// stdioWriterSpace returns, where w is fully buffered and does not count
// its writes for the report, w's buffer and the places where w counts the
// bytes it holds and keeps its error, so that a Write that fits goes into
// the buffer with no call (stdioBuffer.write); otherwise a nil buffer.
// It is bufio's writerSpace; the signature must stay the same as
// writerSpace's.
//
//go:linkname stdioWriterSpace bufio.writerSpace
func stdioWriterSpace(w *bufio.Writer) (buf []byte, n *int, err *error)

// stdioBuffer is a buffered file's state: ready once w, which writes to
// the file through raw, is set.
type stdioBuffer struct {
	whole bool          // a write(2) never carries part of one Write (O_APPEND records stay whole); set once
	dirty *atomic.Int32 // counts the buffers that hold bytes, this one among them while pending; nil: not counted; set once
	loose bool          // raw.f is held only while w holds bytes or a write is under way: an empty buffer keeps no file alive; set once
	file  *stdioFileBuf // the file buffer this is, whose changes of pending the file set records (-files); nil for standard output; set once
	held  *atomic.Bool  // mirrors pending where an operation reads it beside the file set's counts (standard output's, -files); nil: not mirrored; set once

	mu  sync.Mutex // guards every field below but pending; never held across a system call
	wmu sync.Mutex // held by the busy goroutine across its write(2); taken under mu only while !busy

	w        *bufio.Writer // the buffer, writing to raw; while busy, the busy goroutine's alone
	raw      stdioRawFile  // the file's original methods; raw.f is set once, or with loose by each write and nil once w is empty and idle
	busy     bool          // a goroutine writes to the file with mu released (a flush, or a Write w does not simply take)
	busyG    uintptr       // that goroutine (runtime_stdioG)
	missed   bool          // a flush found the buffer busy: when it ends, flush what is left
	line     bool          // w is decided and line buffered
	space    []byte        // w's buffer, where a Write that fits its free space goes with no call (stdioWriterSpace), as the last write through w left it; nil before, or where w takes no such Write
	wn       *int          // with space: w's count of the bytes it holds
	werr     *error        // with space: w's error
	direct   bool          // writes go straight to the file: after Close and after the exit flush
	bound    int64         // the longest a byte waits in w, in nanoseconds; 0: no bound (glibc's rule)
	boundSet bool          // bound was read from the environment (by the first busy write)
	since    int64         // when the bytes in w began to wait (runtime_stdioNanotime), while w holds bytes
	armed    bool          // the runtime's timer is set for since+bound, or its fire has not taken mu yet
	urgent   bool          // a flush was handed to the runtime's goroutine
	errSeen  bool          // a Write returned an error to the program: the error is the program's, as plainly
	errOwed  error         // a write error a flush met that only a Close, Sync or asked-for Flush returned, which the program may drop
	errShown bool          // a write error was reported on standard error

	pending atomic.Bool // w holds bytes; written under mu, read without it
}

// lockIdle takes mu once no write is under way, waiting for one as a
// write does, on wmu. It reports false, holding nothing, if the write
// under way is the calling goroutine's own (a runtime print while it is
// in w), or, with spin > 0, if mu stays taken for spin nanoseconds.
func (b *stdioBuffer) lockIdle(spin int64) bool {
	for {
		if spin == 0 {
			b.mu.Lock()
		} else if !b.tryLockFor(spin) {
			return false
		}
		if idle, self := b.idleOrSelf(); idle || self {
			return idle
		}
		b.wmu.Lock()
		b.wmu.Unlock()
	}
}

// idleOrSelf reports, with mu held, whether the buffer is idle; if it is
// not, it releases mu and reports whether the write under way is the
// calling goroutine's own.
func (b *stdioBuffer) idleOrSelf() (idle, self bool) {
	if !b.busy {
		return true, false
	}
	self = b.busyG == runtime_stdioG()
	b.mu.Unlock()
	return false, self
}

// tryLockFor takes mu if it can within about ns nanoseconds, without
// ever waiting on it, and reports whether it did.
func (b *stdioBuffer) tryLockFor(ns int64) bool { return stdioTryLock(&b.mu, ns) }

// stdioTryLock takes mu if it can within about ns nanoseconds, without
// ever waiting on it, and reports whether it did.
func stdioTryLock(mu *sync.Mutex, ns int64) bool {
	deadline := runtime_stdioNanotime() + ns
	for !mu.TryLock() {
		if runtime_stdioNanotime() >= deadline {
			return false
		}
		runtime.Gosched()
	}
	return true
}

// waitIdle takes mu once no write is under way, if that happens within
// about d, and reports whether it did: where waiting for good is not an
// option (exit, Close, a dying program), since the write under way may
// never end. It never waits for a write of the calling goroutine's own.
func (b *stdioBuffer) waitIdle(d time.Duration) bool {
	deadline := runtime_stdioNanotime() + int64(d)
	for {
		if b.mu.TryLock() {
			if idle, self := b.idleOrSelf(); idle || self {
				return idle
			}
		}
		if runtime_stdioNanotime() >= deadline {
			return false
		}
		runtime_stdioSleep(int64(time.Millisecond))
	}
}

// begin marks the buffer busy and releases mu, keeping wmu; the caller
// holds mu and the buffer is idle.
func (b *stdioBuffer) begin() {
	b.busy, b.busyG = true, runtime_stdioG()
	b.wmu.Lock()
	b.mu.Unlock()
}

// end takes mu back and marks the buffer idle. If a flush found it busy
// meanwhile and bytes are left, it hands their flush to the runtime's
// goroutine.
func (b *stdioBuffer) end() {
	b.mu.Lock()
	b.busy, b.busyG = false, 0
	b.wmu.Unlock()
	b.setPending(b.w.Buffered() > 0)
	if b.missed {
		b.missed = false
		if !b.direct && b.w.Buffered() > 0 {
			b.urgent = true
			runtime_stdioWake()
		}
	}
}

// flushOut writes out what w holds, with mu released, and returns the
// error; the caller holds mu, the buffer is idle, and mu is held again on
// return.
func (b *stdioBuffer) flushOut() error {
	before := b.w.Buffered()
	if before == 0 {
		return b.w.Flush() // no system call: an earlier error, if any
	}
	b.begin()
	defer b.end()
	return b.w.Flush()
}

// settle records, after w took added bytes while it held before, whether
// bytes wait and since when, and arms the bound when a wait begins: when
// bytes stay in a buffer that was empty, or that a flush by size emptied
// during the write. Bytes added to a wait already under way change
// nothing, so a fast writer costs the bound one clock read a buffer. The
// caller holds mu and the buffer is idle.
func (b *stdioBuffer) settle(before, added int) {
	after := b.w.Buffered()
	b.setPending(after > 0)
	if after == 0 || before > 0 && after == before+added {
		return
	}
	b.since = runtime_stdioNanotime()
	if b.bound > 0 && !b.armed {
		b.armed = true
		runtime_stdioArm(b.since + b.bound)
	}
}

// due reports whether the bytes waiting in w must go out now: the bound
// has passed, or a flush was handed over. If not, it arms the bound for
// them. The caller holds mu, the buffer is idle and w holds bytes.
func (b *stdioBuffer) due() bool {
	b.armed = false
	if b.urgent {
		b.urgent = false
		return true
	}
	if b.bound == 0 {
		return false
	}
	at := b.since + b.bound
	if runtime_stdioNanotime() >= at {
		return true
	}
	b.armed = true
	runtime_stdioArm(at)
	return false
}

// setPending records whether w holds bytes, in pending and in the count
// of buffers that hold bytes, and with loose lets the file go when w holds
// none and no write is under way. The caller holds mu.
func (b *stdioBuffer) setPending(v bool) {
	if !v && b.loose && !b.busy {
		b.raw.f = nil
	}
	if b.pending.Load() == v {
		return
	}
	b.pending.Store(v)
	if b.held != nil {
		b.held.Store(v)
		if v {
			stdioFiles.masks.Add(1) // standard output's bits join stdioPathMask's
		}
	}
	if b.file != nil {
		stdioFiles.owe(b.file, v)
	}
	if b.dirty == nil {
		return
	}
	if v {
		b.dirty.Add(1)
	} else {
		b.dirty.Add(-1)
	}
}

// write is a Write of f, the buffer's file. A Write that a fully
// buffered w takes into its free space is a copy under mu; any other
// (the first, which decides w, one that fills it, every Write of a line
// buffered or unbuffered w) is writeBusy's.
func (b *stdioBuffer) write(f *File, p []byte) (int, error) {
	// Takes mu at once where no write is under way, the common case,
	// as lockIdle would take it, without the call.
	b.mu.Lock()
	if b.busy {
		b.mu.Unlock()
		if !b.lockIdle(0) {
			return b.rawWrite(f, p)
		}
	}
	if b.direct {
		b.mu.Unlock()
		return f.stdioRawWrite(p)
	}
	b.raw.f = f
	if b.space == nil || *b.werr != nil {
		// Not decided yet, not fully buffered, or w holds an error,
		// which writeBusy's write returns.
		return b.writeBusy(p)
	}
	before := *b.wn
	if len(p) > len(b.space)-before || b.whole && len(p) >= len(b.space) {
		// It does not fit, or it is a whole buffer, which writeWhole
		// sends straight to the file.
		return b.writeBusy(p)
	}
	// What w's Write does with a Write that fits, without the call.
	*b.wn = before + copy(b.space[before:], p)
	if before == 0 {
		b.settle(before, len(p))
	}
	b.mu.Unlock()
	return len(p), nil
}

// writeBusy writes p through w with mu released; the caller holds mu and
// the buffer is idle. The first one also decides w (an fstat) and
// allocates its buffer, and reads the bound, all outside mu.
func (b *stdioBuffer) writeBusy(p []byte) (int, error) {
	if !b.boundSet {
		runtime_stdioStart() // the first Write, before w holds a byte
	}
	before := b.w.Buffered()
	b.begin()
	var n int
	var err error
	if b.whole {
		n, err = b.writeWhole(p)
	} else {
		n, err = stdioWriterWrite(b.w, p)
	}
	first := !b.boundSet
	line := false
	if first {
		// w decided at this Write, and nothing changes its mode.
		line = stdioLineBuffered(b.w)
		b.bound, b.boundSet = int64(stdioBound()), true
		if b.file != nil && b.file.before >= 0 {
			// The file's first Write, made plainly before w was
			// decided, is one of w's for the report (strace sees it).
			stdioWroteAround(b.w, b.file.before)
		}
	}
	b.end()
	if first {
		b.line = line
	}
	b.space, b.wn, b.werr = stdioWriterSpace(b.w)
	if err != nil {
		b.errSeen = true
	}
	b.settle(before, n)
	b.mu.Unlock()
	return n, err
}

// writeWhole is a Write such that no write(2) carries part of p: p goes
// into the buffer if it fits its free space and is smaller than the
// buffer; otherwise what w holds goes out first, then p goes into the
// emptied buffer if it is smaller, else straight to the file, as
// bufio's Writer sends a Write of a buffer or more (a program that
// writes whole blocks makes its plain calls, with no copy). The caller
// is the busy goroutine.
func (b *stdioBuffer) writeWhole(p []byte) (int, error) {
	size := b.w.Size()
	if len(p) < size && len(p) <= b.w.Available() {
		return stdioWriterWrite(b.w, p)
	}
	if err := b.w.Flush(); err != nil {
		return 0, err
	}
	if len(p) < size {
		return stdioWriterWrite(b.w, p)
	}
	return b.rawWrite(b.raw.f, p)
}

// fireDue is the bound's fire for one buffer: it writes out everything
// buffered (a line without its newline too) when the oldest byte has
// waited for the bound or a flush was handed over, otherwise arms the
// bound for the bytes buffered now, and returns the flush's error. While
// the buffer is busy the write under way has those bytes.
func (b *stdioBuffer) fireDue() error {
	b.mu.Lock()
	if b.busy {
		b.missed = true
		b.mu.Unlock()
		return nil
	}
	if b.direct || b.w.Buffered() == 0 || !b.due() {
		b.mu.Unlock()
		return nil
	}
	err := b.flushOut()
	b.mu.Unlock()
	return err
}

// showOnce reports whether a write error that a flush met is to be
// reported on standard error now: no call of the program returned one,
// and none was reported yet. It records that one is.
func (b *stdioBuffer) showOnce() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	show := !b.errSeen && b.errOwed == nil && !b.errShown
	b.errShown = b.errShown || show
	return show
}

// owedOnce returns the write error that only a Close, Sync or asked-for
// Flush returned (errOwed), once, if no Write returned one and none was
// reported; it records that one is. Called only when the program exits
// with status 0: a program that exits so dropped the error, where the
// plain build's Write would have returned it.
func (b *stdioBuffer) owedOnce() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.errOwed == nil || b.errSeen || b.errShown {
		return nil
	}
	b.errShown = true
	return b.errOwed
}

// flushProgram is a flush the program asked for (Sync, a bufio.Writer's
// Flush): a write, which waits for the one under way, and the program
// gets its error.
func (b *stdioBuffer) flushProgram() error {
	if !b.lockIdle(0) {
		return nil
	}
	defer b.mu.Unlock()
	return b.flushSeen()
}

// flushSeen writes out what is buffered, unless the file is written to
// directly, and returns the error, which the program gets but may drop
// (defer f.Close()): it is owed (owedOnce). The caller holds mu and the
// buffer is idle.
func (b *stdioBuffer) flushSeen() error {
	if b.direct {
		return nil
	}
	err := b.flushOut()
	if err != nil && b.errOwed == nil {
		b.errOwed = err
	}
	return err
}

// close flushes before the file is closed, and leaves later writes to go
// straight to the closed file and fail as they do without the buffer. As
// at exit, a writer stuck in write(2) must not make Close wait for good;
// then what it holds is lost. The flush's error is Close's.
func (b *stdioBuffer) close() error {
	if !b.waitIdle(stdioExitWait) {
		return nil
	}
	defer b.mu.Unlock()
	err := b.flushSeen()
	b.direct = true
	return err
}

// finishOut writes out what is buffered and leaves the file unbuffered,
// under one hold of mu, waiting for a write under way no longer than
// wait; it returns the flush's error, which no call of the program
// returns, and whether it could take mu (ok).
func (b *stdioBuffer) finishOut(wait time.Duration) (bool, error) {
	if !b.waitIdle(wait) {
		return false, nil
	}
	var err error
	if !b.direct {
		err = b.flushOut()
	}
	b.direct = true
	b.setPending(false)
	b.mu.Unlock()
	return true, err
}
