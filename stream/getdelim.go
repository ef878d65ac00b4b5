package stream

import "bytes"

// getdelimMin is the size glibc's getdelim gives a line buffer that has
// none: 120 bytes.
const getdelimMin = 120

// Getdelim appends the next record, delimiter included, to line and
// returns the extended slice, as glibc's getdelim(3) fills its buffer: a
// loop that passes line[:0] back in allocates only when a longer record
// comes, and then grows the slice to max(needed, 2*cap(line)) (at least
// 120 bytes). If the input ends before a delimiter it returns what it read
// and the error (io.EOF at the end), as ReadBytes does: err != nil if and
// only if the returned record does not end in delim. At the end of the
// input it returns line unchanged and io.EOF.
//
// A record is not limited by the buffer size: a record of n bytes without
// a delimiter makes line grow to hold all n bytes (up to twice that while
// it grows), so an input of gigabytes with no delimiter takes gigabytes of
// memory, as with glibc.
func (b *Reader) Getdelim(line []byte, delim byte) ([]byte, error) {
	for {
		if i := bytes.IndexByte(b.buf[b.r:b.w], delim); i >= 0 {
			line = appendRecord(line, b.buf[b.r:b.r+i+1])
			b.r += i + 1
			b.lastByte, b.lastRuneSize = int(delim), -1
			return line, nil
		}
		// No delimiter: take everything buffered and refill the empty
		// buffer, as glibc's getdelim does. Unlike ReadSlice this neither
		// slides a partial record to the front nor reads into what is
		// left behind it, so every read asks for a whole buffer.
		if b.r < b.w {
			line = appendRecord(line, b.buf[b.r:b.w])
			b.lastByte, b.lastRuneSize = int(b.buf[b.w-1]), -1
			b.r = b.w
		}
		if b.err != nil {
			return line, b.readErr()
		}
		b.fill()
	}
}

// Getline is Getdelim(line, '\n').
func (b *Reader) Getline(line []byte) ([]byte, error) {
	return b.Getdelim(line, '\n')
}

// appendRecord appends frag to line, growing it as glibc's getdelim grows
// its buffer rather than by append's rule.
func appendRecord(line, frag []byte) []byte {
	need := len(line) + len(frag)
	if need > cap(line) {
		grown := make([]byte, len(line), max(need, 2*cap(line), getdelimMin))
		copy(grown, line)
		line = grown
	}
	return append(line, frag...)
}
