package stream

import (
	"errors"
	"io"
	"sync/atomic"
	"syscall"
)

// Read-ahead (PolicyReadahead): a fully buffered Reader over an *os.File
// keeps one read(2) in flight into a second buffer of the same size while
// its caller works on the first, so the time of the read overlaps the
// caller's own (scanning and writing the records of this buffer). C's
// stdio is single-threaded by construction; Go has goroutines and nearly
// always a second core.
//
// Invariants:
//   - at most one read is in flight, by a goroutine started for that read
//     alone, which sends its one result on a channel of capacity 1 and
//     exits: a Reader dropped mid-file leaks nothing, and nothing waits
//     on a channel that will not be sent to;
//   - each read is claimed once (claim): by its goroutine when it starts,
//     or by the Reader when it needs the bytes before the goroutine has
//     started (no core was free, GOMAXPROCS=1, a busy scheduler); then the
//     Reader makes the read itself, as a plain Reader would, and the
//     goroutine exits without reading or sending, so the caller never
//     waits for a goroutine to be scheduled;
//   - only the goroutine touches spare while a read is in flight; the
//     Reader touches it again only after receiving the result;
//   - the bytes read ahead (spare[lo:hi]) come after every byte of buf and
//     before anything read later, and the error of their read (perr) is
//     delivered only once they have all been moved into buf.
//
// The read goes into spare after a head room: when the caller needs more
// bytes, the unread tail of buf (the start of a record) is copied in front
// of what was read ahead and the two buffers swap, so a refill moves only
// the tail, not the buffer. A tail longer than the head room is joined the
// slow way, by copying what was read ahead behind it.
//
// Over a regular file the reads are positional (pread(2), File.ReadAt)
// and leave the file's offset alone: between calls it is where a plain
// Reader leaves it, just after the bytes in buf, which fillAhead sets with
// an lseek as it moves bytes in. So Sync, Reset, the kernel copies and an
// owner who seeks the file need not wait for a read in flight: fillAhead
// first checks the offset, and if it moved, what was read ahead is not
// next and is dropped. Over a pipe (or a device) the reads are plain
// read(2)s, whose bytes the descriptor's offset is past: those are handed
// on in order, and Sync, Reset and the copies deal with them.
//
// The reads go through the *os.File, never a raw descriptor number: a read
// holds the file's internal reference, so the owner's Close cannot close
// the descriptor under it (the close(2) happens when the read returns),
// and a read started after Close returns fails with os.ErrClosed. No read
// can land on a descriptor number that was closed and reused.
type readahead struct {
	f          raFile
	spare      []byte
	done       chan aheadResult // the result of the read in flight
	inflight   bool
	claim      *atomic.Int32      // who makes the read in flight: claimFree, ...
	read       func() aheadResult // the read in flight, for whoever claims it
	lo, hi     int                // the bytes read ahead and not yet in buf: spare[lo:hi]
	perr       error              // the error of the read that returned spare[lo:hi]
	positional bool               // a regular file: pread at pos, the offset kept at pos
	pos        int64              // positional: the file offset just after buf's bytes
	seekable   bool               // not positional: Sync waits for a read in flight
	stopped    bool               // no longer reading ahead: drain, then drop
}

type aheadResult struct {
	n   int
	err error
}

// The claim on a read ahead.
const (
	claimFree      int32 = iota // not started
	claimGoroutine              // its goroutine makes it
	claimReader                 // the Reader makes it, or dropped it
)

// maxAheadHeadroom is the head room in front of the bytes read ahead: a
// page, so that reads stay page-aligned in the file. It holds the tail of
// any record shorter than 4 KiB. Buffers smaller than 32 KiB keep an
// eighth of their size instead.
const maxAheadHeadroom = 4096

// aheadHeadroom is the head room of a buffer of the given size.
func aheadHeadroom(size int) int { return min(size/8, maxAheadHeadroom) }

// newReadahead returns the read-ahead state of a Reader over f: positional
// over a regular file, else sequential. Whether f can seek is asked once
// (an lseek that moves nothing), so that Sync knows whether to wait for a
// sequential read in flight or leave it be, as on a pipe.
func newReadahead(f raFile) *readahead {
	ra := &readahead{f: f, done: make(chan aheadResult, 1)}
	pos, err := f.Seek(0, io.SeekCurrent)
	ra.seekable = err == nil
	if _, st, _ := statDescriptor(f); st != nil && st.regular && ra.seekable {
		ra.positional, ra.pos = true, pos
	}
	return ra
}

// busy reports whether bytes, or an error, were read ahead and not yet
// handed to the Reader's buffer. A nil readahead is never busy.
func (ra *readahead) busy() bool {
	return ra != nil && (ra.inflight || ra.lo < ra.hi || ra.perr != nil)
}

