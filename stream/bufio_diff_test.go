package stream

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The bufio-equivalence tests drive a bufio value and a stream value
// through the same sequence of operations, over identical in-memory and
// fault-injecting readers and writers, and compare transcripts of every
// result, error (by identity: stream returns bufio's error values), byte,
// and every call made on the underlying reader or writer.
//
// A sequence is a program: bytes that choose the constructor, the faults
// and the operations (see prog). The random tests make programs with a
// seeded PCG; the fuzz targets (fuzz_test.go) take them from the fuzzer.

var (
	diffSeed = flag.Uint64("diff.seed", 1, "first seed of the random bufio-equivalence sequences")
	diffN    = flag.Int("diff.n", 300, "random sequences per bufio-equivalence test (at most 30 with -short)")
)

// prog is a test program. Both implementations decode the same bytes in
// the same order, whatever the results, so they see the same operations.
// Past its end a program reads as zeros.
type prog struct {
	b []byte
	i int
}

func (p *prog) next() int {
	p.i++
	if p.i > len(p.b) {
		return 0
	}
	return int(p.b[p.i-1])
}

func (p *prog) more() bool { return p.i < len(p.b) }

// pick returns a choice among n.
func (p *prog) pick(n int) int { return p.next() % n }

// offset returns a position in 0..n.
func (p *prog) offset(n int) int { return (p.next()<<8 | p.next()) * (n + 1) >> 16 }

// event is one line of a transcript: an operation and all it returned or
// did. Reads are the calls the operation made on the underlying reader,
// Writes those it made on the underlying writer (or a WriteTo's
// destination).
type event struct {
	Op     string
	N      int64
	M      int
	S      string
	B      bool
	Nil    bool
	Err    error
	Panic  string
	Reads  []readCall
	Writes []writeCall
}

// expectedPanics are the panics bufio itself raises on misbehaving
// readers, writers and split functions; any other panic in a transcript
// is a bug in the test or in stream.
var expectedPanics = []string{
	"stream: tried to fill full buffer",
	"stream.Scan: too many empty tokens without progressing",
}

// capture runs f, recording a panic in e with bufio's name for the
// package replaced by stream's, and reports whether f panicked.
func capture(e *event, f func()) (panicked bool) {
	defer func() {
		if v := recover(); v != nil {
			e.Panic = strings.Replace(fmt.Sprint(v), "bufio", "stream", 1)
			panicked = true
		}
	}()
	f()
	return false
}

// bufReader is the API of bufio.Reader and Reader.
type bufReader interface {
	io.Reader
	io.ByteScanner
	io.RuneScanner
	io.WriterTo
	Peek(n int) ([]byte, error)
	Discard(n int) (int, error)
	ReadSlice(delim byte) ([]byte, error)
	ReadLine() ([]byte, bool, error)
	ReadBytes(delim byte) ([]byte, error)
	ReadString(delim byte) (string, error)
	Buffered() int
	Size() int
	Reset(r io.Reader)
}

// bufWriter is the API of bufio.Writer and Writer.
type bufWriter interface {
	io.Writer
	io.ByteWriter
	io.StringWriter
	io.ReaderFrom
	WriteRune(r rune) (int, error)
	Flush() error
	Available() int
	AvailableBuffer() []byte
	Buffered() int
	Size() int
	Reset(w io.Writer)
}

// bufScanner is the API of bufio.Scanner and Scanner.
type bufScanner interface {
	Scan() bool
	Text() string
	Bytes() []byte
	Err() error
	Buffer(buf []byte, max int)
	Split(split bufio.SplitFunc)
}

// pkgAPI is a package under comparison: bufio or stream.
type pkgAPI struct {
	name          string
	newReader     func(io.Reader) bufReader
	newReaderSize func(io.Reader, int) bufReader
	zeroReader    func() bufReader
	newWriter     func(io.Writer) bufWriter
	newWriterSize func(io.Writer, int) bufWriter
	zeroWriter    func() bufWriter
	newScanner    func(io.Reader) bufScanner
	splits        []bufio.SplitFunc // ScanLines, ScanWords, ScanRunes, ScanBytes
}

var bufioAPI = pkgAPI{
	name:          "bufio",
	newReader:     func(r io.Reader) bufReader { return bufio.NewReader(r) },
	newReaderSize: func(r io.Reader, n int) bufReader { return bufio.NewReaderSize(r, n) },
	zeroReader:    func() bufReader { return new(bufio.Reader) },
	newWriter:     func(w io.Writer) bufWriter { return bufio.NewWriter(w) },
	newWriterSize: func(w io.Writer, n int) bufWriter { return bufio.NewWriterSize(w, n) },
	zeroWriter:    func() bufWriter { return new(bufio.Writer) },
	newScanner:    func(r io.Reader) bufScanner { return bufio.NewScanner(r) },
	splits:        []bufio.SplitFunc{bufio.ScanLines, bufio.ScanWords, bufio.ScanRunes, bufio.ScanBytes},
}

