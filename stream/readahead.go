package stream

import (
	"errors"
	"io"
	"runtime"
	"sync/atomic"
)

// Read-ahead (PolicyReadahead): a fully buffered Reader over an *os.File
// reads the file in chunks of its buffer's size, into a ring of
// aheadChunks buffers, ahead of its caller: while the caller works on one
// chunk (scans its records and writes them), a goroutine reads the next
// ones. C's stdio is single-threaded by construction; Go has goroutines
// and nearly always a second core.
//
// An earlier design started a goroutine per read, into a second buffer:
// on the 230 MB input of the glibc proposal's benchmark on XFS (st_blksize
// 131072), page cache warm, 2 CPUs, `getdelim --loop` took 1.37x as long
// as without read-ahead (bench/readahead.sh, 2026-11-30 16:47 UTC; its
// results are in bench/results/2026-11-30-readahead/ at commit 193b874):
// starting a goroutine and waking a parked thread for it cost about 15 µs
// per 128 KiB buffer, more than the read it hid.
//
// So here the goroutine lives as long as there is a chunk to read (it
// spins on the ring, yielding, for a while before it ends), and over a
// regular file the reads are positional (pread(2), File.ReadAt) at fixed
// offsets, which lets the caller share them: when the chunk it needs is
// still being read, it reads a later one itself rather than wait, so the
// caller never waits for a read it could have made. What stays is the
// hand-over: the caller reads each buffer out of the other core's cache,
// which bench/crosscore measures at about 6 µs per 128 KiB on the machine
// above, against about 19 µs for the read.
//
// A run is the reading of one stretch of the file, chunk 0 onward:
//
//   - chunk c goes into slot c % len(slots), after aheadHeadroom bytes of
//     head room: chunks are claimed in order (next), by the goroutine or
//     the Reader, never more than len(slots) past the chunk the Reader
//     takes next (cons); a slot belongs to whoever claimed its chunk until
//     it is marked full, then to the Reader until it frees it;
//   - a read that fails, or a positional read that comes back short (the
//     end of the file), ends the run: no chunk after it is claimed (end),
//     and the Reader drops what came after it;
//   - over a pipe or a device the reads are plain read(2)s, one at a time
//     (reading), in the order of their chunks;
//   - stopping a run (the next chunk set past any) ends the claims: a
//     read already under way finishes into its slot, and its goroutine
//     ends. That is all dropping a run takes, so a Reader dropped mid-file
//     leaks nothing: at most one read in flight, and nothing waits on a
//     channel that no one will send on.
//
// Over a regular file the file's offset is kept where a plain Reader
// leaves it, just after the bytes in buf (pos), by one lseek as bytes move
// in, which also shows whether it moved since (advance). So Sync, Reset,
// the kernel copies and an owner who seeks the file need not wait for a
// read in flight: if the offset moved, what was read ahead is not next,
// the run is dropped and a new one starts from the new offset.
// Over a pipe the descriptor's offset is past what was read ahead: those
// bytes are handed on in order, and Sync, Reset and WriteTo wait for them.
//
// The reads go through the *os.File, never a raw descriptor number: a
// read holds the file's internal reference, so the owner's Close cannot
// close the descriptor under it (the close(2) happens when the read
// returns), and a read started after Close returns fails with
// os.ErrClosed. No read can land on a descriptor number that was closed
// and reused.
type readahead struct {
	f          raFile
	positional bool  // a regular file: pread at fixed offsets, the offset kept at pos
	seekable   bool  // not positional: Sync waits for what was read ahead and seeks back
	pos        int64 // positional: the file offset just after buf's bytes
	stopped    bool  // no longer reading ahead: drain, then become a plain Reader

	run  *aheadRun
	cur  *aheadSlot // the chunk being moved into buf, or nil
	lo   int        // cur.buf[lo:hi] is what is left of it
	hi   int
	perr error // the error of cur's read, delivered after its bytes
	last bool  // cur ends its run
	pool [][]byte

	calls *counters // the Reader's, for the reads of a run (tell)
}

