//go:build stdiobuf_std

// This file is added to package os by `stdiobuf build -stdout`; it does
// something only in a build with -files (stdioFilesOn). It is package
// fmt's way into a file's read buffer (zz_stdiobuf_reads.go): a call of
// fmt.Fscan, Fscanln or Fscanf that reads a file with a read buffer holds
// the buffer's mu for the whole call (fmt's zz_stdiobuf_scan.go says
// when) and reads runes through stdioScanRunes, which takes bytes from
// the buffer with no lock of their own. Otherwise fmt reads each byte
// with a Read of one byte: through the buffer, a lock and an unlock, two
// atomic read-modify-writes that are most of a byte's cost, and fmt
// allocates a reader for each call.
//
// A regular file's refill is a read(2), which waits for no peer, made
// with mu held. A pipe's fill (zz_stdiobuf_pipein.go) waits for the
// pipe's writer with mu released and the buffer marked busy: meanwhile
// other Reads and scans of the file wait for the fill, as they would for
// a plain Read, and once it ends, for the scan. Where the pipe is read
// plainly from then on (a child was handed it during the fill), the scan
// lets mu go and reads the rest of its bytes as fmt reads them plainly.

package os

import (
	"errors"
	"io"
	"unicode/utf8"
	_ "unsafe" // for go:linkname
)

// stdioScanRunes reads runes from a read buffer for the fmt scan that
// holds its mu, as fmt's readRune reads them from a plain Reader: a
// byte at a time, a rune that is not valid UTF-8 taken as one byte with
// the rest kept for the next runes, and one rune given back by
// UnreadRune. What it holds (a rune given back, the bytes kept) is
// dropped when the scan ends, as fmt drops its readRune: the file has
// moved past them, as it has in a plain build.
type stdioScanRunes struct {
	b       *stdioReadBuf
	plain   bool              // mu was let go: the bytes are read as fmt reads them plainly
	last    rune              // >= 0: the rune given back, the next ReadRune's; < 0: ^ the last rune read
	kept    int               // bytes in keep, read and not yet part of a rune
	keep    [utf8.UTFMax]byte // the bytes after an invalid rune's first
	scratch [utf8.UTFMax]byte // a multi-byte rune while it is read
}

// stdioScanBegin takes f's read buffer for the calling scan and returns
// the reader, a *stdioScanRunes, through which the scan reads, or nil,
// holding nothing, if f has no read buffer in use. The scan reads
// through the buffer's stdioScanRunes, kept between scans, which only
// the holder of mu touches; a pipe's scan takes it out while it runs,
// since it may let mu go. The caller calls stdioScanEnd with the reader
// when the scan returns.
//
//go:linkname stdioScanBegin
func stdioScanBegin(f *File) io.Reader {
	if !stdioFilesOn || f == nil || f.stdioRead.v.Load() != stdioReadBuffered {
		return nil
	}
	b := f.stdioNotes.get().rbuf
	b.mu.Lock()
	b.waitFill()
	if b.direct {
		b.mu.Unlock()
		return nil
	}
	s := b.runes
	if b.pipe != nil && s != nil {
		// A pipe's scan may let mu go with its reader still in use:
		// the reader is taken out until the scan ends holding mu.
		b.runes = nil
	}
	if s == nil {
		s = new(stdioScanRunes)
	}
	*s = stdioScanRunes{b: b, last: -1}
	return s
}

// stdioScanEnd releases the read buffer that stdioScanBegin took for
// the scan that read through r, and drops what r held.
//
//go:linkname stdioScanEnd
func stdioScanEnd(r io.Reader) {
	s := r.(*stdioScanRunes)
	b, plain := s.b, s.plain
	*s = stdioScanRunes{}
	if !plain {
		b.runes = s
		b.mu.Unlock()
	}
}

// next returns the next byte: a kept one, else the buffer's.
func (s *stdioScanRunes) next() (byte, error) {
	if s.kept > 0 {
		c := s.keep[0]
		copy(s.keep[:], s.keep[1:s.kept])
		s.kept--
		return c, nil
	}
	if s.plain {
		return s.readPlain()
	}
	b := s.b
	if b.r < b.w {
		c := b.buf[b.r]
		b.r++
		b.took()
		return c, nil
	}
	// A one-byte Read as fmt makes it plainly, through io.ReadFull: a
	// read of no bytes and no error is made again.
	var one [1]byte
	n, err, ok := 0, error(nil), true
	for n == 0 && err == nil && ok {
		n, err, ok = b.take(one[:])
		if n == 0 && err == nil && b.direct {
			ok = false // made plain, with nothing buffered
		}
	}
	b.setHeld(b.r < b.w)
	if !ok {
		s.plain = true
		b.mu.Unlock()
		return s.readPlain()
	}
	if n == 0 {
		return 0, err
	}
	return one[0], nil
}

// readPlain reads a byte as fmt's readRune reads it from a plain Reader.
func (s *stdioScanRunes) readPlain() (byte, error) {
	var one [1]byte
	if _, err := io.ReadFull(s.b.f, one[:]); err != nil {
		return 0, err
	}
	return one[0], nil
}

// ReadRune returns the next rune, or the one UnreadRune gave back.
func (s *stdioScanRunes) ReadRune() (r rune, size int, err error) {
	if s.last >= 0 {
		r, s.last = s.last, ^s.last
		return r, utf8.RuneLen(r), nil
	}
	// A one-byte rune that leaves bytes in a regular file's buffer, the
	// common case, needs none of next's steps: nothing is kept, and took
	// has nothing to follow. plain first: without mu, b is not ours.
	if !s.plain && s.kept == 0 {
		if b := s.b; b.pipe == nil && b.r+1 < b.w && b.buf[b.r] < utf8.RuneSelf {
			c := b.buf[b.r]
			b.r++
			s.last = ^rune(c)
			return rune(c), 1, nil
		}
	}
	c, err := s.next()
	if err != nil {
		return 0, 0, err
	}
	if c < utf8.RuneSelf {
		s.last = ^rune(c)
		return rune(c), 1, nil
	}
	p := s.scratch[:1]
	p[0] = c
	for !utf8.FullRune(p) {
		c, err := s.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, 0, err
		}
		p = append(p, c)
	}
	r, size = utf8.DecodeRune(p)
	s.kept += copy(s.keep[s.kept:], p[size:])
	s.last = ^r
	return r, size, nil
}

// Read reads what ReadRune would, as bytes: fmt's scans read runes only,
// but the reader they are handed is an io.Reader.
func (s *stdioScanRunes) Read(p []byte) (n int, err error) {
	for n < len(p) {
		c, err := s.next()
		if err != nil {
			if n == 0 {
				return 0, err
			}
			break
		}
		p[n] = c
		n++
	}
	return n, nil
}

// errScanUnread is fmt's error for an UnreadRune with no rune to give back.
var errScanUnread = errors.New("fmt: scanning called UnreadRune with no rune available")

// UnreadRune gives back the last rune read.
func (s *stdioScanRunes) UnreadRune() error {
	if s.last >= 0 {
		return errScanUnread
	}
	s.last = ^s.last
	return nil
}