var streamAPI = pkgAPI{
	name:          "stream",
	newReader:     func(r io.Reader) bufReader { return NewReader(r) },
	newReaderSize: func(r io.Reader, n int) bufReader { return NewReaderSize(r, n) },
	zeroReader:    func() bufReader { return new(Reader) },
	newWriter:     func(w io.Writer) bufWriter { return NewWriter(w) },
	newWriterSize: func(w io.Writer, n int) bufWriter { return NewWriterSize(w, n) },
	zeroWriter:    func() bufWriter { return new(Writer) },
	newScanner:    func(r io.Reader) bufScanner { return NewScanner(r) },
	splits:        []bufio.SplitFunc{ScanLines, ScanWords, ScanRunes, ScanBytes},
}

// stepSizes are the caps a program gives a faultReader's or faultWriter's
// successive calls; 0 is a (0, nil) call.
var stepSizes = []int{1, 2, 3, 5, 16, 100, 4096, 0}

// decodeSource makes the reader a program chooses over data, and a
// function returning the calls made on it since it was last called.
func decodeSource(p *prog, data []byte) (io.Reader, func() []readCall) {
	s := string(data)
	switch p.pick(10) {
	case 0:
		return logged(strings.NewReader(s))
	case 1:
		return logged(bytes.NewBuffer(bytes.Clone(data)))
	case 2:
		return logged(iotest.OneByteReader(strings.NewReader(s)))
	case 3:
		return logged(iotest.HalfReader(strings.NewReader(s)))
	case 4:
		return logged(iotest.DataErrReader(strings.NewReader(s)))
	case 5:
		return logged(iotest.TimeoutReader(strings.NewReader(s)))
	}
	return logged(decodeFaultReader(p, data))
}

// decodeFaultReader makes the faultReader a program chooses over data:
// short reads, runs of (0, nil) reads around io.ErrNoProgress's 100, an
// error at some byte, data returned with the error or io.EOF, and early
// EOFs after which the data goes on.
func decodeFaultReader(p *prog, data []byte) *faultReader {
	r := newFaultReader(data)
	for range p.pick(4) {
		if c := p.pick(len(stepSizes) + 3); c < len(stepSizes) {
			r.steps = append(r.steps, stepSizes[c])
		} else {
			r.steps = append(r.steps, make([]int, 99+c-len(stepSizes))...)
		}
	}
	if p.pick(2) == 1 {
		r.errAt = p.offset(len(data))
		r.transient = p.pick(2) == 1
	}
	r.withData = p.pick(2) == 1
	for range p.pick(3) {
		r.eofs = append(r.eofs, p.offset(len(data)))
	}
	return r
}

// sink is a destination a program writes to: a faultWriter, possibly
// behind a buffered writer of the package under test, or a bytes.Buffer
// (an io.ReaderFrom).
type sink struct {
	name  string
	w     io.Writer
	fw    *faultWriter
	buf   *bytes.Buffer
	flush func() error
	calls func() []writeCall
}

func (s sink) output() string {
	if s.buf != nil {
		return s.buf.String()
	}
	return string(s.fw.out)
}

// decodeSink makes the destination a program chooses. A buffered writer
// of api is offered only when buffered is true.
func decodeSink(p *prog, api pkgAPI, buffered bool) sink {
	kinds := 6
	if buffered {
		kinds++
	}
	k := p.pick(kinds)
	if k == 5 {
		b := new(bytes.Buffer)
		return sink{name: "bytes.Buffer", w: b, buf: b, calls: func() []writeCall { return nil }}
	}
	fw := newFaultWriter()
	s := sink{name: "faultWriter", w: fw, fw: fw, calls: sinceLast(&fw.calls)}
	switch k {
	case 1:
		s.name, s.w = "StringWriter", stringFaultWriter{fw}
	case 2:
		// Short writes with a nil error; not (0, nil), on which bufio's
		// Write loops forever.
		n := len(stepSizes) - 1
		fw.steps = []int{stepSizes[p.pick(n)], stepSizes[p.pick(n)]}
	case 3, 4:
		fw.errAt = p.offset(4200)
		if k == 4 {
			s.name, s.w = "StringWriter", stringFaultWriter{fw}
		}
	case 6:
		bw := api.newWriterSize(fw, 16)
		s.name, s.w, s.flush = "NewWriterSize(16)", bw, bw.Flush
	}
	return s
}

// Reader programs.

var (
	readerSizes = []int{-1, 0, 1, 15, 16, 17, 32, 100, 4096, 5000}
	readLens    = []int{0, 1, 2, 3, 7, 15, 16, 17, 64, 100, 4095, 4096, 4097, 10000}
	peekLens    = []int{-1, 0, 1, 2, 4, 15, 16, 17, 32, 100, 4096, 5000}
	delims      = []byte{'\n', '\n', ' ', 'a', '\r', 0xff}
)

const (
	opRead = iota
	opReadByte
	opUnreadByte
	opReadRune
	opUnreadRune
	opPeek
	opDiscard
	opReadSlice
	opReadLine
	opReadBytes
	opReadString
	opWriteTo
	opBuffered
	opSize
	opReset
)