// pastOffset reports whether the descriptor's offset is past bytes read
// ahead and not yet in the buffer: sequential reads, busy. Only then must
// Sync, Reset and the copies mind them.
func (ra *readahead) pastOffset() bool { return ra.busy() && !ra.positional }

// drop forgets what was read ahead: a read in flight is left to finish
// into the old spare, on the old channel, and its goroutine exits then.
func (ra *readahead) drop() {
	if ra.inflight && !ra.cancel() {
		// Under way: it finishes into the old spare and channel.
		ra.done, ra.spare = make(chan aheadResult, 1), nil
		ra.inflight, ra.read = false, nil
	}
	ra.lo, ra.hi, ra.perr = 0, 0, nil
}

// cancel calls off the read in flight if its goroutine has not started
// it, and reports whether it did: then nothing was read.
func (ra *readahead) cancel() bool {
	if !ra.inflight || !ra.claim.CompareAndSwap(claimFree, claimReader) {
		return false
	}
	ra.inflight, ra.read = false, nil
	return true
}

// checkOffset is the positional check at a fill: if the file's offset is
// not where the Reader left it (Sync, a copy in the kernel, the owner's
// Seek), what was read ahead is not next: it is dropped, and reading goes
// on from the new offset, as a plain Reader's would. An lseek that fails
// (a closed file) changes nothing; the next read reports the error.
func (ra *readahead) checkOffset() {
	if cur, err := ra.f.Seek(0, io.SeekCurrent); err == nil && cur != ra.pos {
		ra.drop()
		ra.pos = cur
	}
}

// moved records that n bytes read ahead went into the buffer: positional
// reads put the file's offset after them, where a plain Reader's read
// would have left it. A failed lseek (a closed file) shows at the next
// read.
func (ra *readahead) moved(n int) {
	if ra.positional && n > 0 {
		ra.pos += int64(n)
		ra.f.Seek(ra.pos, io.SeekStart)
	}
}

// minAheadSize is the smallest buffer PolicyReadahead reads ahead with.
// A read ahead costs a goroutine and a hand-over, a few microseconds, which
// a small read from the page cache does not win back: with 4 KiB buffers
// getdelim --loop took 1.6x the time of a plain Reader here (headbench
// --quick on ext4, a loaded machine). ReadaheadSize(n) reads ahead
// whatever n is: the caller asked for it.
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
// at least minAheadSize, or under ReadaheadSize. Turned off, what was read
// ahead is still handed over, in order, by the next fills.
func (b *Reader) updateAhead() {
	f, isFile := raFileOf(b.rd)
	_, sized := b.s.info.Policy.aheadSize()
	on := isFile && b.s.mode == FullyBuffered &&
		(sized || b.s.info.Policy == PolicyReadahead && b.s.info.Size >= minAheadSize)
	switch {
	case on && b.ra == nil:
		b.ra = newReadahead(f)
	case on:
		b.ra.stopped = false
	case b.ra != nil:
		b.ra.stopped = true
		if !b.ra.busy() {
			b.ra = nil
		}
	}
}

// startAhead begins the next read into spare, allocating it at the size of buf
// if it has none or another size (after Setvbuf or SetPolicy).
func (b *Reader) startAhead() {
	ra := b.ra
	if len(ra.spare) != len(b.buf) {
		ra.spare = make([]byte, len(b.buf))
	}
	b.s.calls.reads++
	b.s.calls.ahead++
	ra.inflight = true
	f, p := ra.f, ra.spare[aheadHeadroom(len(ra.spare)):]
	if ra.positional {
		// ReadAt reads until p is full or fails, io.EOF at the end.
		off := ra.pos
		ra.read = func() aheadResult { n, err := f.ReadAt(p, off); return aheadResult{n, err} }
	} else {
		ra.read = func() aheadResult { n, err := f.Read(p); return aheadResult{n, err} }
	}
	claim, read, done := new(atomic.Int32), ra.read, ra.done
	ra.claim = claim
	go func() {
		if claim.CompareAndSwap(claimFree, claimGoroutine) {
			done <- read()
		}
	}()
}

// collectAhead receives the result of the read in flight, counting whether
// it was already in (the read overlapped the caller's work) or the caller
// had to wait for it, or make it because its goroutine had not started.
func (b *Reader) collectAhead() {
	ra := b.ra
	var res aheadResult
	select {
	case res = <-ra.done:
		b.s.calls.overlapped++
	default:
		b.s.calls.waited++
		if ra.claim.CompareAndSwap(claimFree, claimReader) {
			b.s.calls.ahead-- // not ahead after all
			res = ra.read()
		} else {
			res = <-ra.done
		}
	}
	ra.inflight, ra.read = false, nil
	ra.lo = aheadHeadroom(len(ra.spare))
	ra.hi, ra.perr = ra.lo+res.n, res.err
	if ra.positional && res.n > 0 && res.err == io.EOF {
		// ReadAt says io.EOF with the last bytes, where read(2) returns
		// them alone and the end at the next call: as bufio sees it (a
		// full buffer is ErrBufferFull, not the end), the next read
		// finds the end.
		ra.perr = nil
	}
}

