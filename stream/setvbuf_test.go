package stream

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The in-memory Setvbuf and Sync tests; those on descriptors are in the
// fd_*_test.go files.

// TestSetvbufInvalid checks that an unknown mode or a negative size is an
// error that wraps ErrInvalidMode or ErrInvalidSize and changes nothing:
// not the decision, not the buffered bytes, and a Writer does not flush.
func TestSetvbufInvalid(t *testing.T) {
	tests := []struct {
		mode Mode
		size int
		want error
	}{
		{Mode(3), 0, ErrInvalidMode},
		{Mode(-1), 4096, ErrInvalidMode},
		{FullyBuffered, -1, ErrInvalidSize},
		{Unbuffered, -4096, ErrInvalidSize},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%v,%d", tt.mode, tt.size), func(t *testing.T) {
			r := NewReaderSize(strings.NewReader("line one\nline two\n"), 32)
			r.ReadByte()
			infoR, bufR := r.Info(), r.Buffered()
			if err := r.Setvbuf(tt.mode, tt.size); !errors.Is(err, tt.want) {
				t.Errorf("Reader.Setvbuf: %v, want %v", err, tt.want)
			}
			if diff := cmp.Diff([]any{infoR, bufR}, []any{r.Info(), r.Buffered()}); diff != "" {
				t.Errorf("Reader changed (-before +after):\n%s", diff)
			}

			fw := newFaultWriter()
			w := NewWriterSize(fw, 32)
			w.WriteString("abc")
			infoW := w.Info()
			if err := w.Setvbuf(tt.mode, tt.size); !errors.Is(err, tt.want) {
				t.Errorf("Writer.Setvbuf: %v, want %v", err, tt.want)
			}
			if diff := cmp.Diff([]any{infoW, 3, []string(nil)}, []any{w.Info(), w.Buffered(), fw.writes()}); diff != "" {
				t.Errorf("Writer changed (-before +after):\n%s", diff)
			}
		})
	}
}

// TestSetvbufReaderKeepsInput switches a Reader between random modes and
// sizes while reading it in random ways: every byte of the input comes
// out once, in order, and the mode is the one asked for.
func TestSetvbufReaderKeepsInput(t *testing.T) {
	sizes := []int{0, 1, 16, 17, 100, 4096}
	for i := range uint64(*diffN) {
		seed := *diffSeed + i
		rng := rand.New(rand.NewPCG(seed, seed))
		data := randomData(rng, rng.IntN(3000))
		r := NewReaderSize(iotestHalf(data), []int{16, 100, 4096}[rng.IntN(3)])
		var out []byte
		var log []string
		for step := 0; ; step++ {
			if step > 10*len(data)+100 {
				t.Fatalf("seed %d: no end after %d steps: %v", seed, step, log)
			}
			var err error
			switch rng.IntN(6) {
			case 0:
				mode, size := Mode(rng.IntN(3)), sizes[rng.IntN(len(sizes))]
				log = append(log, fmt.Sprintf("Setvbuf(%v, %d) with %d buffered", mode, size, r.Buffered()))
				if err := r.Setvbuf(mode, size); err != nil {
					t.Fatalf("seed %d: %s: %v", seed, log[len(log)-1], err)
				}
				if got := r.Info().Mode; got != mode {
					t.Fatalf("seed %d: %s: mode %v", seed, log[len(log)-1], got)
				}
				continue
			case 1:
				var c byte
				if c, err = r.ReadByte(); err == nil {
					out = append(out, c)
				}
			case 2:
				p := make([]byte, rng.IntN(40))
				var n int
				n, err = r.Read(p)
				out = append(out, p[:n]...)
			case 3:
				var s string
				s, err = r.ReadString('\n')
				out = append(out, s...)
			case 4:
				var p []byte
				p, err = r.Peek(rng.IntN(20))
				n, _ := r.Discard(len(p))
				out = append(out, p[:n]...)
			case 5:
				var p []byte
				p, err = r.ReadSlice(' ')
				out = append(out, p...)
			}
			if err == io.EOF {
				break
			}
		}
		if diff := cmp.Diff(string(data), string(out)); diff != "" {
			t.Fatalf("seed %d: after %v (-input +read):\n%s", seed, log, diff)
		}
	}
}