// readerOps weights the operations a program byte chooses among.
var readerOps = []int{
	opRead, opRead, opRead, opReadByte, opReadByte, opReadByte,
	opUnreadByte, opUnreadByte, opReadRune, opReadRune, opUnreadRune, opUnreadRune,
	opPeek, opPeek, opDiscard, opDiscard, opReadSlice, opReadSlice, opReadSlice,
	opReadLine, opReadLine, opReadBytes, opReadBytes, opReadString, opReadString,
	opWriteTo, opBuffered, opSize, opReset,
}

// decodeReader makes the Reader a program chooses over src.
func decodeReader(p *prog, api pkgAPI, src io.Reader) (bufReader, string) {
	switch c := p.pick(len(readerSizes) + 4); c - len(readerSizes) {
	case 0:
		return api.newReader(src), "NewReader"
	case 1:
		r := api.zeroReader()
		r.Reset(src)
		return r, "zero Reader, Reset"
	case 2:
		return api.newReaderSize(api.newReaderSize(src, 100), 50), "NewReaderSize(NewReaderSize(100), 50)"
	case 3:
		return api.newReader(api.newReaderSize(src, 16)), "NewReader(NewReaderSize(16))"
	default:
		return api.newReaderSize(src, readerSizes[c]), fmt.Sprintf("NewReaderSize(%d)", readerSizes[c])
	}
}

// runReaderProg runs a Reader program of api over data and returns its
// transcript.
func runReaderProg(api pkgAPI, code, data []byte) []event {
	p := &prog{b: code}
	src, reads := decodeSource(p, data)
	r, ctor := decodeReader(p, api, src)
	evs := []event{{Op: ctor, N: int64(r.Size())}}
	for p.more() {
		var e event
		panicked := capture(&e, func() { readerOp(p, api, r, data, &e, &reads) })
		e.Reads = append(e.Reads, reads()...)
		evs = append(evs, e)
		if panicked {
			return evs
		}
	}
	e := event{Op: "ReadAll"}
	if !capture(&e, func() {
		all, err := io.ReadAll(r)
		e.S, e.Err = string(all), err
	}) {
		e.Reads = reads()
	}
	return append(evs, e)
}

// readerOp decodes one operation and runs it on r, recording it in e.
func readerOp(p *prog, api pkgAPI, r bufReader, data []byte, e *event, reads *func() []readCall) {
	switch op := readerOps[p.pick(len(readerOps))]; op {
	case opRead:
		buf := make([]byte, readLens[p.pick(len(readLens))])
		e.Op = fmt.Sprintf("Read(%d)", len(buf))
		n, err := r.Read(buf)
		e.N, e.S, e.Err = int64(n), string(buf[:n]), err
	case opReadByte:
		e.Op = "ReadByte"
		c, err := r.ReadByte()
		e.N, e.Err = int64(c), err
	case opUnreadByte:
		e.Op, e.Err = "UnreadByte", r.UnreadByte()
	case opReadRune:
		e.Op = "ReadRune"
		c, size, err := r.ReadRune()
		e.N, e.M, e.Err = int64(c), size, err
	case opUnreadRune:
		e.Op, e.Err = "UnreadRune", r.UnreadRune()
	case opPeek:
		n := peekLens[p.pick(len(peekLens))]
		e.Op = fmt.Sprintf("Peek(%d)", n)
		b, err := r.Peek(n)
		e.S, e.Nil, e.Err = string(b), b == nil, err
	case opDiscard:
		n := peekLens[p.pick(len(peekLens))]
		e.Op = fmt.Sprintf("Discard(%d)", n)
		d, err := r.Discard(n)
		e.N, e.Err = int64(d), err
	case opReadSlice, opReadBytes, opReadString:
		delim := delims[p.pick(len(delims))]
		var b []byte
		switch op {
		case opReadSlice:
			e.Op = fmt.Sprintf("ReadSlice(%q)", delim)
			b, e.Err = r.ReadSlice(delim)
		case opReadBytes:
			e.Op = fmt.Sprintf("ReadBytes(%q)", delim)
			b, e.Err = r.ReadBytes(delim)
		default:
			e.Op = fmt.Sprintf("ReadString(%q)", delim)
			e.S, e.Err = r.ReadString(delim)
			return
		}
		e.S, e.Nil = string(b), b == nil
	case opReadLine:
		e.Op = "ReadLine"
		b, prefix, err := r.ReadLine()
		e.S, e.B, e.Nil, e.Err = string(b), prefix, b == nil, err
	case opWriteTo:
		s := decodeSink(p, api, true)
		e.Op = "WriteTo(" + s.name + ")"
		n, err := r.WriteTo(s.w)
		if s.flush != nil {
			e.B = s.flush() == nil
		}
		e.N, e.Err, e.S, e.Writes = n, err, s.output(), s.calls()
	case opBuffered:
		e.Op, e.N = "Buffered", int64(r.Buffered())
	case opSize:
		e.Op, e.N = "Size", int64(r.Size())
	case opReset:
		src, log := decodeSource(p, data)
		e.Op = fmt.Sprintf("Reset(%T)", src)
		e.Reads = (*reads)() // calls on the old source
		r.Reset(src)
		*reads = log
		e.N = int64(r.Size())
	}
}

