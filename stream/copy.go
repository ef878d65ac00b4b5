package stream

import (
	"bytes"
	"io"
)

// WriteTo implements io.WriterTo. It writes the buffered bytes, then the
// rest of the input. When the underlying reader is an *os.File and w is an
// *os.File, or a Writer of this package over one, the rest moves in the
// kernel (copy_file_range, sendfile or splice) where the kernel allows; a
// Writer's buffer is flushed first. Otherwise it behaves as bufio: it may
// make multiple calls to the Read method of the underlying reader, and if
// that reader supports WriteTo, or w supports ReadFrom, it calls that.
func (b *Reader) WriteTo(w io.Writer) (n int64, err error) {
	b.lastByte = -1
	b.lastRuneSize = -1

	if b.r < b.w {
		m, err := b.writeBuf(w, b.Buffered())
		n = int64(m)
		if err != nil {
			return n, err
		}
	}

	if m, handled, err := b.kernelCopyTo(w, -1); handled {
		return n + m, err
	}

	if r, ok := b.rd.(io.WriterTo); ok {
		b.s.calls.reads++
		m, err := r.WriteTo(w)
		n += m
		b.s.calls.bytes += m
		return n, err
	}

	if w, ok := w.(io.ReaderFrom); ok {
		b.s.calls.reads++
		m, err := w.ReadFrom(b.rd)
		n += m
		b.s.calls.bytes += m
		return n, err
	}

	if b.buf == nil {
		b.init()
	}
	if b.w-b.r < len(b.buf) {
		b.fill()
	}

	for b.r < b.w {
		m, err := b.writeBuf(w, b.Buffered())
		n += int64(m)
		if err != nil {
			return n, err
		}
		b.fill() // the buffer was just emptied
	}

	if b.err == io.EOF {
		b.err = nil
	}

	return n, b.readErr()
}

// writeBuf writes the next k buffered bytes to w in one Write and
// consumes as many as w took. It is the one step by which WriteTo,
// CopyBytes and CopyRecords hand buffered bytes on.
func (b *Reader) writeBuf(w io.Writer, k int) (int, error) {
	n, err := w.Write(b.buf[b.r : b.r+k])
	if n < 0 {
		panic(errNegativeWrite)
	}
	b.r += n
	return n, err
}

// kernelCopyTo moves up to limit bytes (limit < 0: to the end) from the
// underlying reader to w in the kernel, once the buffer is empty, if
// planCopy finds that it can; if w is a *Writer its buffer is flushed
// first and its underlying writer is the destination. handled is false
// when nothing moved and the caller must copy.
func (b *Reader) kernelCopyTo(w io.Writer, limit int64) (n int64, handled bool, err error) {
	if b.r < b.w {
		return 0, false, nil
	}
	dst := w
	sw, isWriter := w.(*Writer)
	if isWriter {
		dst = sw.wr
	}
	p, ok := planCopy(dst, b.rd, limit)
	if !ok {
		return 0, false, nil
	}
	if isWriter {
		sw.init()
		if err := sw.Flush(); err != nil {
			return 0, true, err
		}
	}
	// The reads are this Reader's calls, the writes those of the Writer
	// (if w is one); each end counts the kernel calls.
	var c counters
	n, handled, err = p.run(&c)
	b.s.calls.reads += c.reads
	b.s.calls.kernel += c.kernel
	if isWriter {
		sw.s.calls.writes += c.writes
		sw.s.calls.kernel += c.kernel
		sw.countKernel(c.kernel)
		if err != nil {
			sw.err = err // sticky, as after Writer.ReadFrom's kernel copy
		}
	}
	return n, handled, err
}

// ReadFrom implements io.ReaderFrom. When the underlying writer is an
// *os.File and r is one (perhaps under *io.LimitedReaders), it flushes the
// buffer and moves the bytes in the kernel where the kernel allows.
// Otherwise it behaves as bufio: if the underlying writer supports
// ReadFrom, this calls it; if there is buffered data, this fills the
// buffer and writes it before. A line-buffered Writer writes out through
// the last newline of each chunk it reads, an unbuffered one each chunk.
func (b *Writer) ReadFrom(r io.Reader) (n int64, err error) {
	b.init()
	if b.err != nil {
		return 0, b.err
	}
	if m, handled, err := b.kernelReadFrom(r); handled {
		return m, err
	}
	if b.buf == nil {
		// An unbuffered writer still needs somewhere to read into.
		b.buf = make([]byte, b.s.info.Size)
	}
	readerFrom, readerFromOK := b.wr.(io.ReaderFrom)
	var m int
	for {
		if b.free() == 0 {
			if err1 := b.Flush(); err1 != nil {
				return n, err1
			}
		}
		if readerFromOK && b.Buffered() == 0 {
			// The whole copy is one call of the caller, and one write.
			b.countWrite()
			b.s.calls.writes++
			nn, err := readerFrom.ReadFrom(r)
			b.err = err
			n += nn
			b.s.calls.bytes += nn
			return n, err
		}
		nr := 0
		for nr < maxConsecutiveEmptyReads {
			m, err = r.Read(b.buf[b.n:])
			if m != 0 || err != nil {
				break
			}
			nr++
		}
		if nr == maxConsecutiveEmptyReads {
			return n, io.ErrNoProgress
		}
		b.n += m
		n += int64(m)
		// Only a chunk read calls shim, which counts it as a call of the
		// caller (countWrite): the read that finds the end is none.
		if m > 0 {
			if sh := b.shim(); sh != nil {
				if err1 := sh.flushRead(m); err1 != nil {
					return n, err1
				}
			}
		}
		if err != nil {
			break
		}
	}
	if err == io.EOF {
		// The end of the input is no error. A buffer the input filled
		// to the brim is written out now rather than at the next write.
		if b.free() == 0 {
			err = b.Flush()
		} else {
			err = nil
		}
	}
	return n, err
}

