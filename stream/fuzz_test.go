package stream

import (
	"bytes"
	"flag"
	"os"
	"slices"
	"strings"
	"testing"
)

// The fuzz targets run bufio-equivalence programs (bufio_diff_test.go)
// that the fuzzer writes: the first argument is the program, the second
// the data it reads or writes. The seeds below are written with the
// helpers that follow, which encode what the decoders read; the corpus
// under testdata/fuzz/ adds random programs.

// maxFuzzProg and maxFuzzData bound a fuzz input, so that one input runs
// in milliseconds.
const (
	maxFuzzProg = 2048
	maxFuzzData = 1 << 17
)

// fuzzMinimizeTime is the -fuzzminimizetime of these targets when none is
// given.
//
// The fuzzing engine shrinks each input that reaches new code before adding
// it to the corpus: it cuts the tail, drops single bytes, then every run of
// bytes, a number of calls quadratic in the input's length, bounded only by
// -fuzzminimizetime (60s by default). For a program of a few hundred bytes,
// each call running it under bufio and stream, that can take the whole minute.
// All that time the worker fuzzes nothing else and reports no executions,
// and once both workers shrink such inputs a run shows "execs: N (0/sec)"
// to its end, as if an input hung. A second keeps the cheap early passes
// and leaves the time to fuzzing; a -fuzzminimizetime on the command line,
// say 60s to shrink a failing input further, wins.
const fuzzMinimizeTime = "1s"

func TestMain(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.fuzzminimizetime" })
	if !given {
		if err := flag.Set("test.fuzzminimizetime", fuzzMinimizeTime); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}

func fuzzProgs(f *testing.F, run func(pkgAPI, []byte, []byte) []event, seeds [][2][]byte) {
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, code, data []byte) {
		if len(code) > maxFuzzProg || len(data) > maxFuzzData {
			t.Skip("input too large")
		}
		checkProg(t, run, code, data)
	})
}

// at returns the program byte that chooses v from list.
func at[T comparable](list []T, v T) byte {
	i := slices.Index(list, v)
	if i < 0 {
		panic("not in the list")
	}
	return byte(i)
}

// off returns the program bytes that prog.offset(n) decodes as k.
func off(k, n int) []byte {
	v := (k<<16 + n) / (n + 1)
	return []byte{byte(v >> 8), byte(v)}
}

// faultSource returns the program bytes of a faultReader over n bytes
// with the given read caps (stepSizes, or 99, 100, 101 for runs of zero
// reads), an error at byte errAt (if >= 0), and data returned with the
// error or EOF.
func faultSource(n int, steps []int, errAt int, transient, withData bool) []byte {
	b := []byte{6, byte(len(steps))}
	for _, s := range steps {
		if s >= 99 && s <= 101 {
			b = append(b, byte(len(stepSizes)+s-99))
		} else {
			b = append(b, at(stepSizes, s))
		}
	}
	if errAt < 0 {
		b = append(b, 0)
	} else {
		b = append(append(append(b, 1), off(errAt, n)...), bit(transient))
	}
	return append(b, bit(withData), 0) // no early EOFs
}