// Writer programs.

var (
	writerSizes = []int{-1, 0, 1, 2, 3, 4, 7, 16, 100, 4096}
	writeLens   = []int{0, 1, 2, 3, 5, 15, 16, 17, 100, 4095, 4096, 5000}
	writeRunes  = []rune{'a', '\n', 0, 0x7f, 0x80, 'é', '世', '😀', utf8.MaxRune, utf8.MaxRune + 1, -1, 0xD800, utf8.RuneError}
)

const (
	opWrite = iota
	opWriteByte
	opWriteRune
	opWriteString
	opReadFrom
	opFlush
	opAvailable
	opAvailableBuffer
	opWBuffered
	opWSize
	opWReset
)

var writerOps = []int{
	opWrite, opWrite, opWrite, opWrite, opWriteByte, opWriteByte, opWriteByte,
	opWriteRune, opWriteRune, opWriteString, opWriteString, opWriteString,
	opReadFrom, opReadFrom, opFlush, opFlush, opAvailable, opAvailableBuffer, opAvailableBuffer,
	opWBuffered, opWSize, opWReset,
}

// chunk decodes a piece of data to write: a length and a start in data,
// read as a ring.
func chunk(p *prog, data []byte) []byte {
	n, start := writeLens[p.pick(len(writeLens))], p.offset(len(data))
	if len(data) == 0 {
		return nil
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = data[(start+i)%len(data)]
	}
	return b
}

// decodeWriter makes the Writer a program chooses over w.
func decodeWriter(p *prog, api pkgAPI, w io.Writer) (bufWriter, string) {
	switch c := p.pick(len(writerSizes) + 3); c - len(writerSizes) {
	case 0:
		return api.newWriter(w), "NewWriter"
	case 1:
		b := api.zeroWriter()
		b.Reset(w)
		return b, "zero Writer, Reset"
	case 2:
		return api.newWriterSize(api.newWriterSize(w, 100), 50), "NewWriterSize(NewWriterSize(100), 50)"
	default:
		return api.newWriterSize(w, writerSizes[c]), fmt.Sprintf("NewWriterSize(%d)", writerSizes[c])
	}
}

// runWriterProg runs a Writer program of api, writing pieces of data, and
// returns its transcript, which ends with a Flush and what every
// underlying writer received.
func runWriterProg(api pkgAPI, code, data []byte) []event {
	p := &prog{b: code}
	sinks := []sink{decodeSink(p, api, false)}
	w, ctor := decodeWriter(p, api, sinks[0].w)
	evs := []event{{Op: ctor, N: int64(w.Size())}}
	finished := func() []event {
		for i, s := range sinks {
			evs = append(evs, event{Op: fmt.Sprintf("output %d", i), S: s.output()})
		}
		return evs
	}
	for p.more() {
		var e event
		panicked := capture(&e, func() { writerOp(p, api, w, data, &e, &sinks) })
		e.Writes = append(e.Writes, sinks[len(sinks)-1].calls()...)
		evs = append(evs, e)
		if panicked {
			return finished()
		}
	}
	e := event{Op: "Flush"}
	capture(&e, func() { e.Err = w.Flush() })
	e.Writes = sinks[len(sinks)-1].calls()
	evs = append(evs, e)
	return finished()
}

// writerOp decodes one operation and runs it on w, recording it in e.
func writerOp(p *prog, api pkgAPI, w bufWriter, data []byte, e *event, sinks *[]sink) {
	switch writerOps[p.pick(len(writerOps))] {
	case opWrite:
		b := chunk(p, data)
		e.Op = fmt.Sprintf("Write(%d)", len(b))
		n, err := w.Write(b)
		e.N, e.Err = int64(n), err
	case opWriteByte:
		c := byte(p.next())
		e.Op = fmt.Sprintf("WriteByte(%q)", c)
		e.Err = w.WriteByte(c)
	case opWriteRune:
		r := writeRunes[p.pick(len(writeRunes))]
		e.Op = fmt.Sprintf("WriteRune(%U)", r)
		n, err := w.WriteRune(r)
		e.N, e.Err = int64(n), err
	case opWriteString:
		s := string(chunk(p, data))
		e.Op = fmt.Sprintf("WriteString(%d)", len(s))
		n, err := w.WriteString(s)
		e.N, e.Err = int64(n), err
	case opReadFrom:
		src, reads := decodeSource(p, chunk(p, data))
		e.Op = fmt.Sprintf("ReadFrom(%T)", src)
		e.N, e.Err = w.ReadFrom(src)
		e.Reads = reads()
	case opFlush:
		e.Op, e.Err = "Flush", w.Flush()
	case opAvailable:
		e.Op, e.N = "Available", int64(w.Available())
	case opAvailableBuffer:
		b := w.AvailableBuffer()
		e.Op, e.M = "AvailableBuffer+Write", cap(b)
		b = append(b, chunk(p, data)...)
		n, err := w.Write(b)
		e.N, e.Err = int64(n), err
	case opWBuffered:
		e.Op, e.N = "Buffered", int64(w.Buffered())
	case opWSize:
		e.Op, e.N = "Size", int64(w.Size())
	case opWReset:
		s := decodeSink(p, api, false)
		e.Op = "Reset(" + s.name + ")"
		e.Writes = (*sinks)[len(*sinks)-1].calls()
		w.Reset(s.w)
		*sinks = append(*sinks, s)
		e.N = int64(w.Size())
	}
}