// aheadRun is one run of reads ahead; see readahead.
type aheadRun struct {
	f          raFile
	positional bool
	base       int64 // positional: the offset of chunk 0
	size       int   // the length of every buffer in the ring
	room       int   // the head room in front of each chunk's bytes
	slots      []aheadSlot

	next    atomic.Int64 // the first chunk not claimed; runStopped and more when stopped
	cons    atomic.Int64 // the chunk the Reader takes next
	end     atomic.Int64 // no chunk at or after end is claimed
	reading atomic.Bool  // sequential: a read is under way
	running atomic.Bool  // a goroutine reads ahead for this run
	waiting atomic.Bool  // the Reader sleeps on wake
	wake    chan struct{}

	// Reader's own: the chunks it claimed because it needed them (every
	// other read was made ahead), what Info has been told, and the chunks
	// claimed when the run was stopped.
	needed               int64
	toldReads, toldEarly int64
	claimed              int64
}

// aheadSlot is one buffer of the ring and the result of its read.
type aheadSlot struct {
	full atomic.Bool
	buf  []byte
	n    int
	err  error
	_    [64]byte // slots are written by two cores: no false sharing
}

// aheadChunks is the number of buffers in the ring: enough for the
// goroutine to run ahead while the caller is slow on a buffer, and for the
// caller, when the one it needs is under way, to have later ones to read
// itself. With a build that took the ring's size from the environment
// (2026-11-30, the 2-CPU Xeon VM, the 230 MB input on XFS, warm; by hand,
// not kept), `getdelim -n` with read-ahead took 35.9, 32.5, 32.0 and 35.9
// ms with 2, 4, 16 and 32 buffers (cat 32.9 ms), and `--loop` 66.1, 65.1,
// 64.9 and 71.7 ms (the C loop 65.0 ms): past four only the memory grows.
// With the Reader's buffer, read-ahead holds five: 640 KiB at 128 KiB.
const aheadChunks = 4

// The spins: how many times the goroutine yields waiting for a slot to
// free before it ends (the Reader starts another when one frees), and the
// Reader yields waiting for a read under way before it sleeps until the
// read is done. A yield with nothing else to run costs well under a
// microsecond; a goroutine's start or a sleeping thread's wakeup costs
// several, and a read of 128 KiB from the page cache about 19 µs here.
const (
	aheadIdleSpins = 200
	aheadWaitSpins = 200
)

// runStopped is where next is set to stop a run: past any chunk a window
// allows.
const runStopped = 1 << 62

// maxAheadHeadroom is the head room in front of the bytes read ahead: a
// page, so that reads stay page-aligned in the file. It holds the tail of
// any record shorter than 4 KiB. Buffers smaller than 32 KiB keep an
// eighth of their size instead.
const maxAheadHeadroom = 4096

// aheadHeadroom is the head room of a buffer of the given size.
func aheadHeadroom(size int) int { return min(size/8, maxAheadHeadroom) }

// newReadahead returns the read-ahead state of a Reader over f: positional
// over a regular file, else sequential. Whether f can seek is asked once
// (an lseek that moves nothing), so that Sync knows whether to hand back
// what a sequential read took, or leave it be, as on a pipe.
func newReadahead(f raFile) *readahead {
	ra := &readahead{f: f}
	pos, err := f.Seek(0, io.SeekCurrent)
	ra.seekable = err == nil
	var st fileStat
	if _, ok, _ := statDescriptor(f, &st); ok && st.regular && ra.seekable {
		ra.positional, ra.pos = true, pos
	}
	return ra
}

// busy reports whether a run is on, or bytes or an error read ahead are
// not yet in the Reader's buffer. A nil readahead is never busy.
func (ra *readahead) busy() bool {
	return ra != nil && (ra.run != nil || ra.cur != nil || ra.perr != nil)
}

// pastOffset reports whether the descriptor's offset may be past bytes
// read ahead and not yet in the buffer: sequential reads, busy. Only then
// must Sync, Reset and the copies mind them.
func (ra *readahead) pastOffset() bool { return ra.busy() && !ra.positional }

// newRun starts a run at pos (positional) or wherever the descriptor is,
// with buffers of size bytes. No goroutine yet: the Reader reads chunk 0
// itself, and starts one only if there is more to read.
func (ra *readahead) newRun(size int) *aheadRun {
	run := &aheadRun{
		f: ra.f, positional: ra.positional,
		size: size, room: aheadHeadroom(size),
		slots: make([]aheadSlot, aheadChunks),
		wake:  make(chan struct{}, 1),
	}
	run.end.Store(runStopped)
	if ra.positional {
		run.base = ra.offset()
	}
	for i := range run.slots {
		if n := len(ra.pool); n > 0 && len(ra.pool[n-1]) == size {
			run.slots[i].buf, ra.pool = ra.pool[n-1], ra.pool[:n-1]
		}
	}
	ra.pool = ra.pool[:0]
	ra.run = run
	return run
}