// kernelReadFrom moves r's bytes to the underlying writer in the kernel
// if planCopy finds that it can, flushing the buffer first, and only then.
// handled is false when nothing moved and the caller must copy; the buffer
// may then have been flushed.
func (b *Writer) kernelReadFrom(r io.Reader) (n int64, handled bool, err error) {
	p, ok := planCopy(b.wr, r, -1)
	if !ok {
		return 0, false, nil
	}
	if err := b.Flush(); err != nil {
		return 0, true, err
	}
	var c counters
	n, handled, err = p.run(&c)
	b.s.calls.writes += c.writes
	b.s.calls.kernel += c.kernel
	b.countKernel(c.kernel)
	if handled && err != nil {
		b.err = err
	}
	return n, handled, err
}

// CopyBytes copies up to n bytes to w: the buffered bytes first, then the
// rest of them, in the kernel where WriteTo would, else through the
// buffer. Reaching the end of the input before
// n bytes is not an error. The input is left just after the last byte
// copied, so Sync can hand the rest of a seekable input to another reader.
func (b *Reader) CopyBytes(w io.Writer, n int64) (written int64, err error) {
	if n < 0 {
		return 0, ErrNegativeCount
	}
	b.lastByte = -1
	b.lastRuneSize = -1
	for written < n {
		if b.r == b.w {
			if m, handled, err := b.kernelCopyTo(w, n-written); handled {
				return written + m, err
			}
			if b.err != nil {
				return written, b.eofIsEnd()
			}
			b.fill()
			continue
		}
		m, err := b.writeBuf(w, int(min(n-written, int64(b.Buffered()))))
		written += int64(m)
		if m == 0 && err == nil {
			err = io.ErrShortWrite // else a writer of (0, nil) is called forever
		}
		if err != nil {
			return written, err
		}
	}
	return written, nil
}

// eofIsEnd returns the pending read error, io.EOF being the normal end.
func (b *Reader) eofIsEnd() error {
	err := b.readErr()
	if err == io.EOF {
		return nil
	}
	return err
}

// CopyRecords copies the next n records, each ending in delim (the last
// may end at the end of the input instead), to w. It does not stop at each
// record: it counts delimiters across the buffer and writes whole runs of
// records straight from it, so one Write carries as many records as the
// buffer holds. It returns the bytes written and the records copied;
// reaching the end of the input before n records is not an error. The
// input is left just after the last byte copied (see Sync).
func (b *Reader) CopyRecords(w io.Writer, delim byte, n int64) (written, records int64, err error) {
	if n < 0 {
		return 0, 0, ErrNegativeCount
	}
	b.lastByte = -1
	b.lastRuneSize = -1
	open := false // a record has been partly written
	for records < n {
		if b.r == b.w {
			if b.err != nil {
				err := b.eofIsEnd()
				if open && err == nil {
					records++ // the final record, without its delimiter
				}
				return written, records, err
			}
			b.fill()
			continue
		}
		chunk := b.buf[b.r:b.w]
		end, found := runEnd(chunk, delim, n-records)
		m, err := b.writeBuf(w, end)
		written += int64(m)
		if m == 0 && err == nil {
			err = io.ErrShortWrite // else a writer of (0, nil) is called forever
		}
		if err != nil {
			return written, records + int64(bytes.Count(chunk[:m], []byte{delim})), err
		}
		if m < end {
			// A short write: count what went out; the rest goes next.
			end, found = m, int64(bytes.Count(chunk[:m], []byte{delim}))
		}
		records += found
		open = chunk[end-1] != delim
	}
	return written, records, nil
}

// runEnd returns how much of chunk holds at most want whole records (up to
// and including the want-th delim), and how many records that is.
func runEnd(chunk []byte, delim byte, want int64) (end int, records int64) {
	// For a few records, finding them one by one reads less of the buffer
	// than counting all of its delimiters first.
	if want > 64 {
		if c := int64(bytes.Count(chunk, []byte{delim})); c < want {
			return len(chunk), c
		}
	}
	for records < want {
		i := bytes.IndexByte(chunk[end:], delim)
		if i < 0 {
			return len(chunk), records
		}
		end += i + 1
		records++
	}
	return end, records
}