// Scanner programs.

// splitFinal is ScanWords that stops at a word holding 'q' with
// ErrFinalToken: with the word, or with no token if the word starts
// with 'q'.
func splitFinal(data []byte, atEOF bool) (int, []byte, error) {
	adv, tok, err := bufio.ScanWords(data, atEOF)
	if err == nil && bytes.IndexByte(tok, 'q') >= 0 {
		if tok[0] == 'q' {
			return adv, nil, ErrFinalToken
		}
		return adv, tok, ErrFinalToken
	}
	return adv, tok, err
}

// splitFail is ScanLines that fails at a line holding 'x'.
func splitFail(data []byte, atEOF bool) (int, []byte, error) {
	adv, tok, err := bufio.ScanLines(data, atEOF)
	if bytes.IndexByte(tok, 'x') >= 0 {
		return 0, nil, errFault
	}
	return adv, tok, err
}

// splitBad is ScanLines that advances too far at a line holding 'z' and
// backwards at one holding 'y'.
func splitBad(data []byte, atEOF bool) (int, []byte, error) {
	adv, tok, err := bufio.ScanLines(data, atEOF)
	switch {
	case bytes.IndexByte(tok, 'z') >= 0:
		return len(data) + 1, tok, nil
	case bytes.IndexByte(tok, 'y') >= 0:
		return -1, tok, nil
	}
	return adv, tok, err
}

// splitEmpty is ScanLines that returns empty tokens forever at EOF, which
// makes Scan panic.
func splitEmpty(data []byte, atEOF bool) (int, []byte, error) {
	if atEOF && len(data) == 0 {
		return 0, []byte{}, nil
	}
	return bufio.ScanLines(data, atEOF)
}

// scanBuffers are the Buffer calls a program chooses among: the initial
// capacity and the maximum token size.
var scanBuffers = []struct{ cap, max int }{{0, 16}, {10, 100}, {100, 64}, {0, 1 << 20}, {4096, MaxScanTokenSize}, {3, 3}}

// runScannerProg runs a Scanner program of api over data and returns its
// transcript: each Scan with its token and the reads it made, then Err.
func runScannerProg(api pkgAPI, code, data []byte) []event {
	p := &prog{b: code}
	src, reads := decodeSource(p, data)
	s := api.newScanner(src)
	splits := append(api.splits[:len(api.splits):len(api.splits)], splitFinal, splitFail, splitBad, splitEmpty)
	c := p.pick(len(splits))
	s.Split(splits[c])
	evs := []event{{Op: "Split", N: int64(c)}}
	if b := p.pick(len(scanBuffers) + 1); b < len(scanBuffers) {
		s.Buffer(make([]byte, 0, scanBuffers[b].cap), scanBuffers[b].max)
		evs = append(evs, event{Op: "Buffer", N: int64(scanBuffers[b].cap), M: scanBuffers[b].max})
	}
	for falses := 0; falses < 2; {
		e := event{Op: "Scan"}
		panicked := capture(&e, func() {
			e.B = s.Scan()
			e.S, e.Nil = s.Text(), s.Bytes() == nil
		})
		e.Reads = reads()
		evs = append(evs, e)
		if panicked {
			break
		}
		if !e.B {
			falses++
		}
	}
	return append(evs, event{Op: "Err", Err: s.Err()})
}

// checkProg runs a program under bufio and stream and reports any
// difference between their transcripts, or an unexpected panic.
func checkProg(t *testing.T, run func(pkgAPI, []byte, []byte) []event, code, data []byte) bool {
	t.Helper()
	want, got := run(bufioAPI, code, data), run(streamAPI, code, data)
	// cmp.Diff is the judge; reflect.DeepEqual (which takes the same
	// error values as equal) only spares it the long transcripts that
	// are equal, at a hundredth of its cost.
	if !reflect.DeepEqual(want, got) {
		if diff := cmp.Diff(want, got, cmpopts.EquateErrors()); diff != "" {
			t.Errorf("program %q over %d bytes of data: transcripts differ (-bufio +stream):\n%s", code, len(data), diff)
			return false
		}
	}
	for _, e := range want {
		if e.Panic != "" && !slices.Contains(expectedPanics, e.Panic) {
			t.Errorf("program %q: %s panicked under both: %s", code, e.Op, e.Panic)
			return false
		}
	}
	return true
}

// dataWords are the pieces random data is made of: words, separators,
// line ends of all kinds, runes of every length, invalid and truncated
// UTF-8, and the letters the custom split functions react to.
var dataWords = []string{
	"a", "word", "q", "qq", "x", "y", "z", " ", "  ", "\t", "\n", "\n", "\n", "\r\n", "\r",
	"é", "世界", "😀", "\xff", "\xe4\xb8", "\x00", strings.Repeat("a", 40), strings.Repeat("b", 300),
}

