package stream

import (
	"io"
	"runtime"
)

// Read-ahead (PolicyReadahead): a fully buffered Reader over a file that
// can be read at an offset reads it in chunks of its buffer's size, into
// a ring of aheadChunks buffers, ahead of its caller: while the caller
// works on one chunk (scans its records and writes them), a goroutine
// reads the next ones (aheadring.go). C's stdio is single-threaded by
// construction; Go has goroutines and nearly always a second core.
//
// The reads are positional (pread(2), File.ReadAt), so reading ahead has
// no effect on the descriptor: its offset is kept where a plain Reader
// leaves it, just after the bytes in buf (pos), by one lseek as bytes
// move in, which also shows whether it moved since (advance). So Sync,
// Reset, the kernel copies and an owner who seeks the file need not wait
// for a read in flight: if the offset moved, what was read ahead is not
// next, the run is dropped and a new one starts from the new offset.
// When the chunk the Reader needs is still being read, it reads a later
// one itself rather than wait.
//
// Read-ahead is only for descriptors where a read ahead cannot be seen
// (positionalFile): a regular file with data that is not made at each
// read, or a block device. A pipe, a socket, a terminal or a character device
// gives each read(2) the next bytes: a read ahead would take input the
// caller never asked for (a Reader dropped after one line would take the
// next line from whoever reads the pipe next), and would carry a
// deadline or a Reset past the moment the caller set it. A file in /proc
// or /sys is made anew at each read: chunks read at different times are
// pieces of different texts.
//
// What it can return that a plain Reader would not: bytes rewritten in
// place (the owner's WriteAt, another process's write) after they were
// read ahead come back as they were, for up to aheadChunks buffers past
// the one the caller is on, where bufio's window is its one buffer.
// After the owner's Close the next read fails with os.ErrClosed, as
// bufio's does (advance's lseek fails and the run is dropped).
//
// The reads go through the *os.File, never a raw descriptor number: a
// read holds the file's internal reference, so the owner's Close cannot
// close the descriptor under it (the close(2) happens when the read
// returns), and a read started after Close returns fails with
// os.ErrClosed. No read can land on a descriptor number that was closed
// and reused.
type readahead struct {
	f    raFile    // the file, read at offsets
	pos  int64     // the file offset just after buf's bytes
	run  *aheadRun // the reads under way; nil when none
	pend pending   // the part of a chunk not yet in buf
	pool [][]byte  // buffers of a run ended, for the next

	calls *counters // the Reader's, for the reads of a run (tell)
}

// pending is the chunk read ahead that the Reader is moving into its
// buffer: slot.buf[lo:hi] is what the buffer has not taken yet, and err
// comes after it. The Reader holds the slot (rule 4 of aheadRun) until
// the buffer has taken the last byte.
type pending struct {
	slot *aheadSlot // nil: nothing pending
	lo   int
	hi   int
	err  error // after the bytes, delivered by the fill that takes the last of them
	last bool  // the chunk ends its run: short or failed
}

// minAheadSize is the smallest buffer PolicyReadahead reads ahead with.
// A read ahead costs a hand-over, which a small read from the page cache
// does not win back: with 4 KiB buffers getdelim --loop is slower with
// read-ahead than without (cmd/headbench --quick on ext4 measures it).
// ReadaheadSize(n) reads ahead whatever n is: the caller asked for it.
const minAheadSize = 32 << 10

// positionalFile reports whether f is a file to read ahead: where a read
// at an offset has no effect and returns what a read(2) there would.
// That is a regular file that is not empty and not on a file system that
// makes its files' contents at each read (generatedFS: proc, sysfs, FUSE,
// ...), or a seekable descriptor of another kind that is neither a pipe,
// a socket, a directory nor a character device (a block device) on which
// a probe pread at the offset succeeds. pos is the file's offset.
func positionalFile(f raFile) (pos int64, ok bool) {
	pos, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0, false
	}
	rc, isFD := rawConn(f)
	if !isFD {
		return 0, false
	}
	var st fileStat
	statted, generated := false, false
	if rc.Control(func(fd uintptr) {
		if statted = fstat(fd, &st); statted && st.kind == kindRegular {
			generated = generatedFS(fd)
		}
	}) != nil || !statted {
		return 0, false
	}
	switch st.kind {
	case kindRegular:
		return pos, st.size > 0 && !generated
	case kindOther:
		// A character device may ignore the offset (/dev/kmsg reads
		// its next record at any): it is kindChar, never probed here.
		var probe [1]byte
		_, err := f.ReadAt(probe[:], pos)
		return pos, err == nil || err == io.EOF
	}
	return 0, false
}

