package main

import "bytes"

// A delay holds back the end of a stream read in chunks: it writes out,
// through emit, every byte that can no longer be among the last n units,
// and at the end the bytes before the last n units.
type delay interface {
	push(p []byte, emit func([]byte) error) error
	finish(emit func([]byte) error) error
}

// byteDelay holds back the last n bytes (n > 0) in a ring that grows to
// n bytes only as input comes, so that a huge n on a short input costs
// only the input's size.
type byteDelay struct {
	n     int
	ring  []byte // the held bytes; once len(ring) == n, oldest at start
	start int
}

func (d *byteDelay) push(p []byte, emit func([]byte) error) error {
	if len(d.ring) < d.n {
		take := min(len(p), d.n-len(d.ring))
		if len(d.ring)+take > cap(d.ring) {
			grown := make([]byte, len(d.ring), min(d.n, max(2*cap(d.ring), len(d.ring)+take, 4096)))
			copy(grown, d.ring)
			d.ring = grown
		}
		d.ring = append(d.ring, p[:take]...)
		p = p[take:]
		if len(p) == 0 {
			return nil
		}
	}
	if len(p) >= d.n {
		// All that is held goes out, then all of p but its last n bytes.
		for _, part := range [][]byte{d.ring[d.start:], d.ring[:d.start], p[:len(p)-d.n]} {
			if err := emit(part); err != nil {
				return err
			}
		}
		copy(d.ring, p[len(p)-d.n:])
		d.start = 0
		return nil
	}
	// The oldest len(p) bytes go out and p takes their place, in at most
	// two pieces where the ring wraps.
	for len(p) > 0 {
		k := min(len(p), d.n-d.start)
		if err := emit(d.ring[d.start : d.start+k]); err != nil {
			return err
		}
		copy(d.ring[d.start:], p[:k])
		p = p[k:]
		d.start = (d.start + k) % d.n
	}
	return nil
}

// finish writes nothing: every byte still held is among the last n.
func (d *byteDelay) finish(func([]byte) error) error { return nil }

// lineChunkSize is the size of the chunks lineDelay holds input in.
const lineChunkSize = 64 << 10

// lineChunk is a piece of held input and the delimiters in it.
type lineChunk struct {
	data   []byte
	delims uint64
}

// lineDelay holds back the last n records (n > 0). It keeps the input in
// chunks with their delimiter counts and writes a chunk out whole once
// the chunks after it hold more than n delimiters, so that it counts each
// byte once and holds about n records and a chunk.
type lineDelay struct {
	n      uint64
	delim  byte
	chunks []*lineChunk // oldest first
	free   []*lineChunk // written-out chunks, for reuse
	delims uint64       // delimiters in chunks
}

func (d *lineDelay) push(p []byte, emit func([]byte) error) error {
	for len(p) > 0 {
		last := d.tail()
		take := min(len(p), cap(last.data)-len(last.data))
		c := uint64(bytes.Count(p[:take], []byte{d.delim}))
		last.data = append(last.data, p[:take]...)
		last.delims += c
		d.delims += c
		p = p[take:]
		for len(d.chunks) > 1 && d.delims-d.chunks[0].delims > d.n {
			first := d.chunks[0]
			if err := emit(first.data); err != nil {
				return err
			}
			d.delims -= first.delims
			d.chunks = d.chunks[1:]
			first.data, first.delims = first.data[:0], 0
			d.free = append(d.free, first)
		}
	}
	return nil
}

// tail returns the chunk to append to: the newest, or a fresh one if it
// is full.
func (d *lineDelay) tail() *lineChunk {
	if k := len(d.chunks); k > 0 && len(d.chunks[k-1].data) < cap(d.chunks[k-1].data) {
		return d.chunks[k-1]
	}
	var c *lineChunk
	if k := len(d.free); k > 0 {
		c, d.free = d.free[k-1], d.free[:k-1]
	} else {
		c = &lineChunk{data: make([]byte, 0, lineChunkSize)}
	}
	d.chunks = append(d.chunks, c)
	return c
}

// finish writes out the records before the last n.
func (d *lineDelay) finish(emit func([]byte) error) error {
	records := d.delims
	if k := len(d.chunks); k > 0 {
		if data := d.chunks[k-1].data; len(data) > 0 && data[len(data)-1] != d.delim {
			records++ // a final record without a delimiter
		}
	}
	if records <= d.n {
		return nil
	}
	left := records - d.n // records still to write
	for _, c := range d.chunks {
		if c.delims < left {
			// Even the record this chunk ends inside is to be written.
			if err := emit(c.data); err != nil {
				return err
			}
			left -= c.delims
			continue
		}
		end := 0
		for ; left > 0; left-- {
			end += bytes.IndexByte(c.data[end:], d.delim) + 1
		}
		return emit(c.data[:end])
	}
	return nil
}

// recordDelay is lineDelay for --loop: a ring of the last n records, each
// read by one Getdelim and written by one Write once n newer ones came.
type recordDelay struct {
	n       uint64
	ring    [][]byte // grows to n records as they come
	next    int      // once the ring is full, the oldest record
	written int64
}

// push takes a record (empty at the end of the input) and returns a slice
// whose memory the next Getdelim may reuse.
func (d *recordDelay) push(record []byte, emit func([]byte) error) (spare []byte, err error) {
	if len(record) == 0 {
		return record, nil
	}
	if uint64(len(d.ring)) < d.n {
		d.ring = append(d.ring, record)
		return nil, nil
	}
	oldest := d.ring[d.next]
	if err := emit(oldest); err != nil {
		return nil, err
	}
	d.written += int64(len(oldest))
	d.ring[d.next] = record
	d.next = (d.next + 1) % len(d.ring)
	return oldest, nil
}