// randomData returns up to about n bytes of text made of dataWords.
func randomData(rng *rand.Rand, n int) []byte {
	var b []byte
	for len(b) < n {
		b = append(b, dataWords[rng.IntN(len(dataWords))]...)
	}
	return b[:min(len(b), n)]
}

// randomInput returns a random program of about ops operations and its
// data, of a length drawn from sizes that make buffers of 16 to 4096
// bytes refill few or many times.
func randomInput(rng *rand.Rand, ops int) (code, data []byte) {
	code = make([]byte, 8+ops*4)
	for i := range code {
		code[i] = byte(rng.Uint32())
	}
	sizes := []int{0, 1, 10, 100, 1000, 5000, 20000}
	return code, randomData(rng, rng.IntN(sizes[rng.IntN(len(sizes))]+1))
}

// diffRandom runs diff.n random programs, the i-th from seed diff.seed+i.
func diffRandom(t *testing.T, ops int, run func(pkgAPI, []byte, []byte) []event) {
	n := *diffN
	if testing.Short() {
		n = min(n, 30)
	}
	for i := range uint64(n) {
		seed := *diffSeed + i
		code, data := randomInput(rand.New(rand.NewPCG(seed, seed)), ops)
		if !checkProg(t, run, code, data) {
			t.Fatalf("seed %d failed; rerun it alone with -diff.seed=%d -diff.n=1", seed, seed)
		}
	}
}

func TestDiffReader(t *testing.T)  { diffRandom(t, 60, runReaderProg) }
func TestDiffWriter(t *testing.T)  { diffRandom(t, 60, runWriterProg) }
func TestDiffScanner(t *testing.T) { diffRandom(t, 0, runScannerProg) }

// TestDiffScannerLongTokens compares tokens around MaxScanTokenSize and
// the limits Buffer sets.
func TestDiffScannerLongTokens(t *testing.T) {
	tooLong := 0
	defer func() {
		if tooLong == 0 {
			t.Error("no case ended in ErrTooLong")
		}
	}()
	for _, n := range []int{4095, 4096, MaxScanTokenSize - 2, MaxScanTokenSize - 1, MaxScanTokenSize, MaxScanTokenSize + 1} {
		for _, buf := range []int{len(scanBuffers), 3, 4} { // default, {0, 1<<20}, {4096, MaxScanTokenSize}
			for _, split := range []byte{0, 1, 5} { // lines, words, splitFail
				for _, tail := range []string{"", "\n", "\r\n", " next\n"} {
					data := append(bytes.Repeat([]byte("w"), n), tail...)
					// source 0 (strings.Reader), split, buffer
					code := []byte{0, split, byte(buf)}
					if !checkProg(t, runScannerProg, code, data) {
						t.Fatalf("token of %d bytes + %q, split %d, buffer %d", n, tail, split, buf)
					}
					if evs := runScannerProg(streamAPI, code, data); evs[len(evs)-1].Err == ErrTooLong {
						tooLong++
					}
				}
			}
		}
	}
}

// upcaseFile upper-cases what it writes to its file, and offers the
// file's Fd: a descriptor for deciding how to buffer, whose Write must see
// every byte all the same.
type upcaseFile struct {
	f    *os.File
	seen int64 // bytes given to Write
}

func (u *upcaseFile) Write(p []byte) (int, error) {
	u.seen += int64(len(p))
	return u.f.Write(bytes.ToUpper(p))
}

func (u *upcaseFile) Fd() uintptr { return u.f.Fd() }

// countingFile counts the bytes its Read returns, and offers the file's Fd.
type countingFile struct {
	f    *os.File
	seen int64 // bytes returned by Read
}

func (c *countingFile) Read(p []byte) (int, error) {
	n, err := c.f.Read(p)
	c.seen += int64(n)
	return n, err
}

func (c *countingFile) Fd() uintptr { return c.f.Fd() }

// upcaseEmbedded embeds its *os.File and overrides Write; countingEmbedded
// overrides Read. Every other method is the file's, SyscallConn and the
// promoted ReadFrom and WriteTo included.
type (
	upcaseEmbedded struct {
		*os.File
		seen *int64
	}
	countingEmbedded struct {
		*os.File
		seen *int64
	}
)

func (u upcaseEmbedded) Write(p []byte) (int, error) {
	*u.seen += int64(len(p))
	return u.File.Write(bytes.ToUpper(p))
}

func (c countingEmbedded) Read(p []byte) (int, error) {
	n, err := c.File.Read(p)
	*c.seen += int64(n)
	return n, err
}

