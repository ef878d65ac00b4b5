package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
)

// Printing all but the last N lines or bytes ("-n -N", "-c -N").
//
// As GNU head does, on a regular file larger than its block size the
// tool finds where the output ends from the file's size (bytes) or by
// reading backwards from the end (lines), then copies up to there, so
// memory stays small whatever N is. Anything else (a pipe, a small file,
// /proc) is read to the end while the last N units are held back: memory
// is what N units take, as with head.

// elideBytes prints all but the last count bytes.
func (t *tool) elideBytes(in *input) error {
	n := int64(t.cfg.count) // parseArgs keeps it within int64
	size, pos, useSize, err := t.position(in)
	if err != nil {
		return err
	}
	if useSize {
		if remaining := max(size-pos, 0); remaining > n {
			return t.copyExactly(in, remaining-n)
		}
		return nil
	}
	return t.readHeldBack(in, pos, &byteDelay{n: int(min(n, math.MaxInt))})
}

// elideLines prints all but the last count records.
func (t *tool) elideLines(in *input) error {
	size, pos, useSize, err := t.position(in)
	if err != nil {
		return err
	}
	if useSize {
		if size <= pos {
			return nil
		}
		cut, err := lastRecordsStart(in.f, pos, size, t.cfg.count, t.cfg.delim)
		if errors.Is(err, io.EOF) {
			return in.shrunk()
		}
		if err != nil {
			return in.readError(err)
		}
		if cut > pos {
			return t.copyExactly(in, cut-pos)
		}
		return nil
	}
	if t.cfg.loop {
		ring := recordDelay{n: t.cfg.count}
		return t.readHeldBackRecords(in, pos, &ring)
	}
	return t.readHeldBack(in, pos, &lineDelay{n: t.cfg.count, delim: t.cfg.delim})
}

// position returns what elision needs to know of in: with useSize, in is
// a regular file of size bytes, larger than its block size, at offset
// pos, and the output can be worked out from the size. pos is -1 when in
// cannot be repositioned (a pipe, or ---presume-input-pipe).
func (t *tool) position(in *input) (size, pos int64, useSize bool, err error) {
	st, err := in.f.Stat()
	if err != nil {
		return 0, -1, false, fmt.Errorf("cannot fstat %s: %s", t.cfg.quoting.always(in.name), errorText(err))
	}
	if t.cfg.presumePipe || !st.Mode().IsRegular() {
		return 0, -1, false, nil
	}
	pos, err = in.f.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0, -1, false, fmt.Errorf("%s: cannot seek to relative offset 0: %s", t.cfg.quoting.ifNeeded(in.name), errorText(err))
	}
	pos -= int64(in.r.Buffered())
	// A file no larger than a block may be one whose size means nothing
	// (/proc); head reads those, and so does this tool.
	return st.Size(), pos, st.Size() > blksize(st), nil
}

// readHeldBack reads in to the end through d, which writes out all but
// what it holds back, and, if in is seekable (pos >= 0), leaves its
// offset after the last byte written.
func (t *tool) readHeldBack(in *input, pos int64, d delay) error {
	if t.cfg.count == 0 {
		// Nothing to hold back: an ordinary copy, in the kernel if it can.
		written, err := t.copyBytes(in, math.MaxInt64)
		if err != nil {
			return err
		}
		return t.seekAfterOutput(in, pos, written)
	}
	var written int64
	emit := func(p []byte) error {
		written += int64(len(p))
		return t.out.write(p)
	}
	err := t.eachChunk(in, func(p []byte) error { return d.push(p, emit) })
	if err == nil {
		err = d.finish(emit)
	}
	if err != nil {
		return err
	}
	return t.seekAfterOutput(in, pos, written)
}

// readHeldBackRecords is readHeldBack for --loop: one Getdelim per
// record, each written once the ring holds count newer ones.
func (t *tool) readHeldBackRecords(in *input, pos int64, ring *recordDelay) error {
	if t.cfg.count == 0 {
		written, err := t.loopRecords(in, math.MaxInt64, math.MaxInt64)
		if err != nil {
			return err
		}
		return t.seekAfterOutput(in, pos, written)
	}
	var spare []byte
	for {
		line, rerr := in.r.Getdelim(spare[:0], t.cfg.delim)
		var err error
		if spare, err = ring.push(line, t.out.write); err != nil {
			return err
		}
		if rerr == io.EOF {
			return t.seekAfterOutput(in, pos, ring.written)
		}
		if rerr != nil {
			return in.readError(rerr)
		}
	}
}

// seekAfterOutput moves a seekable input (pos >= 0) that has been read
// to the end, so that its Reader holds nothing, to just after the written
// bytes that were printed from it.
func (t *tool) seekAfterOutput(in *input, pos, written int64) error {
	if pos < 0 {
		return nil
	}
	if _, err := in.f.Seek(pos+written, io.SeekStart); err != nil {
		return fmt.Errorf("%s: cannot seek to offset %d: %s", t.cfg.quoting.ifNeeded(in.name), pos+written, errorText(err))
	}
	return nil
}

// eachChunk hands fn every chunk of in to the end: by default straight
// from the Reader's buffer, with --loop through a Read into a slice.
func (t *tool) eachChunk(in *input, fn func([]byte) error) error {
	var scratch []byte
	if t.cfg.loop {
		scratch = make([]byte, in.r.Size())
	}
	for {
		var p []byte
		var rerr error
		if t.cfg.loop {
			var m int
			m, rerr = in.r.Read(scratch)
			p = scratch[:m]
		} else {
			p, rerr = peekBuffered(in)
		}
		if len(p) > 0 {
			if err := fn(p); err != nil {
				return err
			}
			if !t.cfg.loop {
				in.r.Discard(len(p))
			}
		}
		if rerr == io.EOF {
			return nil
		}
		if rerr != nil {
			return in.readError(rerr)
		}
	}
}

// peekBuffered returns the bytes in in's buffer, filling it first if it
// is empty; the caller discards what it used.
func peekBuffered(in *input) ([]byte, error) {
	if in.r.Buffered() == 0 {
		if _, err := in.r.Peek(1); err != nil {
			return nil, err
		}
	}
	return in.r.Peek(in.r.Buffered())
}

// lastRecordsStart returns the offset in f's bytes [start, size) at which
// the last n records begin, or start if there are no more than n: the
// output of "-n -n" ends there. It reads backwards from the end, a block
// at a time. A final record without a delimiter counts as a record.
func lastRecordsStart(f io.ReaderAt, start, size int64, n uint64, delim byte) (int64, error) {
	if n == 0 {
		return size, nil
	}
	// The last byte ends the last record whether or not it is a
	// delimiter; the n-th delimiter before it ends the part to print.
	buf := make([]byte, min(size-start, 64<<10))
	for end := size - 1; end > start; {
		lo := max(start, end-int64(len(buf)))
		block := buf[:end-lo]
		if _, err := f.ReadAt(block, lo); err != nil {
			return 0, err
		}
		for i := len(block); ; {
			j := bytes.LastIndexByte(block[:i], delim)
			if j < 0 {
				break
			}
			if n--; n == 0 {
				return lo + int64(j) + 1, nil
			}
			i = j
		}
		end = lo
	}
	return start, nil
}