// iotestHalf is a reader of data that returns half of what is asked.
func iotestHalf(data []byte) io.Reader {
	r := newFaultReader(data)
	r.steps = []int{1, 7, 50}
	return r
}

// TestSetvbufUnbufferedReader checks that an unbuffered Reader never asks
// its reader for more than the caller needs: byte- and line-wise calls ask
// for one byte at a time, Read(p) for len(p), so the underlying reader's
// offset is never past what was returned.
func TestSetvbufUnbufferedReader(t *testing.T) {
	ones := func(n int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = 1
		}
		return s
	}
	tests := []struct {
		name string
		op   func(r *Reader) (string, error)
		want []int // len(p) of each Read
		got  string
	}{
		{"ReadByte", func(r *Reader) (string, error) { c, err := r.ReadByte(); return string([]byte{c}), err }, ones(1), "é"[:1]},
		{"ReadRune", func(r *Reader) (string, error) { c, _, err := r.ReadRune(); return string(c), err }, ones(2), "é"},
		{"ReadSlice", func(r *Reader) (string, error) { s, err := r.ReadSlice('\n'); return string(s), err }, ones(8), "é line\n"},
		{"ReadString", func(r *Reader) (string, error) { return r.ReadString(' ') }, ones(3), "é "},
		{"ReadBytes", func(r *Reader) (string, error) { s, err := r.ReadBytes('\n'); return string(s), err }, ones(8), "é line\n"},
		{"ReadLine", func(r *Reader) (string, error) { s, _, err := r.ReadLine(); return string(s), err }, ones(8), "é line"},
		{"Getline", func(r *Reader) (string, error) { s, err := r.Getline(nil); return string(s), err }, ones(8), "é line\n"},
		{"Read(5)", func(r *Reader) (string, error) {
			p := make([]byte, 5)
			n, err := r.Read(p)
			return string(p[:n]), err
		}, []int{5}, "é li"},
		{"Peek(3)", func(r *Reader) (string, error) { s, err := r.Peek(3); return string(s), err }, ones(3), "é "},
		{"Discard(3)", func(r *Reader) (string, error) { n, err := r.Discard(3); return fmt.Sprint(n), err }, ones(3), "3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := newFaultReader([]byte("é line\nnext line\n"))
			r := NewReader(src)
			if err := r.Setvbuf(Unbuffered, 0); err != nil {
				t.Fatal(err)
			}
			got, err := tt.op(r)
			if err != nil || got != tt.got {
				t.Errorf("got %q, %v; want %q, nil", got, err, tt.got)
			}
			var lens []int
			for _, c := range src.calls {
				lens = append(lens, c.Len)
			}
			if diff := cmp.Diff(tt.want, lens); diff != "" {
				t.Errorf("len(p) of the reads (-want +got):\n%s", diff)
			}
			if want := len(tt.got); tt.name != "Peek(3)" && r.Buffered() != 0 || tt.name == "Peek(3)" && r.Buffered() != want {
				t.Errorf("%d bytes buffered after it", r.Buffered())
			}
		})
	}
}

// TestSetvbufUnbufferedReaderKeepsBuffered checks that a Reader made
// unbuffered returns what it had buffered before it reads again, one byte
// at a time.
func TestSetvbufUnbufferedReaderKeepsBuffered(t *testing.T) {
	src := newFaultReader([]byte("abcdef\nghi\n"))
	src.steps = []int{4}
	r := NewReader(src)
	r.ReadByte() // buffers "bcd"
	if err := r.Setvbuf(Unbuffered, 0); err != nil {
		t.Fatal(err)
	}
	s, err := r.ReadString('\n')
	if s != "bcdef\n" || err != nil {
		t.Fatalf("ReadString = %q, %v; want %q, nil", s, err, "bcdef\n")
	}
	var lens []int
	for _, c := range src.calls {
		lens = append(lens, c.Len)
	}
	if diff := cmp.Diff([]int{4096, 1, 1, 1}, lens); diff != "" {
		t.Errorf("len(p) of the reads (-want +got):\n%s", diff)
	}
}