// stop ends the run's claims and returns how many chunks were claimed:
// those are read, or being read, and no other will be.
func (run *aheadRun) stop() int64 {
	if n := run.next.Load(); n >= runStopped {
		return run.claimed
	}
	run.claimed = run.next.Swap(runStopped)
	return run.claimed
}

// over reports whether a stopped run has nothing more for the Reader.
func (run *aheadRun) over() bool {
	return run.next.Load() >= runStopped && run.cons.Load() >= run.claimed
}

// claim claims the next chunk for the caller to read, if the window and
// the run allow: sequentially only if no read is under way. need is the
// chunk the caller needs (-1: none, it reads ahead); with only, it claims
// no other: on a pipe a read of a later chunk could block while the
// needed one, just read, waits in its slot. final reports that no chunk
// will ever be claimed again (the run stopped or ended).
func (run *aheadRun) claim(need int64, only bool) (c int64, ok, final bool) {
	if !run.positional && !run.reading.CompareAndSwap(false, true) {
		return 0, false, false
	}
	for {
		c = run.next.Load()
		if c >= run.end.Load() || c >= runStopped {
			break
		}
		if c >= run.cons.Load()+int64(len(run.slots)) || only && c != need {
			if !run.positional {
				run.reading.Store(false)
			}
			return 0, false, false
		}
		if run.next.CompareAndSwap(c, c+1) {
			return c, true, false
		}
	}
	if !run.positional {
		run.reading.Store(false)
	}
	return 0, false, true
}

// read reads chunk c, claimed, into its slot, and marks it full.
func (run *aheadRun) read(c int64) {
	s := &run.slots[c%int64(len(run.slots))]
	if len(s.buf) != run.size {
		s.buf = make([]byte, run.size)
	}
	p := s.buf[run.room:]
	if run.positional {
		// ReadAt reads until p is full or fails, io.EOF at the end.
		s.n, s.err = run.f.ReadAt(p, run.base+c*int64(len(p)))
	} else {
		s.n, s.err = run.f.Read(p)
	}
	if s.n < 0 || s.n > len(p) {
		s.n, s.err = 0, errNegativeRead
	}
	if s.err != nil || run.positional && s.n < len(p) {
		for e := run.end.Load(); c+1 < e && !run.end.CompareAndSwap(e, c+1); e = run.end.Load() {
		}
	}
	s.full.Store(true)
	if !run.positional {
		run.reading.Store(false)
	}
	run.wakeReader()
}

// wakeReader wakes the Reader if it sleeps: a read is done, or the
// goroutine ends (it may have held reading when the Reader last tried to
// claim). A wake that finds nothing new only makes the Reader look again.
func (run *aheadRun) wakeReader() {
	if run.waiting.Load() && run.waiting.CompareAndSwap(true, false) {
		run.wake <- struct{}{} // the one token: the Reader set waiting after taking the last
	}
}

// ahead is the goroutine that reads ahead: it reads the chunks it can
// claim, yields a while when the window is full, and ends when it stays
// full, or the run is over. The Reader starts another when it frees a
// slot and none runs.
func (run *aheadRun) ahead() {
	for {
		c, ok, final := run.claim(-1, false)
		for spins := 0; !ok && !final && spins < aheadIdleSpins; spins++ {
			runtime.Gosched()
			c, ok, final = run.claim(-1, false)
		}
		if !ok {
			run.running.Store(false)
			// The Reader may have freed a slot after the last claim and
			// seen this goroutine running: look once more.
			if c, ok, _ = run.claim(-1, false); !ok {
				run.wakeReader()
				return
			}
			if !run.running.CompareAndSwap(false, true) {
				run.read(c) // another goroutine has started
				return
			}
		}
		run.read(c)
	}
}

// kick starts the goroutine if none runs and the run is not stopped.
func (run *aheadRun) kick() {
	if !run.running.Load() && run.next.Load() < runStopped && run.running.CompareAndSwap(false, true) {
		go run.ahead()
	}
}