// firstError is the first of errs that is not nil.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// TestDiffDescriptorWrappers copies a file through bufio and through
// stream, with one end a value that has the file's descriptor (an Fd
// method, or an embedded *os.File) and its own Read or Write: the bytes
// that arrive, the counts returned and the bytes the wrapper's own method
// saw must be the same. A kernel copy between the descriptors would
// bypass the wrapper; one between plain files is still allowed. Both
// buffers are bufio's size (policy bufio): how many bytes pass through a
// wrapper before a copy takes over depends on it, and on a file whose
// st_blksize is not 4096 (Windows has none: BUFSIZ) the sizes differ.
func TestDiffDescriptorWrappers(t *testing.T) {
	t.Setenv(policyEnv, "bufio")
	dir := t.TempDir()
	input := filepath.Join(dir, "input")
	if err := os.WriteFile(input, bytes.Repeat([]byte("a line in lower case, to be upper-cased\n"), 20000), 0o600); err != nil {
		t.Fatal(err)
	}
	// A copy gets the input open for reading, an empty output file open
	// for writing, and a counter for the wrapper's calls.
	type copyFunc func(api pkgAPI, in, out *os.File, seen *int64) (int64, error)
	tests := []struct {
		name string
		copy copyFunc
	}{
		{"io.Copy(NewWriter(upcase), file)", func(api pkgAPI, in, out *os.File, seen *int64) (int64, error) {
			u := &upcaseFile{f: out}
			w := api.newWriter(u)
			n, err := io.Copy(w, in)
			err = firstError(err, w.Flush())
			*seen = u.seen
			return n, err
		}},
		{"io.Copy(upcase, NewReader(file))", func(api pkgAPI, in, out *os.File, seen *int64) (int64, error) {
			u := &upcaseFile{f: out}
			n, err := io.Copy(u, api.newReader(in))
			*seen = u.seen
			return n, err
		}},
		{"NewReader(counting).WriteTo(file)", func(api pkgAPI, in, out *os.File, seen *int64) (int64, error) {
			c := &countingFile{f: in}
			n, err := api.newReader(c).WriteTo(out)
			*seen = c.seen
			return n, err
		}},
		{"NewWriter(file).ReadFrom(counting)", func(api pkgAPI, in, out *os.File, seen *int64) (int64, error) {
			c := &countingFile{f: in}
			w := api.newWriter(out)
			w.WriteString("a header\n")
			n, err := w.ReadFrom(c)
			err = firstError(err, w.Flush())
			*seen = c.seen
			return n, err
		}},
		{"NewReader(counting).WriteTo(NewWriter(file))", func(api pkgAPI, in, out *os.File, seen *int64) (int64, error) {
			c := &countingFile{f: in}
			w := api.newWriter(out)
			n, err := api.newReader(c).WriteTo(w)
			err = firstError(err, w.Flush())
			*seen = c.seen
			return n, err
		}},
		{"io.Copy(NewWriter(upcaseEmbedded), file)", func(api pkgAPI, in, out *os.File, seen *int64) (int64, error) {
			w := api.newWriter(upcaseEmbedded{out, seen})
			w.WriteString("a header\n")
			n, err := io.Copy(w, in)
			return n, firstError(err, w.Flush())
		}},
		{"NewReader(countingEmbedded).WriteTo(NewWriter(file))", func(api pkgAPI, in, out *os.File, seen *int64) (int64, error) {
			w := api.newWriter(out)
			n, err := api.newReader(countingEmbedded{in, seen}).WriteTo(w)
			return n, firstError(err, w.Flush())
		}},
		{"NewReader(file).WriteTo(NewWriter(file))", func(api pkgAPI, in, out *os.File, seen *int64) (int64, error) {
			w := api.newWriter(out)
			w.WriteString("a header\n")
			n, err := api.newReader(in).WriteTo(w)
			return n, firstError(err, w.Flush())
		}},
	}
	type result struct {
		N      int64
		Err    error
		Seen   int64  // bytes the wrapper's own Read or Write saw
		Output string // what reached the output file
	}
	run := func(api pkgAPI, name string, copy copyFunc) result {
		in, err := os.Open(input)
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close()
		outName := filepath.Join(dir, api.name+"-"+strconv.Itoa(len(name)))
		out, err := os.Create(outName)
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		var r result
		r.N, r.Err = copy(api, in, out, &r.Seen)
		b, err := os.ReadFile(outName)
		if err != nil {
			t.Fatal(err)
		}
		r.Output = fmt.Sprintf("%d bytes, %d upper-case lines", len(b), bytes.Count(b, []byte("A LINE IN LOWER CASE")))
		return r
	}
	for _, tt := range tests {
		want, got := run(bufioAPI, tt.name, tt.copy), run(streamAPI, tt.name, tt.copy)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-bufio +stream):\n%s", tt.name, diff)
		}
	}
}

// TestDiffNewReturnsExisting checks that the constructors return an
// existing Reader or Writer exactly when bufio's do, with the same size.
func TestDiffNewReturnsExisting(t *testing.T) {
	type result struct {
		Same bool
		Size int
	}
	sizes := []int{-1, 0, 15, 16, 100, 4095, 4096, 4097}
	run := func(api pkgAPI) (res []result) {
		for _, inner := range sizes {
			r := api.newReaderSize(strings.NewReader("x"), inner)
			w := api.newWriterSize(io.Discard, inner)
			r2, w2 := api.newReader(r), api.newWriter(w)
			res = append(res, result{r2 == r, r2.Size()}, result{w2 == w, w2.Size()})
			for _, outer := range sizes {
				r2, w2 := api.newReaderSize(r, outer), api.newWriterSize(w, outer)
				res = append(res, result{r2 == r, r2.Size()}, result{w2 == w, w2.Size()})
			}
		}
		return res
	}
	want, got := run(bufioAPI), run(streamAPI)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-bufio +stream):\n%s", diff)
	}
	same := 0
	for _, r := range want {
		if r.Same {
			same++
		}
	}
	if same == 0 || same == len(want) {
		t.Fatalf("the cases do not cover both answers: %v", want)
	}
}