// fillAhead is fill for a Reader that reads ahead: it moves the bytes read
// ahead into the buffer (starting a read and waiting for it if there are
// none) and starts the next read. As fill, it gives up with
// io.ErrNoProgress after maxConsecutiveEmptyReads reads of (0, nil), and
// the caller guarantees the buffer is not full.
func (b *Reader) fillAhead() {
	ra := b.ra
	if ra.positional {
		ra.checkOffset()
	}
	for empties := 0; !ra.busy(); empties++ {
		if ra.stopped {
			// Off and drained: from here on, a plain Reader.
			b.ra = nil
			b.fill()
			return
		}
		if empties == maxConsecutiveEmptyReads {
			b.err = io.ErrNoProgress
			return
		}
		b.startAhead()
		b.collectAhead()
	}
	if ra.inflight {
		b.collectAhead()
	}
	if tail := b.w - b.r; ra.lo < ra.hi && !ra.stopped && len(ra.spare) == len(b.buf) && tail <= ra.lo {
		// The tail goes in front of the bytes read ahead; the buffers swap.
		copy(ra.spare[ra.lo-tail:ra.lo], b.buf[b.r:b.w])
		b.buf, ra.spare = ra.spare, b.buf
		b.r, b.w = ra.lo-tail, ra.hi
		ra.moved(ra.hi - ra.lo)
		ra.lo, ra.hi = 0, 0
		// What was before the tail is not in front of it any more. bufio's
		// fill leaves the tail at 0, where UnreadRune fails, and so does
		// UnreadByte unless nothing is buffered: so here.
		b.lastRuneSize = -1
		if b.w > b.r {
			b.lastByte = -1
		}
	} else {
		if b.r > 0 {
			b.w = copy(b.buf, b.buf[b.r:b.w])
			b.r = 0
		}
		n := copy(b.buf[b.w:], ra.spare[ra.lo:ra.hi])
		b.w += n
		ra.lo += n
		ra.moved(n)
		if ra.lo < ra.hi {
			return // the rest at the next fill, and the error after it
		}
	}
	b.err, ra.perr = ra.perr, nil
	if b.err == nil && !ra.stopped {
		b.startAhead()
	}
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

// writeAhead is WriteTo's part for bytes read ahead sequentially (positional
// ones are read again from the offset, which is just after the buffer): it
// writes them to
// w after the buffer, waiting for the read in flight, and starts no other.
// done reports that WriteTo ends here: at a write error, or at the error
// of a read ahead (io.EOF, the normal end, as nil). Otherwise the file's
// offset is again just after the last byte written, and WriteTo may go on
// with the descriptor.
func (b *Reader) writeAhead(w io.Writer) (n int64, err error, done bool) {
	ra := b.ra
	for ra.busy() {
		if ra.inflight {
			b.collectAhead()
		}
		for ra.lo < ra.hi {
			m, err := w.Write(ra.spare[ra.lo:ra.hi])
			if m < 0 {
				panic(errNegativeWrite)
			}
			ra.lo += m
			n += int64(m)
			if err != nil {
				return n, err, true
			}
			if m == 0 {
				return n, io.ErrShortWrite, true
			}
		}
		if err, ra.perr = ra.perr, nil; err != nil {
			if err == io.EOF {
				err = nil
			}
			return n, err, true
		}
	}
	return n, nil, false
}

// syncAhead is Sync for a Reader with bytes read ahead sequentially (Sync
// of positional ones is a plain Sync: fillAhead sees the offset move). On
// a seekable device it waits for the read in flight and moves the offset
// back over both buffers' unread bytes. On a pipe nothing can be handed back and nothing
// is waited for: everything stays, as glibc's fflush leaves a pipe.
func (b *Reader) syncAhead(s io.Seeker) error {
	ra := b.ra
	if !ra.seekable {
		return nil
	}
	if ra.inflight && !ra.cancel() {
		b.collectAhead()
	}
	unread := b.w - b.r + ra.hi - ra.lo
	if _, err := s.Seek(-int64(unread), io.SeekCurrent); err != nil {
		if errors.Is(err, syscall.ESPIPE) {
			return nil
		}
		return err
	}
	b.r, b.w = 0, 0
	ra.lo, ra.hi = 0, 0
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

// resetAhead is Reset's part: a sequential read in flight on the file that
// r is too is waited for (and its bytes dropped with the buffer), so that
// it cannot take bytes the Reset Reader is to read. A positional one, or
// one on another file, is left to finish on its own; its goroutine exits
// then.
func (b *Reader) resetAhead(r io.Reader) {
	if ra := b.ra; ra != nil && ra.inflight && !ra.positional {
		if f, ok := raFileOf(r); ok && f == ra.f && !ra.cancel() {
			b.collectAhead()
		}
	}
}