// awaitChunk returns the slot of the chunk the Reader takes next, once
// its read is done. While it is under way the Reader reads later chunks
// itself (over a regular file; over a pipe only the one it needs), then
// yields, then sleeps until a read is done.
func (b *Reader) awaitChunk(run *aheadRun) *aheadSlot {
	c := run.cons.Load()
	s := &run.slots[c%int64(len(run.slots))]
	if s.full.Load() {
		b.s.calls.overlapped++
		return s
	}
	b.s.calls.waited++
	only := !run.positional
	for spins := 0; !s.full.Load(); {
		if c2, ok, _ := run.claim(c, only); ok {
			run.readFor(c2, c)
			continue
		}
		if spins < aheadWaitSpins {
			spins++
			runtime.Gosched()
			continue
		}
		// Sleep, unless the read is done or a claim has become possible
		// since the last look: then take back the wish to be woken, or
		// the token if a read was quicker.
		run.waiting.Store(true)
		c2, ok, _ := run.claim(c, only)
		if ok || s.full.Load() {
			if !run.waiting.CompareAndSwap(true, false) {
				<-run.wake
			}
			if ok {
				run.readFor(c2, c)
			}
			continue
		}
		<-run.wake
	}
	return s
}

// chunks returns how many chunks have been claimed so far.
func (run *aheadRun) chunks() int64 {
	if n := run.next.Load(); n < runStopped {
		return n
	}
	return run.claimed
}

// readFor is the Reader's read of chunk c, claimed while it waited for
// chunk need: counted as needed if it is that chunk, else as made ahead.
func (run *aheadRun) readFor(c, need int64) {
	if c == need {
		run.needed++
	}
	run.read(c)
}

// tell adds the run's reads to Info's counts, when Info asks and when the
// run ends (not at every buffer: nothing else reads them): every chunk
// claimed is a read (made, under way, or about to be), and all but those
// the Reader claimed because it needed them were made ahead.
func (ra *readahead) tell(run *aheadRun) {
	reads := run.chunks()
	early := reads - run.needed
	ra.calls.reads += reads - run.toldReads
	ra.calls.ahead += early - run.toldEarly
	run.toldReads, run.toldEarly = reads, early
}

// take makes the next chunk of the run cur, waiting for its read. It
// reports false when the run has nothing more: it was stopped and is
// drained. Empty reads (0, nil) are skipped, and given up on after
// maxConsecutiveEmptyReads with io.ErrNoProgress, as fill does.
func (b *Reader) take() bool {
	ra := b.ra
	for empties := 0; ; empties++ {
		run := ra.run
		if run.over() {
			ra.endRun()
			return false
		}
		s := b.awaitChunk(run)
		ra.cur, ra.lo, ra.hi, ra.perr = s, run.room, run.room+s.n, s.err
		ra.last = s.err != nil || run.positional && s.n < len(s.buf)-run.room
		if run.positional && s.n > 0 && s.err == io.EOF {
			// ReadAt says io.EOF with the last bytes, where read(2)
			// returns them alone and the end at the next call: as
			// bufio sees it (a full buffer is ErrBufferFull, not the
			// end), the next read finds the end.
			ra.perr = nil
		}
		if !ra.last {
			run.kick()
		}
		if s.n > 0 || s.err != nil {
			return true
		}
		ra.release()
		if empties+1 == maxConsecutiveEmptyReads {
			ra.perr = io.ErrNoProgress
			return true
		}
	}
}

// release gives cur's slot back to the run: the window moves on by one.
// (Bytes Sync could not hand back are a cur of no run.)
func (ra *readahead) release() {
	run := ra.run
	ra.cur.full.Store(false)
	ra.cur = nil
	if run == nil {
		return
	}
	run.cons.Add(1)
	if !ra.last {
		run.kick()
	}
}