// writeStep is a write by one of the methods of a Writer, with the
// underlying writes it must cause.
type writeStep struct {
	op     string // Write, WriteString, WriteByte, WriteRune, ReadFrom, Flush
	arg    string
	writes []string // the underlying writes it causes
}

func (s writeStep) do(w *Writer) error {
	var err error
	switch s.op {
	case "Write":
		_, err = w.Write([]byte(s.arg))
	case "WriteString":
		_, err = w.WriteString(s.arg)
	case "WriteByte":
		err = w.WriteByte(s.arg[0])
	case "WriteRune":
		_, err = w.WriteRune([]rune(s.arg)[0])
	case "ReadFrom":
		_, err = w.ReadFrom(iotestHalf([]byte(s.arg)))
	case "Flush":
		err = w.Flush()
	default:
		panic(s.op)
	}
	return err
}

// checkWriteSteps runs steps on a Writer in mode over a faultWriter (a
// StringWriter if sw) and compares the underlying writes of each step.
func checkWriteSteps(t *testing.T, mode Mode, size int, sw bool, steps []writeStep) {
	t.Helper()
	fw := newFaultWriter()
	var under io.Writer = fw
	if sw {
		under = stringFaultWriter{fw}
	}
	w := NewWriter(under)
	if err := w.Setvbuf(mode, size); err != nil {
		t.Fatal(err)
	}
	seen := sinceLast(&fw.calls)
	for i, s := range steps {
		if err := s.do(w); err != nil {
			t.Fatalf("step %d, %s(%q): %v", i, s.op, s.arg, err)
		}
		var got []string
		for _, c := range seen() {
			got = append(got, c.Data)
		}
		if diff := cmp.Diff(s.writes, got); diff != "" {
			t.Errorf("step %d, %s(%q): underlying writes (-want +got):\n%s", i, s.op, s.arg, diff)
		}
	}
}

// TestSetvbufLineWriter checks line buffering: each write sends
// everything through its last newline in one underlying write and keeps
// the tail; a write that overflows the buffer is written as in full mode.
func TestSetvbufLineWriter(t *testing.T) {
	steps := []writeStep{
		{"Write", "abc", nil},
		{"Write", "de\nfg", []string{"abcde\n"}},
		{"WriteString", "x\ny\nz", []string{"fgx\ny\n"}},
		{"WriteByte", "\n", []string{"z\n"}},
		{"WriteRune", "é", nil},
		{"WriteRune", "\n", []string{"é\n"}},
		{"WriteByte", "q", nil},
		{"ReadFrom", "r\ns\nt", []string{"qr\ns\n"}},
		{"Write", "", nil},
		{"Write", "\n\n", []string{"t\n\n"}},
		{"Write", "no newline", nil},
		{"Flush", "", []string{"no newline"}},
		// Past the 16-byte buffer: a full buffer goes out as in full mode,
		// then the rest through its newline.
		{"Write", "0123456789", nil},
		{"Write", "abcdef\nghijkl", []string{"0123456789abcdef", "\n"}},
		{"Write", "m", nil},
		{"Write", "\n", []string{"ghijklm\n"}},
		// A write larger than the empty buffer goes out whole.
		{"Write", "a long line, longer than the buffer\nand its tail", []string{"a long line, longer than the buffer\nand its tail"}},
	}
	for _, sw := range []bool{false, true} {
		t.Run(fmt.Sprint("StringWriter=", sw), func(t *testing.T) {
			checkWriteSteps(t, LineBuffered, 16, sw, steps)
		})
	}
}