func bit(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func FuzzReaderOps(f *testing.F) {
	rop := func(op int, args ...byte) []byte { return append([]byte{at(readerOps, op)}, args...) }
	lines := []byte("first line\r\nsecond, a longer line that does not fit in sixteen bytes\r\n\r\nlast")
	text := []byte("héllo wörld 世界 😀\xff\xe4\xb8 done\n")
	fuzzProgs(f, runReaderProg, [][2][]byte{
		// ReadLine over a 16-byte buffer: "\r\n" straddles a refill.
		{slices.Concat([]byte{0, at(readerSizes, 16)}, rop(opReadLine), rop(opReadLine), rop(opReadLine),
			rop(opUnreadByte), rop(opReadLine), rop(opReadLine), rop(opReadLine)), lines},
		// Runes, invalid UTF-8, and unreading them, around Peek.
		{slices.Concat([]byte{1, at(readerSizes, 17)}, rop(opReadRune), rop(opUnreadRune), rop(opReadRune),
			rop(opReadRune), rop(opPeek, at(peekLens, 4)), rop(opUnreadRune), rop(opReadRune),
			rop(opDiscard, at(peekLens, 15)), rop(opReadRune), rop(opReadRune), rop(opUnreadByte)), text},
		// 100 (0, nil) reads make io.ErrNoProgress; 99 do not.
		{slices.Concat(faultSource(len(text), []int{100, 3}, -1, false, false), []byte{at(readerSizes, 16)},
			rop(opReadByte), rop(opReadByte), rop(opRead, at(readLens, 64))), text},
		{slices.Concat(faultSource(len(text), []int{99, 5}, -1, false, true), []byte{at(readerSizes, 32)},
			rop(opReadString, at(delims, ' ')), rop(opReadSlice, at(delims, '\n'))), text},
		// A transient error at byte 20, with and without the data before it.
		{slices.Concat(faultSource(len(lines), []int{16}, 20, true, true), []byte{at(readerSizes, 16)},
			rop(opReadString, 0), rop(opReadString, 0), rop(opReadBytes, 0), rop(opReadBytes, 0)), lines},
		{slices.Concat(faultSource(len(lines), []int{5, 3}, 20, false, false), []byte{at(readerSizes, 100)},
			rop(opPeek, at(peekLens, 32)), rop(opPeek, at(peekLens, 32)), rop(opReadSlice, 0)), lines},
		// Peek past the buffer, WriteTo a destination that fails at byte 7.
		{slices.Concat([]byte{2, at(readerSizes, -1)}, rop(opPeek, at(peekLens, 17)), rop(opReadByte),
			rop(opWriteTo, append([]byte{3}, off(7, 4200)...)...), rop(opReset, 0), rop(opWriteTo, 5)), lines},
	})
}

func FuzzWriterOps(f *testing.F) {
	wop := func(op int, args ...byte) []byte { return append([]byte{at(writerOps, op)}, args...) }
	piece := func(n, start int) []byte { return append([]byte{at(writeLens, n)}, off(start, 64)...) }
	data := []byte(strings.Repeat("0123456789abcdef\n", 4)[:64])
	fuzzProgs(f, runWriterProg, [][2][]byte{
		// Writes around a 16-byte buffer, with runes that do not fit.
		{slices.Concat([]byte{0, at(writerSizes, 16)}, wop(opWrite, piece(15, 0)...), wop(opWriteRune, at(writeRunes, '😀')),
			wop(opWriteString, piece(17, 3)...), wop(opWriteByte, 'x'), wop(opAvailable), wop(opWBuffered),
			wop(opWrite, piece(100, 5)...), wop(opFlush)), data},
		// Short writes with a nil error: io.ErrShortWrite, sticky.
		{slices.Concat([]byte{2, at(stepSizes, 5), at(stepSizes, 3), at(writerSizes, 7)}, wop(opWriteString, piece(16, 0)...),
			wop(opFlush), wop(opWriteByte, 'y'), wop(opWReset, 0), wop(opWriteByte, 'z')), data},
		// A writer failing at byte 10; ReadFrom from a reader of (0, nil)s.
		{slices.Concat([]byte{3}, off(10, 4200), []byte{at(writerSizes, 4)}, wop(opReadFrom, piece(17, 0)...),
			faultSource(17, []int{100}, -1, false, false), wop(opFlush), wop(opWBuffered)), data},
		// AvailableBuffer, a tiny buffer, a StringWriter, and invalid runes.
		{slices.Concat([]byte{1, at(writerSizes, 1)}, wop(opAvailableBuffer, piece(3, 0)...), wop(opWriteRune, at(writeRunes, -1)),
			wop(opWriteRune, at(writeRunes, 0xD800)), wop(opWriteString, piece(5, 0)...), wop(opWSize)), data},
		// ReadFrom into a bytes.Buffer (an io.ReaderFrom) after a zero Writer's Reset.
		{slices.Concat([]byte{5, byte(len(writerSizes) + 1)}, wop(opWrite, piece(3, 0)...),
			wop(opReadFrom, append(piece(100, 0), 0)...)), data},
	})
}

func FuzzScanner(f *testing.F) {
	long := bytes.Repeat([]byte("w"), MaxScanTokenSize)
	words := []byte("one two  three\nfour\r\nfive six seven eight nine ten\n  ")
	fuzzProgs(f, runScannerProg, [][2][]byte{
		{{0, 0, 6}, words}, // lines
		{{0, 1, 0}, words}, // words, Buffer(0, 16)
		{{3, 2, 6}, []byte("é世😀\xff\xe4\xb8a")}, // runes, HalfReader
		{{2, 3, 5}, words},                      // bytes, Buffer(3, 3)
		{{0, 4, 6}, []byte("a b qc d")},         // ErrFinalToken with a token
		{{0, 4, 6}, []byte("a b q d")},          // ErrFinalToken without one
		{{0, 5, 6}, []byte("a\nb\nxx\nc")},      // a split error
		{{0, 6, 6}, []byte("a\nz\nc")},          // advance too far
		{{0, 7, 6}, []byte("a\nb")},             // empty tokens at EOF: panic
		{{0, 0, 6}, append(long, '\n')},         // a token too long
		{{0, 0, 3}, append(long, '\n')},         // Buffer(nil, 1 MiB): not too long
		{append(faultSource(len(words), []int{100}, -1, false, false), 0, 6), words},
	})
}