// endRun stops the run and forgets it, and what is left of cur. Buffers
// that no read can still write into are kept for the next run.
func (ra *readahead) endRun() {
	run := ra.run
	if run == nil {
		return
	}
	claimed := run.stop()
	ra.tell(run) // the reads claimed since the last take, in flight or done
	cons := run.cons.Load()
	if ra.cur != nil {
		cons++ // cur's slot is the Reader's
	}
	for i := range run.slots {
		s := &run.slots[i]
		// The slot's last chunk claimed, if any, is the one in
		// [cons, claimed) that falls on it; unless full, it is in flight.
		j := cons + (int64(i)-cons%int64(len(run.slots))+int64(len(run.slots)))%int64(len(run.slots))
		if (j >= claimed || s.full.Load()) && len(s.buf) == run.size {
			ra.pool = append(ra.pool, s.buf)
		}
	}
	ra.run, ra.cur, ra.lo, ra.hi, ra.last = nil, nil, 0, 0, false
}

// drop forgets what was read ahead: the run stops, a read in flight
// finishes into a buffer no longer the Reader's, and its goroutine ends.
func (ra *readahead) drop() {
	ra.endRun()
	ra.perr = nil
}

// advance is the positional check before n bytes read ahead go into the
// buffer: one lseek moves the file's offset over them, where a plain
// Reader's read would have left it, and shows whether it was where the
// Reader left it (pos). If not (Sync, a copy in the kernel, the owner's
// Seek moved it), it is put back and advance reports false: what was read
// ahead is not next; the run is dropped and reading goes on from the new
// offset, as a plain Reader's would. An lseek that fails (a closed file)
// changes nothing; the next read reports the error.
func (ra *readahead) advance(n int) bool {
	got, err := ra.f.Seek(int64(n), io.SeekCurrent)
	if err != nil || got == ra.pos+int64(n) {
		ra.pos += int64(n)
		return true
	}
	ra.pos = got - int64(n)
	ra.f.Seek(ra.pos, io.SeekStart)
	ra.drop()
	return false
}

// offset is where a new positional run starts: the file's offset, which
// the owner may have moved since the last run ended.
func (ra *readahead) offset() int64 {
	if cur, err := ra.f.Seek(0, io.SeekCurrent); err == nil {
		ra.pos = cur
	}
	return ra.pos
}

// minAheadSize is the smallest buffer PolicyReadahead reads ahead with.
// A read ahead costs a hand-over, which a small read from the page cache
// does not win back: with 4 KiB buffers getdelim --loop took 1.6x the time
// of a plain Reader here (headbench --quick on ext4, a loaded machine).
// ReadaheadSize(n) reads ahead whatever n is: the caller asked for it.
const minAheadSize = 32 << 10

// aheadSized is ReadaheadSize(1); ReadaheadSize(n) is aheadSized-n+1.
// Policy is an int, 32 bits on some platforms, and sizes go up to 1 GiB:
// the range lies far below the named policies, so that small negative
// values stay invalid, and above math.MinInt32+2.
const aheadSized Policy = -maxBufferSize + 2

// ReadaheadSize returns the policy of read-ahead (PolicyReadahead) with
// buffers of size bytes, what ParsePolicy reads as "readahead:SIZE". A
// size outside 1 to 1 GiB gives an invalid Policy, which SetPolicy and
// NewReaderPolicy refuse.
func ReadaheadSize(size int) Policy {
	if size <= 0 || size > maxBufferSize {
		return aheadSized - maxBufferSize - 1
	}
	return aheadSized - Policy(size) + 1
}

// aheadSize returns the size of a ReadaheadSize policy, or false.
func (p Policy) aheadSize() (int, bool) {
	if p <= aheadSized && p > aheadSized-maxBufferSize {
		return int(aheadSized - p + 1), true
	}
	return 0, false
}

// readsAhead reports whether p is read-ahead, with or without a size.
func (p Policy) readsAhead() bool {
	_, sized := p.aheadSize()
	return p == PolicyReadahead || sized
}