// TestSetvbufLineWriterFailedFlush checks what a line-buffered write
// returns when writing out its lines fails: all of p taken, with the
// error; the bytes not written stay buffered and the error is sticky.
func TestSetvbufLineWriterFailedFlush(t *testing.T) {
	type result struct {
		N, Buffered int
		Err, Next   error
	}
	tests := []struct {
		op   string
		sw   bool
		want result
	}{
		{"Write", false, result{5, 3, errFault, errFault}},
		{"WriteString", false, result{5, 3, errFault, errFault}},
		{"WriteString", true, result{5, 3, errFault, errFault}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/StringWriter=%v", tt.op, tt.sw), func(t *testing.T) {
			fw := newFaultWriter()
			fw.errAt = 2 // "ab" of "ab\n" goes out, then the write fails
			var under io.Writer = fw
			if tt.sw {
				under = stringFaultWriter{fw}
			}
			w := NewWriter(under)
			if err := w.Setvbuf(LineBuffered, 16); err != nil {
				t.Fatal(err)
			}
			var got result
			if tt.op == "Write" {
				got.N, got.Err = w.Write([]byte("ab\ncd"))
			} else {
				got.N, got.Err = w.WriteString("ab\ncd")
			}
			got.Buffered = w.Buffered()
			_, got.Next = w.Write([]byte("x"))
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateErrors()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestSetvbufUnbufferedWriter checks that each write of an unbuffered
// Writer is one underlying write of exactly its bytes.
func TestSetvbufUnbufferedWriter(t *testing.T) {
	steps := []writeStep{
		{"Write", "abc", []string{"abc"}},
		{"WriteString", "de\nf", []string{"de\nf"}},
		{"WriteByte", "g", []string{"g"}},
		{"WriteRune", "😀", []string{"😀"}},
		{"Write", strings.Repeat("x", 5000), []string{strings.Repeat("x", 5000)}},
		{"ReadFrom", "0123456789", []string{"0", "1234567", "89"}}, // as iotestHalf reads
		{"Flush", "", nil},
	}
	for _, sw := range []bool{false, true} {
		t.Run(fmt.Sprint("StringWriter=", sw), func(t *testing.T) {
			checkWriteSteps(t, Unbuffered, 0, sw, steps)
		})
	}
}

// TestSetvbufUnbufferedWriterShort checks that an unbuffered Writer goes
// on after short writes, stops at a failed one with the count written,
// and keeps the error.
func TestSetvbufUnbufferedWriterShort(t *testing.T) {
	fw := newFaultWriter()
	fw.steps, fw.errAt = []int{3}, 10
	w := NewWriter(fw)
	w.Setvbuf(Unbuffered, 0)
	n, err := w.Write([]byte("abcdefgh"))
	if n != 8 || err != nil {
		t.Errorf("Write of 8 bytes through 3-byte writes = %d, %v; want 8, nil", n, err)
	}
	n, err = w.Write([]byte("ijklm"))
	if n != 2 || err != errFault {
		t.Errorf("Write failing after 2 bytes = %d, %v; want 2, %v", n, err, errFault)
	}
	if err := w.WriteByte('z'); err != errFault {
		t.Errorf("WriteByte after the failure: %v, want %v", err, errFault)
	}
	if diff := cmp.Diff([]string{"abcdefgh", "defgh", "gh", "ijklm"}, fw.writes()); diff != "" {
		t.Errorf("underlying writes (-want +got):\n%s", diff)
	}
}

// TestSetvbufWriterFlushes checks that Setvbuf on a Writer flushes first,
// and that when the flush fails it returns the error and changes nothing.
func TestSetvbufWriterFlushes(t *testing.T) {
	fw := newFaultWriter()
	w := NewWriter(fw)
	w.WriteString("abc")
	if err := w.Setvbuf(LineBuffered, 100); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]any{[]string{"abc"}, LineBuffered, 100, 0}, []any{fw.writes(), w.Info().Mode, w.Size(), w.Buffered()}); diff != "" {
		t.Errorf("after Setvbuf(LineBuffered, 100): writes, mode, size, buffered (-want +got):\n%s", diff)
	}

	fw = newFaultWriter()
	fw.errAt = 1
	w = NewWriter(fw)
	w.WriteString("abc")
	before := w.Info()
	if err := w.Setvbuf(Unbuffered, 16); err != errFault {
		t.Errorf("Setvbuf with a failing flush: %v, want %v", err, errFault)
	}
	// The failed flush wrote "a"; the rest stays buffered, as after Flush.
	if diff := cmp.Diff([]any{before.Mode, before.Size, 2}, []any{w.Info().Mode, w.Size(), w.Buffered()}); diff != "" {
		t.Errorf("after a failed Setvbuf: mode, size, buffered (-want +got):\n%s", diff)
	}
}

// TestSetvbufSizes checks the sizes Setvbuf gives in-memory streams: the
// size asked for (a Reader at least 16 bytes, and at least what it holds
// unread), and for size 0 what the stream had by default.
func TestSetvbufSizes(t *testing.T) {
	tests := []struct {
		size, readerSize, writerSize int
	}{
		{0, 4096, 4096},
		{1, 16, 1},
		{16, 16, 16},
		{100, 100, 100},
		{65536, 65536, 65536},
	}
	for _, tt := range tests {
		r, w := NewReader(strings.NewReader("x")), NewWriter(io.Discard)
		r.Setvbuf(FullyBuffered, tt.size)
		w.Setvbuf(FullyBuffered, tt.size)
		if r.Size() != tt.readerSize || w.Size() != tt.writerSize {
			t.Errorf("Setvbuf(FullyBuffered, %d): Reader %d, Writer %d; want %d, %d", tt.size, r.Size(), w.Size(), tt.readerSize, tt.writerSize)
		}
	}
	r := NewReaderSize(strings.NewReader(strings.Repeat("y", 200)), 100)
	r.Peek(100)
	r.Setvbuf(FullyBuffered, 16)
	if r.Buffered() != 100 || r.Size() < 100 {
		t.Errorf("Setvbuf(FullyBuffered, 16) with 100 bytes unread: %d buffered, size %d; want 100, >= 100", r.Buffered(), r.Size())
	}
}

// seeker is a reader whose Seek moves a faultReader's offset, or fails.
type seeker struct {
	*faultReader
	err   error
	seeks []int64
}

func (s *seeker) Seek(off int64, whence int) (int64, error) {
	s.seeks = append(s.seeks, off)
	if s.err != nil {
		return 0, s.err
	}
	if whence != io.SeekCurrent {
		panic("only SeekCurrent")
	}
	s.pos += int(off)
	return int64(s.pos), nil
}

// TestSyncInMemory checks Reader.Sync: on a seekable input it moves the
// offset back by the unread bytes and drops them (also past a pending
// EOF); on a non-seekable input (no Seek, or ESPIPE) it keeps them and
// returns nil; another seek error is returned and nothing changes.
func TestSyncInMemory(t *testing.T) {
	const data = "line one\nline two\nline three\n"
	tests := []struct {
		name      string
		withData  bool
		seekable  bool
		seekErr   error
		wantErr   error
		wantSeeks []int64
		wantPos   int // the input's offset after Sync
	}{
		{"seekable", false, true, nil, nil, []int64{-20}, 9},
		{"seekable, EOF pending", true, true, nil, nil, []int64{-20}, 9},
		{"not a Seeker", false, false, nil, nil, nil, 29},
		{"ESPIPE", false, true, &os.PathError{Op: "seek", Path: "|1", Err: syscall.ESPIPE}, nil, []int64{-20}, 29},
		{"seek error", false, true, errFault, errFault, []int64{-20}, 29},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fr := newFaultReader([]byte(data))
			fr.withData = tt.withData
			var src io.Reader = fr
			sk := &seeker{faultReader: fr, err: tt.seekErr}
			if tt.seekable {
				src = sk
			}
			r := NewReader(src)
			if line, _ := r.ReadString('\n'); line != "line one\n" {
				t.Fatalf("ReadString = %q", line)
			}
			if err := r.Sync(); !errors.Is(err, tt.wantErr) {
				t.Errorf("Sync: %v, want %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.wantSeeks, sk.seeks); diff != "" {
				t.Errorf("seeks (-want +got):\n%s", diff)
			}
			if fr.pos != tt.wantPos {
				t.Errorf("input offset %d, want %d", fr.pos, tt.wantPos)
			}
			if err := r.UnreadByte(); err != ErrInvalidUnreadByte {
				t.Errorf("UnreadByte after Sync: %v, want ErrInvalidUnreadByte", err)
			}
			rest, err := io.ReadAll(r)
			if diff := cmp.Diff([]any{data[9:], nil}, []any{string(rest), err}, cmpopts.EquateErrors()); diff != "" {
				t.Errorf("the rest of the input (-want +got):\n%s", diff)
			}
		})
	}
	// A strings.Reader: its offset goes back to just after what was read.
	sr := strings.NewReader("0123456789abcdefghij")
	r := NewReaderSize(sr, 16)
	r.ReadByte()
	r.ReadByte()
	if err := r.Sync(); err != nil || sr.Len() != 18 || r.Buffered() != 0 {
		t.Errorf("Sync over a strings.Reader: %v, %d bytes left in it, %d buffered; want nil, 18, 0", err, sr.Len(), r.Buffered())
	}
	if rest, _ := io.ReadAll(r); string(rest) != "23456789abcdefghij" {
		t.Errorf("after Sync, the rest is %q", rest)
	}
	// Nothing unread: no seek.
	sk := &seeker{faultReader: newFaultReader([]byte("ab"))}
	r = NewReader(sk)
	io.ReadAll(r)
	if err := r.Sync(); err != nil || sk.seeks != nil {
		t.Errorf("Sync with nothing unread: %v, seeks %v; want nil, none", err, sk.seeks)
	}
}

