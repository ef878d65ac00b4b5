// Package seedinput makes the input of the project's head benchmark: the
// shape of the file in the glibc patch proposal (Dec 2025), 290955 random
// printable lines whose lengths are uniform from 0 to 1582 bytes, about
// 230 MB in all.
//
// The bytes depend only on the line count and the seed, so two machines
// (or two runs) that ask for the same input get the same file, and a cached
// copy can be checked by its size without being read.
package seedinput

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
)

const (
	// Lines is the line count of the glibc proposal's `head -n 290955`.
	Lines = 290955

	// MaxLineLen is the longest line, newline not counted. Lengths are
	// uniform over [0, MaxLineLen], so a line averages 792 bytes with its
	// newline and Lines lines make about 230 MB, the seed's size.
	MaxLineLen = 1582

	// DefaultSeed is the seed headbench uses, so that every machine
	// benchmarks the same bytes.
	DefaultSeed uint64 = 1
)

// Two independent streams: one draws the line lengths, the other the bytes.
// Keeping the lengths apart lets Size compute the file's size without
// making its contents.
const (
	lengthStream  = 0x6c656e67746873 // "lengths"
	contentStream = 0x636f6e74656e74 // "content"
)

// writeBufSize is the buffer Write fills before each write to w: large, so a
// 230 MB input costs a few hundred write calls, not tens of thousands.
const writeBufSize = 1 << 20

// Size returns the number of bytes Write produces for lines and seed.
// It costs one random draw per line.
func Size(lines int, seed uint64) int64 {
	if lines <= 0 {
		return 0
	}
	lengths := rand.New(rand.NewPCG(seed, lengthStream))
	var n int64
	for range lines {
		n += int64(lengths.IntN(MaxLineLen+1)) + 1
	}
	return n
}

// Write writes lines random lines to w, each a run of printable ASCII bytes
// (space to tilde) ended by '\n', and returns the number of bytes written.
// The same lines and seed always give the same bytes. A negative lines is
// an error.
func Write(w io.Writer, lines int, seed uint64) (int64, error) {
	if lines < 0 {
		return 0, fmt.Errorf("seedinput: negative line count %d", lines)
	}
	lengths := rand.New(rand.NewPCG(seed, lengthStream))
	content := rand.NewPCG(seed, contentStream)
	bw := bufio.NewWriterSize(w, writeBufSize)
	var line [MaxLineLen + 1]byte
	var written int64
	for range lines {
		n := lengths.IntN(MaxLineLen + 1)
		fillPrintable(line[:n], content)
		line[n] = '\n'
		m, err := bw.Write(line[:n+1])
		written += int64(m)
		if err != nil {
			return written - int64(bw.Buffered()), err
		}
	}
	if err := bw.Flush(); err != nil {
		return written - int64(bw.Buffered()), err
	}
	return written, nil
}

// fillPrintable fills p with bytes from ' ' to '~', eight per 64-bit draw.
// Bytes left over from the last draw are dropped, so every line starts on
// a fresh draw.
func fillPrintable(p []byte, src *rand.PCG) {
	for len(p) > 0 {
		v := src.Uint64()
		n := min(len(p), 8)
		for i := range n {
			p[i] = printable(byte(v >> (8 * i)))
		}
		p = p[n:]
	}
}

// printable maps a random byte to one of the 95 printable ASCII bytes as
// ' ' + b*95/256: uniform enough for a benchmark input, and without the
// rejection loop an exact mapping would need.
func printable(b byte) byte {
	return ' ' + byte(uint32(b)*95>>8)
}