// updateAhead turns read-ahead on or off after a decision: on for a fully
// buffered Reader over an *os.File under PolicyReadahead with buffers of
// at least minAheadSize, or under ReadaheadSize, when the program may run
// on more than one CPU (GOMAXPROCS > 1: on one, a read ahead only takes
// turns with the caller, measured 1.03x slower at commit 193b874).
// Turned off, what was read ahead over a pipe is still handed over, in
// order, by the next fills; over a regular file it is dropped, to be read
// again from the offset, which is just after the buffer.
func (b *Reader) updateAhead() {
	f, isFile := raFileOf(b.rd)
	_, sized := b.s.info.Policy.aheadSize()
	on := isFile && b.s.mode == FullyBuffered && runtime.GOMAXPROCS(0) > 1 &&
		(sized || b.s.info.Policy == PolicyReadahead && b.s.info.Size >= minAheadSize)
	switch ra := b.ra; {
	case on && ra == nil:
		b.ra = newReadahead(f)
		b.ra.calls = &b.s.calls
	case on:
		ra.stopped = false
	case ra != nil:
		ra.stopped = true
		if ra.positional {
			ra.drop()
		} else if ra.run != nil {
			ra.run.stop()
		}
		if !ra.busy() {
			b.ra = nil
		}
	}
}

// fillAhead is fill for a Reader that reads ahead: it moves the bytes of
// the next chunk into the buffer, waiting for its read if need be, and
// reports false when fill must read as a plain Reader (read-ahead was
// turned off and everything read ahead is handed over). The caller
// guarantees the buffer is not full.
func (b *Reader) fillAhead() bool {
	ra := b.ra
	if run := ra.run; run != nil && run.size != len(b.buf) {
		// Setvbuf or SetPolicy changed the size: the run ends. Over a
		// pipe its chunks still come first.
		if ra.positional {
			ra.drop()
		} else {
			run.stop()
		}
	}
	for {
		for ra.cur == nil && ra.perr == nil {
			if ra.run == nil {
				if ra.stopped {
					b.ra = nil
					return false
				}
				ra.newRun(len(b.buf))
			}
			b.take()
		}
		if ra.cur == nil {
			break
		}
		s, tail, n := ra.cur, b.w-b.r, ra.hi-ra.lo
		// Swapping for no bytes would lose what UnreadByte and
		// UnreadRune may still give back.
		swap := n > 0 && ra.run != nil && ra.lo == ra.run.room && tail <= ra.lo && len(s.buf) == len(b.buf)
		if !swap {
			n = min(n, len(b.buf)-tail)
		}
		if ra.positional && !ra.advance(n) {
			continue // the offset moved: a new run from there
		}
		if swap {
			// The tail goes in front of the chunk; the buffers swap.
			copy(s.buf[ra.lo-tail:ra.lo], b.buf[b.r:b.w])
			b.buf, s.buf = s.buf, b.buf
			b.r, b.w = ra.lo-tail, ra.hi
			ra.lo = ra.hi
			// What was before the tail is not in front of it any more.
			// bufio's fill leaves the tail at 0, where UnreadRune fails,
			// and so does UnreadByte unless nothing is buffered: so here.
			b.lastRuneSize = -1
			if b.w > b.r {
				b.lastByte = -1
			}
		} else {
			if b.r > 0 {
				b.w = copy(b.buf, b.buf[b.r:b.w])
				b.r = 0
			}
			copy(b.buf[b.w:], s.buf[ra.lo:ra.lo+n])
			b.w += n
			ra.lo += n
		}
		if ra.lo < ra.hi {
			return true // the rest at the next fill, and the error after it
		}
		ra.release()
		if ra.last {
			ra.endRun()
		}
		break
	}
	b.err, ra.perr = ra.perr, nil
	if b.err != nil && ra.run != nil {
		ra.endRun() // io.ErrNoProgress
	}
	return true
}

// readAhead is Read with an empty buffer for a Reader that reads ahead:
// what was read ahead comes first, through the buffer. If nothing came,
// the buffer is left as bufio's direct read into p leaves it, for
// UnreadByte and UnreadRune.
func (b *Reader) readAhead(p []byte) (int, error) {
	r := b.r
	if b.fill(); b.r == b.w {
		if len(p) >= len(b.buf) {
			b.r, b.w = r, r
		}
		return 0, b.readErr()
	}
	n := copy(p, b.buf[b.r:b.w])
	b.r += n
	b.lastByte, b.lastRuneSize = int(b.buf[b.r-1]), -1
	return n, nil
}