// newRun starts a run at the file's offset, which the owner may have
// moved since the last run ended, with buffers of size bytes.
func (ra *readahead) newRun(size int) {
	if cur, err := ra.f.Seek(0, io.SeekCurrent); err == nil {
		ra.pos = cur
	}
	ra.run = newAheadRun(ra.f, ra.pos, size, ra.pool)
	ra.pool = ra.pool[:0]
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

// take makes the next chunk of the run pending, waiting for its read.
func (ra *readahead) take() {
	run := ra.run
	s, waited := run.await()
	if waited {
		ra.calls.waited++
	} else {
		ra.calls.overlapped++
	}
	ra.pend = pending{slot: s, hi: s.n, err: s.err, last: s.err != nil || s.n < len(s.buf)}
	if s.n > 0 && s.err == io.EOF {
		// ReadAt says io.EOF with the last bytes, where read(2) returns
		// them alone and the end at the next call: as bufio sees it (a
		// full buffer is ErrBufferFull, not the end), the next read
		// finds the end.
		ra.pend.err = nil
	}
}

// release gives the pending chunk's slot back to the run, and ends the
// run if the chunk was its last.
func (ra *readahead) release() {
	last := ra.pend.last
	ra.pend.slot, ra.pend.last = nil, false
	ra.run.release()
	if last {
		ra.endRun()
	}
}

// endRun stops the run and forgets it, and what is left of the pending
// chunk but its error. Buffers that no read can still write into are
// kept for the next run.
func (ra *readahead) endRun() {
	run := ra.run
	if run == nil {
		return
	}
	run.stop()
	ra.tell(run) // the reads claimed since the last take, in flight or done
	ra.pool = append(ra.pool[:0], run.idleBuffers(ra.pend.slot != nil)...)
	ra.run, ra.pend.slot, ra.pend.last = nil, nil, false
}

// drop forgets everything read ahead: the run stops, a read in flight
// finishes into a buffer no longer the Reader's, and its goroutine ends.
func (ra *readahead) drop() {
	ra.endRun()
	ra.pend = pending{}
}

// advance is the check before n bytes read ahead go into the buffer: one
// lseek moves the file's offset over them, where a plain Reader's read
// would have left it, and shows whether it was where the Reader left it
// (pos). If not (Sync, a copy in the kernel, the owner's Seek moved it),
// it is put back and advance reports false: what was read ahead is not
// next; the run is dropped and reading goes on from the new offset, as a
// plain Reader's would. An lseek that fails (the owner closed the file)
// drops the run too, and reports failed: a plain read then returns
// what bufio's would, at once.
func (ra *readahead) advance(n int) (ok, failed bool) {
	got, err := ra.f.Seek(int64(n), io.SeekCurrent)
	if err == nil && got == ra.pos+int64(n) {
		ra.pos = got
		return true, false
	}
	if err == nil {
		ra.pos = got - int64(n)
		ra.f.Seek(ra.pos, io.SeekStart)
	}
	ra.drop()
	return false, err != nil
}

// updateAhead turns read-ahead on or off after a decision: on for a fully
// buffered Reader over a file positionalFile accepts under PolicyReadahead
// with buffers of at least minAheadSize, or under ReadaheadSize, when
// the program may run on more than one CPU (GOMAXPROCS > 1: on one, a
// read ahead only takes turns with the caller and costs more than it
// saves; bench/readahead.sh measures it on 1 CPU). Turned off, what was
// read ahead is dropped, to be read again from the offset, which is just
// after the buffer.
func (b *Reader) updateAhead() {
	f, isFile := raFileOf(b.rd)
	_, sized := b.s.info.Policy.aheadSize()
	on := isFile && b.s.mode == FullyBuffered && runtime.GOMAXPROCS(0) > 1 &&
		(sized || b.s.info.Policy == PolicyReadahead && b.s.info.Size >= minAheadSize)
	switch {
	case on && b.ra == nil:
		if pos, ok := positionalFile(f); ok {
			b.ra = &readahead{f: f, pos: pos, calls: &b.s.calls}
		}
	case !on && b.ra != nil:
		b.ra.drop()
		b.ra = nil
	}
}

// fillAhead is fill for a Reader that reads ahead: as fill, it moves the
// unread tail to the front of the buffer, then takes what read(2) would
// put after it, to the end of the buffer (fewer bytes only at the end of
// the file or before an error, which it leaves in b.err), from the chunks
// read ahead. So every fill leaves Buffered() and the file's offset where
// a plain Reader's leaves them, whatever the caller left in the buffer.
// It reports false when fill must read as a plain Reader: the file can no
// longer seek. The caller guarantees the buffer is not full.
func (b *Reader) fillAhead() bool {
	if b.ra.run != nil && b.ra.run.size != len(b.buf) {
		b.ra.drop() // Setvbuf or SetPolicy changed the size
	}
	if b.r > 0 {
		b.w = copy(b.buf, b.buf[b.r:b.w])
		b.r = 0
	}
	n, ok := b.takeAhead(b.buf[b.w:], b.w == 0)
	b.w += n
	return ok
}

// takeAhead moves into dst the next bytes read ahead, as many as a read(2)
// of len(dst) bytes at the file's offset returns from a regular file: up
// to len(dst), across chunks, and fewer only where a run ends (the end of
// the file, or an error, which it leaves in b.err for the read after the
// bytes). Each piece moves the offset over its bytes first (advance). With
// swap (dst is the whole buffer, empty), a whole chunk is taken by
// swapping the buffer with its slot's instead of a copy; dst is then
// stale and n is the buffer's length or the chunk's. It reports false
// when it moved nothing and the read must be made as a plain Reader's:
// the file can no longer seek.
func (b *Reader) takeAhead(dst []byte, swap bool) (n int, ok bool) {
	ra, p := b.ra, &b.ra.pend
	for n < len(dst) {
		if p.slot == nil {
			if ra.run == nil {
				ra.newRun(len(b.buf))
			}
			ra.take()
		}
		k := min(p.hi-p.lo, len(dst)-n)
		if k == 0 && n > 0 {
			// An empty chunk that ends the run: read(2) returns the
			// bytes before the end or the error, and those at the next.
			return n, true
		}
		if moved, failed := ra.advance(k); failed {
			return n, n > 0
		} else if !moved {
			if n > 0 {
				return n, true
			}
			continue // the offset moved: a new run from there
		}
		if swap && n == 0 && k > 0 && p.lo == 0 && k == p.hi && len(p.slot.buf) == len(b.buf) {
			b.buf, p.slot.buf = p.slot.buf, b.buf
		} else {
			copy(dst[n:], p.slot.buf[p.lo:p.lo+k])
		}
		n += k
		p.lo += k
		if p.lo < p.hi {
			return n, true // dst is full; the rest at the next take
		}
		last := p.last
		ra.release()
		if last {
			b.err, p.err = p.err, nil
			return n, true
		}
	}
	return n, true
}

// readAhead is Read with an empty buffer for a Reader that reads ahead,
// as bufio's Read: a read of less than the buffer fills it and returns
// from it; a read of at least the buffer goes into p, past the buffer,
// which it leaves as it was for UnreadByte and UnreadRune.
func (b *Reader) readAhead(p []byte) (int, error) {
	if len(p) < len(b.buf) {
		if b.fill(); b.r == b.w {
			return 0, b.readErr()
		}
		n := copy(p, b.buf[b.r:b.w])
		b.r += n
		b.lastByte, b.lastRuneSize = int(b.buf[b.r-1]), -1
		return n, nil
	}
	n, ok := b.takeAhead(p, false)
	if !ok {
		n, b.err = b.read(p)
	}
	if n == 0 {
		return 0, b.readErr()
	}
	// An error after the bytes comes at the next read, as from read(2).
	b.lastByte, b.lastRuneSize = int(p[n-1]), -1
	return n, nil
}

// resetAhead is Reset's part: what was read ahead is dropped with the
// buffer, and a read in flight finishes on its own.
func (b *Reader) resetAhead() {
	if b.ra != nil {
		b.ra.drop()
	}
}
