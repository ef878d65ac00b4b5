package stream

import (
	"io"
	"runtime"
	"sync/atomic"
)

// aheadRun is one run of read-ahead (readahead.go): the positional reads
// of one stretch of a file, chunk 0 onward, into a ring of buffers, by a
// goroutine and by the Reader. A chunk is a whole buffer, the Reader's
// size: chunk c holds the file's bytes at base + c*size, so a Reader that
// empties its buffer before each fill (Read, ReadByte, Getdelim, the
// copies) takes chunk after chunk as they are, by swapping buffers.
//
// The ring's rules, which every function in this file keeps (N is
// len(slots)):
//
//  1. Chunk c is read, with one ReadAt, into the whole buffer of slot
//     c % N.
//  2. Chunks are claimed one at a time and in order: a claim takes next
//     and moves it on by one. next only grows; stop sets it to
//     runStopped, past every chunk, and no claim succeeds after that.
//  3. A claim of chunk c needs c < cons+N and c < end: the chunks claimed
//     and not yet released lie in [cons, cons+N), so no two of them share
//     a slot.
//  4. Slot c % N belongs to whoever claimed c until that one marks it
//     full; then to the Reader, until it releases it: clears full and
//     moves cons on by one.
//  5. cons only grows, by one at each release, and only the Reader moves
//     it: it is the chunk the Reader takes next.
//  6. end only decreases: a read that fails or comes back short sets it
//     to just past its chunk, so nothing past the end of the file or an
//     error is claimed.
//  7. A read writes only into the slot of the chunk it claimed, and marks
//     it full last: the Reader reads a slot's bytes, n and err only once
//     it is full. After stop, the chunks claimed (stop's result) finish
//     into their slots, and no other read is started.
//  8. At most one goroutine reads ahead for a run: running is set by
//     whoever starts it (kick) and cleared by the goroutine as it ends.
//     The goroutine never waits: it ends as soon as a claim fails, and
//     the Reader starts another as it releases a slot (kick), if
//     aheadKickFree chunks can be claimed.
//  9. The Reader sets waiting before its last look at the slot it waits
//     for, then sleeps on wake; a read that marks a slot full and finds
//     waiting set clears it and sends the one token.
//
// Dropping a run is stop: nothing waits on a channel no one will send
// on, the reads under way finish, and the goroutine ends at its next
// claim, so a Reader dropped mid-file leaks nothing.
type aheadRun struct {
	f     raFile
	base  int64 // the file offset of chunk 0
	size  int   // the length of every buffer in the ring, and of every chunk
	slots []aheadSlot

	next    atomic.Int64 // the first chunk not claimed (rule 2)
	cons    atomic.Int64 // the chunk the Reader takes next (rule 5)
	end     atomic.Int64 // no chunk at or after end is claimed (rule 6)
	running atomic.Bool  // a goroutine reads ahead (rule 8)
	waiting atomic.Bool  // the Reader sleeps on wake (rule 9)
	wake    chan struct{}

	// The Reader's own: the chunks it claimed because it needed them
	// (every other read was made ahead), what Info has been told, and
	// the chunks claimed when the run was stopped.
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
// itself. Past four, getdelim with read-ahead runs no faster and only the
// memory grows (bench/readahead.sh measures read-ahead; the ring sizes
// compared with it are in bench/results). With the Reader's buffer,
// read-ahead holds five: 640 KiB at 128 KiB.
const aheadChunks = 4

// aheadKickFree is how many chunks must be claimable before the Reader
// starts a goroutine (rule 8): each start wakes a thread, so the
// goroutine reads this many back to back for one wakeup, while the chunks
// still in the ring keep the Reader busy. 1 and 4, and a goroutine that
// parks on a full ring instead of ending, did no better (bench/readahead.sh
// measures read-ahead; the variants compared are in bench/results).
const aheadKickFree = 2

// aheadWaitSpins is how many times the Reader yields, waiting for a read
// under way, before it sleeps until a read is done: a yield with nothing
// else to run costs less than a sleeping thread's wakeup, and both less
// than a read of a buffer from the page cache. 0 and 20 did as well (see
// aheadKickFree).
const aheadWaitSpins = 200

// runStopped is where next is set to stop a run: past any chunk a window
// allows.
const runStopped = 1 << 62

// newAheadRun returns a run of chunks read from f at base into buffers
// of size bytes, taking them from pool where their size fits. No
// goroutine yet: the Reader reads chunk 0 itself and starts one (kick)
// when there is more to read.
func newAheadRun(f raFile, base int64, size int, pool [][]byte) *aheadRun {
	run := &aheadRun{
		f: f, base: base,
		size:  size,
		slots: make([]aheadSlot, aheadChunks),
		wake:  make(chan struct{}, 1),
	}
	run.end.Store(runStopped)
	for i := range run.slots {
		if n := len(pool); n > 0 && len(pool[n-1]) == size {
			run.slots[i].buf, pool = pool[n-1], pool[:n-1]
		}
	}
	return run
}

// slot returns the slot of chunk c (rule 1).
func (run *aheadRun) slot(c int64) *aheadSlot {
	return &run.slots[c%int64(len(run.slots))]
}

// claim claims the next chunk, if rules 2, 3 and 6 allow.
func (run *aheadRun) claim() (c int64, ok bool) {
	for {
		c = run.next.Load()
		if c >= run.end.Load() || c >= run.cons.Load()+int64(len(run.slots)) {
			return 0, false
		}
		if run.next.CompareAndSwap(c, c+1) {
			return c, true
		}
	}
}

// claimable returns how many chunks a claim could take now.
func (run *aheadRun) claimable() int64 {
	next := run.next.Load()
	return max(min(run.end.Load(), run.cons.Load()+int64(len(run.slots)))-next, 0)
}

// read reads chunk c, claimed, into its slot, marks it full and wakes
// the Reader if it sleeps (rules 1, 6, 7 and 9). ReadAt reads until the
// chunk is full or fails: a short read is the end of the file (io.EOF)
// or an error, and ends the run; an empty one without an error breaks
// io.ReaderAt's rule and is io.ErrNoProgress, as bufio's answer to a
// reader that keeps returning nothing.
func (run *aheadRun) read(c int64) {
	s := run.slot(c)
	if len(s.buf) != run.size {
		s.buf = make([]byte, run.size)
	}
	p := s.buf
	s.n, s.err = run.f.ReadAt(p, run.base+c*int64(len(p)))
	if s.n < 0 || s.n > len(p) {
		s.n, s.err = 0, errNegativeRead
	}
	if s.n < len(p) {
		if s.n == 0 && s.err == nil {
			s.err = io.ErrNoProgress
		}
		for e := run.end.Load(); c+1 < e && !run.end.CompareAndSwap(e, c+1); e = run.end.Load() {
		}
	}
	s.full.Store(true)
	if run.waiting.Load() && run.waiting.CompareAndSwap(true, false) {
		run.wake <- struct{}{} // the one token: the Reader set waiting after taking the last
	}
}

// ahead is the goroutine that reads ahead: it reads the chunks it can
// claim and ends at the first claim that fails (rule 8).
func (run *aheadRun) ahead() {
	for {
		c, ok := run.claim()
		if !ok {
			run.running.Store(false)
			return
		}
		run.read(c)
	}
}

// kick starts the goroutine if none runs and at least aheadKickFree
// chunks can be claimed.
func (run *aheadRun) kick() {
	if !run.running.Load() && run.claimable() >= aheadKickFree && run.running.CompareAndSwap(false, true) {
		go run.ahead()
	}
}

// await returns the slot of chunk cons once its read is done, and
// whether it had to wait for it. While the read is under way, or not yet
// claimed, the Reader claims and reads chunks itself (the one it needs,
// or later ones) rather than wait; once no claim is possible (rule 3:
// nothing moves the window while it waits), it yields, then sleeps.
func (run *aheadRun) await() (s *aheadSlot, waited bool) {
	c := run.cons.Load()
	s = run.slot(c)
	if s.full.Load() {
		return s, false
	}
	for !s.full.Load() {
		c2, ok := run.claim()
		if !ok {
			break
		}
		if c2 == c {
			run.needed++
		}
		run.read(c2)
	}
	for spins := 0; !s.full.Load(); spins++ {
		if spins < aheadWaitSpins {
			runtime.Gosched()
			continue
		}
		// Sleep, unless the read is done since the last look: then take
		// back the wish to be woken, or the token if the read was quicker.
		run.waiting.Store(true)
		if s.full.Load() {
			if !run.waiting.CompareAndSwap(true, false) {
				<-run.wake
			}
			break
		}
		<-run.wake
	}
	return s, true
}

// release gives chunk cons's slot back (rules 4 and 5) and starts the
// goroutine if the window has room for it.
func (run *aheadRun) release() {
	run.slot(run.cons.Load()).full.Store(false)
	run.cons.Add(1)
	run.kick()
}

// stop ends the run's claims and returns how many chunks were claimed
// (rule 7): those are read, or being read, and no other will be.
func (run *aheadRun) stop() int64 {
	if n := run.next.Load(); n >= runStopped {
		return run.claimed
	}
	run.claimed = run.next.Swap(runStopped)
	return run.claimed
}

// chunks returns how many chunks have been claimed so far.
func (run *aheadRun) chunks() int64 {
	if n := run.next.Load(); n < runStopped {
		return n
	}
	return run.claimed
}

// idleBuffers returns the buffers of a stopped run that no read can
// still write into: a slot whose last chunk claimed is full, or that no
// chunk claimed falls on. held is whether the Reader still holds chunk
// cons's slot, which it gives up with the run.
func (run *aheadRun) idleBuffers(held bool) [][]byte {
	claimed, cons, n := run.claimed, run.cons.Load(), int64(len(run.slots))
	if held {
		cons++
	}
	var idle [][]byte
	for i := range run.slots {
		s := &run.slots[i]
		// The slot's last chunk claimed, if any, is the one in
		// [cons, claimed) that falls on it; unless full, it is in flight.
		j := cons + (int64(i)-cons%n+n)%n
		if (j >= claimed || s.full.Load()) && len(s.buf) == run.size {
			idle = append(idle, s.buf)
		}
	}
	return idle
}