// drain stops a sequential run and calls each for what is left of what it
// read ahead, in order: the rest of cur, then each chunk claimed, waiting
// for its read. each returns how much of p it took, and whether to go on;
// where it took less than all or says stop, drain stops, and the rest
// stays for the next fills. It leaves in ra.perr the error after the bytes
// each took.
func (b *Reader) drain(each func(p []byte) (int, bool)) {
	ra := b.ra
	if ra.run != nil {
		ra.run.stop()
	}
	for {
		if ra.cur != nil {
			p := ra.cur.buf[ra.lo:ra.hi]
			m, more := 0, true
			if len(p) > 0 {
				m, more = each(p)
			}
			if ra.lo += m; m < len(p) {
				return
			}
			ra.release()
			if !more {
				return
			}
		}
		if ra.perr != nil || ra.run == nil || !b.take() {
			ra.endRun()
			return
		}
	}
}

// writeAhead is WriteTo's part for bytes read ahead sequentially
// (positional ones are read again from the offset, which is just after
// the buffer): it writes them to w after the buffer, waiting for the
// reads under way, and starts no other. done reports that WriteTo ends
// here: at a write error (what was not written stays for the next
// reads), or at the error of a read ahead (io.EOF, the normal end, as
// nil). Otherwise the file's offset is again just after the last byte
// written, and WriteTo may go on with the descriptor.
func (b *Reader) writeAhead(w io.Writer) (n int64, err error, done bool) {
	ra := b.ra
	b.drain(func(p []byte) (int, bool) {
		m, werr := writeAll(w, p)
		n += int64(m)
		err = werr
		return m, err == nil // a failed write may have taken all of p
	})
	if err != nil {
		return n, err, true
	}
	if err, ra.perr = ra.perr, nil; err != nil {
		if err == io.EOF {
			err = nil
		}
		return n, err, true
	}
	if ra.stopped {
		b.ra = nil
	}
	return n, nil, false
}

// writeAll writes p to w until all is written or a write fails: a short
// write without an error breaks io.Writer's rule, and bufio's WriteTo
// writes the rest, so here too; a write of nothing is io.ErrShortWrite.
func writeAll(w io.Writer, p []byte) (n int, err error) {
	for n < len(p) {
		m, werr := w.Write(p[n:])
		if m < 0 {
			panic(errNegativeWrite)
		}
		n += m
		if werr != nil {
			return n, werr
		}
		if m == 0 {
			return n, io.ErrShortWrite
		}
	}
	return n, nil
}

// syncAhead is Sync for a Reader with bytes read ahead sequentially (Sync
// of positional ones is a plain Sync: fillAhead sees the offset move). On
// a seekable device it waits for the reads under way and moves the offset
// back over every unread byte, the buffer's and the chunks'. On a pipe
// nothing can be handed back and nothing is waited for: everything stays,
// as glibc's fflush leaves a pipe.
func (b *Reader) syncAhead(s io.Seeker) error {
	ra := b.ra
	if !ra.seekable {
		return nil
	}
	unread := int64(b.w - b.r)
	var held []byte
	b.drain(func(p []byte) (int, bool) {
		unread += int64(len(p))
		held = append(held, p...)
		return len(p), true
	})
	if _, err := s.Seek(-unread, io.SeekCurrent); err != nil {
		// Nothing handed back: the bytes read ahead stay next, after
		// the buffer, and the error after them.
		if len(held) > 0 {
			ra.cur, ra.lo, ra.hi = &aheadSlot{buf: held}, 0, len(held)
			ra.cur.full.Store(true)
		}
		if errors.Is(err, errSeekPipe) {
			return nil
		}
		return err
	}
	b.r, b.w = 0, 0
	// An error after the bytes handed back stays for the next read, as
	// Sync keeps a pending read error; io.EOF goes, since the bytes will
	// be read again before the end.
	if ra.perr != io.EOF && b.err == nil {
		b.err = ra.perr
	}
	ra.perr = nil
	if b.err == io.EOF {
		b.err = nil
	}
	if ra.stopped {
		b.ra = nil
	}
	return nil
}

// resetAhead is Reset's part: a sequential run on the file that r is too
// is stopped and waited for (its bytes dropped with the buffer), so that
// no read of it takes bytes the Reset Reader is to read. Any other run is
// stopped and left to finish its read in flight on its own.
func (b *Reader) resetAhead(r io.Reader) {
	ra := b.ra
	if ra == nil || ra.run == nil {
		return
	}
	if f, ok := raFileOf(r); ok && f == ra.f && !ra.positional {
		b.drain(func(p []byte) (int, bool) { return len(p), true })
		return
	}
	ra.drop()
}