// TestWriterBufferAfterRedecision: Setvbuf and SetPolicy leave a Writer's
// buffer the same way. Unbuffered, Available is 0 and AvailableBuffer has
// no room (the old buffer is dropped, also after ReadFrom used one); full,
// the buffer has the decided size whichever call made the decision.
func TestWriterBufferAfterRedecision(t *testing.T) {
	type state struct{ Available, Buffered, AvailableBufferCap int }
	t.Setenv(policyEnv, "")
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	go io.Copy(io.Discard, pr)

	// Over a pipe SetPolicy sizes the buffer; over anything else the
	// policy does not apply and the size stays bufio's 4096.
	for _, under := range []struct {
		name           string
		w              io.Writer
		first, policy2 int // Available after the first Write, and with policy 2000
	}{{"memory", io.Discard, 4095, 4096}, {"pipe", pw, NewWriter(pw).Size() - 1, 2000}} {
		w := NewWriter(under.w)
		steps := []struct {
			name string
			do   func() error
			want state
		}{
			{"Write", func() error { _, err := w.WriteString("x"); return err }, state{under.first, 1, under.first}},
			{"Setvbuf none", func() error { return w.Setvbuf(Unbuffered, 0) }, state{0, 0, 0}},
			{"Write unbuffered", func() error { _, err := w.WriteString("y"); return err }, state{0, 0, 0}},
			{"ReadFrom unbuffered", func() error { _, err := w.ReadFrom(strings.NewReader("z")); return err }, state{0, 0, 0}},
			{"SetPolicy 2000", func() error { return w.SetPolicy(2000) }, state{0, 0, 0}},
			{"Setvbuf full 100", func() error { return w.Setvbuf(FullyBuffered, 100) }, state{100, 0, 100}},
			{"Write full", func() error { _, err := w.WriteString("abc"); return err }, state{97, 3, 97}},
			{"Setvbuf line 0", func() error { return w.Setvbuf(LineBuffered, 0) }, state{under.policy2, 0, under.policy2}},
		}
		for _, st := range steps {
			if err := st.do(); err != nil {
				t.Fatalf("%s: %s: %v", under.name, st.name, err)
			}
			got := state{w.Available(), w.Buffered(), cap(w.AvailableBuffer())}
			if diff := cmp.Diff(st.want, got); diff != "" {
				t.Errorf("%s: after %s (-want +got):\n%s", under.name, st.name, diff)
			}
		}
	}
}