// TestDiffAllocs checks that constructing and resetting a Reader or
// Writer allocates no more than bufio does, over an in-memory stream and
// over a file: a Reset reuses the buffer, and deciding a descriptor's
// buffering (fstat, the policy, Info's reason) allocates nothing.
func TestDiffAllocs(t *testing.T) {
	t.Setenv(policyEnv, "")
	f, err := os.CreateTemp(t.TempDir(), "allocs")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString("some text\n"); err != nil {
		t.Fatal(err)
	}
	src := strings.NewReader("some text\n")
	type counts struct {
		NewReader, NewWriter, ResetReader, ResetWriter, Scan float64
		// Over the file: each run reads or writes one byte, so that a
		// descriptor's stream decides and gets its buffer.
		NewReaderFile, NewWriterFile, ResetReaderFile, ResetWriterFile float64
	}
	readByte := func(r bufReader) {
		f.Seek(0, io.SeekStart)
		if _, err := r.ReadByte(); err != nil {
			t.Fatal(err)
		}
	}
	writeByte := func(w bufWriter) {
		if err := w.WriteByte('x'); err != nil {
			t.Fatal(err)
		}
	}
	measure := func(api pkgAPI) counts {
		r, w := api.newReader(src), api.newWriter(io.Discard)
		fr, fw := api.newReader(f), api.newWriter(f)
		return counts{
			NewReader:   testing.AllocsPerRun(20, func() { api.newReader(src) }),
			NewWriter:   testing.AllocsPerRun(20, func() { api.newWriter(io.Discard) }),
			ResetReader: testing.AllocsPerRun(20, func() { r.Reset(src) }),
			ResetWriter: testing.AllocsPerRun(20, func() { w.Reset(io.Discard) }),
			Scan: testing.AllocsPerRun(20, func() {
				src.Reset("some text\n")
				s := api.newScanner(src)
				for s.Scan() {
				}
			}),
			NewReaderFile:   testing.AllocsPerRun(20, func() { readByte(api.newReader(f)) }),
			NewWriterFile:   testing.AllocsPerRun(20, func() { writeByte(api.newWriter(f)) }),
			ResetReaderFile: testing.AllocsPerRun(20, func() { fr.Reset(f); readByte(fr) }),
			ResetWriterFile: testing.AllocsPerRun(20, func() { fw.Reset(f); writeByte(fw) }),
		}
	}
	if diff := cmp.Diff(measure(bufioAPI), measure(streamAPI)); diff != "" {
		t.Errorf("allocations per call (-bufio +stream):\n%s", diff)
	}
}

// negativeReader returns a negative count, as a broken reader may.
type negativeReader struct{}

func (negativeReader) Read(p []byte) (int, error) { return -1, nil }

// TestDiffMisuse compares what the packages do when misused: a reader
// that returns a negative count (a panic, or ErrBadReadCount in a
// Scanner), and Buffer or Split called after Scan (a panic).
func TestDiffMisuse(t *testing.T) {
	run := func(api pkgAPI) []event {
		ops := []struct {
			name string
			f    func(e *event)
		}{
			{"ReadByte", func(e *event) { _, e.Err = api.newReader(negativeReader{}).ReadByte() }},
			{"Read(1)", func(e *event) { _, e.Err = api.newReader(negativeReader{}).Read(make([]byte, 1)) }},
			{"Read(5000)", func(e *event) { _, e.Err = api.newReader(negativeReader{}).Read(make([]byte, 5000)) }},
			{"Scan", func(e *event) {
				s := api.newScanner(negativeReader{})
				e.B, e.Err = s.Scan(), s.Err()
			}},
			{"Buffer after Scan", func(e *event) {
				s := api.newScanner(strings.NewReader("a\nb\n"))
				s.Scan()
				s.Buffer(nil, 10)
			}},
			{"Split after Scan", func(e *event) {
				s := api.newScanner(strings.NewReader("a\nb\n"))
				s.Scan()
				s.Split(api.splits[1])
			}},
		}
		var evs []event
		for _, op := range ops {
			e := event{Op: op.name}
			capture(&e, func() { op.f(&e) })
			evs = append(evs, e)
		}
		return evs
	}
	want, got := run(bufioAPI), run(streamAPI)
	if diff := cmp.Diff(want, got, cmpopts.EquateErrors()); diff != "" {
		t.Errorf("(-bufio +stream):\n%s", diff)
	}
	for _, e := range want {
		if e.Panic == "" && e.Err == nil {
			t.Errorf("%s: neither a panic nor an error under bufio: the case tests nothing", e.Op)
		}
	}
}
