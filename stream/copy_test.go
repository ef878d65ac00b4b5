package stream

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// copyResult is what CopyRecords or CopyBytes returned, what the writer
// received, and what a Read of the rest of the input then gives.
type copyResult struct {
	Written, Records int64
	Err              error
	Out              string
	Rest             string
	RestErr          error
}

// copyWith runs copy on a Reader of the given size over src, writing to
// w, then reads the rest of the input.
func copyWith(src io.Reader, size int, w *faultWriter, copy func(*Reader, io.Writer) (int64, int64, error)) copyResult {
	r := NewReaderSize(src, size)
	var res copyResult
	res.Written, res.Records, res.Err = copy(r, w)
	rest, err := io.ReadAll(r)
	res.Out, res.Rest, res.RestErr = string(w.out), string(rest), err
	return res
}

// writeAll writes p to w until all is written or a write fails: a short
// write without an error breaks io.Writer's rule, and bufio's WriteTo
// writes the rest, so here too; a write of nothing is io.ErrShortWrite.
func writeAll(w io.Writer, p []byte) (n int, err error) {
	for n < len(p) {
		m, werr := w.Write(p[n:])
		if m < 0 {
			panic(errNegativeWrite)
		}
		n += m
		if werr != nil {
			return n, werr
		}
		if m == 0 {
			return n, io.ErrShortWrite
		}
	}
	return n, nil
}

// naiveCopyRecords copies n records one by one with bufio's ReadBytes: a
// record ends at delim or, for the last, at the end of the input; a
// record cut by a read error or a failed write is not counted.
func naiveCopyRecords(src io.Reader, w io.Writer, delim byte, n int64) (written, records int64, err error) {
	br := bufio.NewReaderSize(src, 16)
	for records < n {
		line, rerr := br.ReadBytes(delim)
		m, werr := writeAll(w, line)
		written += int64(m)
		if werr != nil {
			return written, records + int64(bytes.Count(line[:m], []byte{delim})), werr
		}
		switch {
		case rerr == nil:
			records++
		case rerr == io.EOF:
			if len(line) > 0 {
				records++
			}
			return written, records, nil
		default:
			return written, records, rerr
		}
	}
	return written, records, nil
}

// naiveCopyBytes copies n bytes a few at a time with bufio's Peek (which
// gives up on (0, nil) reads as a Reader does) and Read.
func naiveCopyBytes(src io.Reader, w io.Writer, n int64) (written int64, err error) {
	br := bufio.NewReaderSize(src, 16)
	buf := make([]byte, 7)
	for written < n {
		if _, err := br.Peek(1); err == io.EOF {
			return written, nil
		} else if err != nil {
			return written, err
		}
		m, _ := br.Read(buf[:min(int64(len(buf)), n-written)])
		k, err := writeAll(w, buf[:m])
		written += int64(k)
		if err != nil {
			return written, err
		}
	}
	return written, nil
}

// copyCase is a random copy: the input, its faults, the writer's faults.
type copyCase struct {
	data      []byte
	delim     byte
	n         int64
	size      int
	steps     []int // read caps
	errAt     int   // read error (-1: none)
	transient bool
	withData  bool
	wsteps    []int // write caps, with a nil error
	werrAt    int   // write error (-1: none)
	peek      int   // bytes peeked (buffered, not consumed) before the copy, if no read error
}

func (c copyCase) reader() *faultReader {
	r := newFaultReader(c.data)
	r.steps, r.errAt, r.transient, r.withData = c.steps, c.errAt, c.transient, c.withData
	return r
}

func (c copyCase) writer() *faultWriter {
	w := newFaultWriter()
	w.steps, w.errAt = c.wsteps, c.werrAt
	return w
}

func (c copyCase) String() string {
	return fmt.Sprintf("%d bytes, delim %q, n %d, size %d, read caps %v, read error at %d (transient %v, with data %v), write caps %v, write error at %d, peek %d",
		len(c.data), c.delim, c.n, c.size, c.steps, c.errAt, c.transient, c.withData, c.wsteps, c.werrAt, c.peek)
}

func randomCopyCase(rng *rand.Rand) copyCase {
	ns := []int64{0, 1, 2, 3, 10, 63, 64, 65, 100, 1000, 1 << 62}
	sizes := []int{16, 17, 100, 4096}
	c := copyCase{
		data:   randomData(rng, rng.IntN(5000)),
		delim:  []byte{'\n', ' ', 'a'}[rng.IntN(3)],
		n:      ns[rng.IntN(len(ns))],
		size:   sizes[rng.IntN(len(sizes))],
		errAt:  -1,
		werrAt: -1,
	}
	if rng.IntN(2) == 0 {
		c.n = rng.Int64N(int64(len(c.data)) + 2)
	}
	for range rng.IntN(3) {
		// Short reads and runs of zero reads short of io.ErrNoProgress.
		c.steps = append(c.steps, []int{1, 3, 16, 100, 0}[rng.IntN(5)])
	}
	if rng.IntN(3) == 0 {
		c.errAt, c.transient = rng.IntN(len(c.data)+1), rng.IntN(2) == 0
	}
	c.withData = rng.IntN(2) == 0
	for range rng.IntN(3) {
		c.wsteps = append(c.wsteps, 1+rng.IntN(20))
	}
	if rng.IntN(3) == 0 {
		c.werrAt = rng.IntN(len(c.data) + 1)
	}
	if rng.IntN(3) == 0 {
		c.peek = rng.IntN(c.size + 1)
	}
	return c
}

// checkCopy compares a copy by stream with the naive loop over the same
// faults: the counts, the error, the bytes written, and, for an input
// without a read error, that the rest of the input starts just after the
// last byte copied.
func checkCopy(t *testing.T, c copyCase, streamCopy func(*Reader, io.Writer) (int64, int64, error), naive func(io.Reader, io.Writer) (int64, int64, error)) {
	t.Helper()
	var want copyResult
	w := c.writer()
	want.Written, want.Records, want.Err = naive(c.reader(), w)
	want.Out = string(w.out)
	got := copyWith(c.reader(), c.size, c.writer(), func(r *Reader, w io.Writer) (int64, int64, error) {
		if c.peek > 0 && c.errAt < 0 {
			r.Peek(c.peek) // whatever it returns, it consumes nothing
		}
		return streamCopy(r, w)
	})
	if c.errAt < 0 {
		want.Rest = string(c.data[want.Written:])
	} else {
		// After a read error the rest depends on where it is pending.
		got.Rest, got.RestErr = "", nil
	}
	if diff := cmp.Diff(want, got, cmpopts.EquateErrors()); diff != "" {
		t.Fatalf("%v (-naive +stream):\n%s", c, diff)
	}
}

// TestCopyDiff compares CopyRecords and CopyBytes with the naive loops on
// random inputs, faults and counts.
func TestCopyDiff(t *testing.T) {
	for i := range uint64(*diffN) {
		seed := *diffSeed + i
		c := randomCopyCase(rand.New(rand.NewPCG(seed, seed)))
		t.Run(fmt.Sprint("CopyRecords/seed=", seed), func(t *testing.T) {
			checkCopy(t, c, func(r *Reader, w io.Writer) (int64, int64, error) {
				return r.CopyRecords(w, c.delim, c.n)
			}, func(src io.Reader, w io.Writer) (int64, int64, error) {
				return naiveCopyRecords(src, w, c.delim, c.n)
			})
		})
		t.Run(fmt.Sprint("CopyBytes/seed=", seed), func(t *testing.T) {
			checkCopy(t, c, func(r *Reader, w io.Writer) (int64, int64, error) {
				n, err := r.CopyBytes(w, c.n)
				return n, 0, err
			}, func(src io.Reader, w io.Writer) (int64, int64, error) {
				n, err := naiveCopyBytes(src, w, c.n)
				return n, 0, err
			})
		})
	}
}

// TestCopyRecords covers the edges by name: n = 0 (no read at all), n
// reached mid-buffer, a delimiter as the very last byte, a final record
// without one, n past the input, records that straddle refills, and the
// counting path for more than 64 records.
func TestCopyRecords(t *testing.T) {
	long := strings.Repeat("x", 39) + "\n"
	tests := []struct {
		name  string
		data  string
		size  int
		n     int64
		want  copyResult
		reads int // Read calls on the input during the copy
	}{
		{"n=0", "a\nbb\n", 16, 0, copyResult{Rest: "a\nbb\n"}, 0},
		{"mid-buffer", "a\nbb\nccc\n", 16, 1, copyResult{2, 1, nil, "a\n", "bb\nccc\n", nil}, 1},
		{"delimiter last", "a\nbb\nccc\n", 16, 3, copyResult{9, 3, nil, "a\nbb\nccc\n", "", nil}, 1},
		{"delimiter last, n past it", "a\nbb\nccc\n", 16, 4, copyResult{9, 3, nil, "a\nbb\nccc\n", "", nil}, 2},
		{"no final delimiter", "a\nbb\nccc", 16, 5, copyResult{8, 3, nil, "a\nbb\nccc", "", nil}, 2},
		{"no final delimiter, stop before it", "a\nbb\nccc", 16, 2, copyResult{5, 2, nil, "a\nbb\n", "ccc", nil}, 1},
		{"empty input", "", 16, 1, copyResult{}, 1},
		{"empty records", "\n\n\n", 16, 2, copyResult{2, 2, nil, "\n\n", "\n", nil}, 1},
		{"straddling refills", long + long + long, 16, 2, copyResult{80, 2, nil, long + long, long, nil}, 5},
		{"counted", strings.Repeat("r\n", 1000), 4096, 100, copyResult{200, 100, nil, strings.Repeat("r\n", 100), strings.Repeat("r\n", 900), nil}, 1},
		{"counted, all", strings.Repeat("r\n", 1000), 4096, 2000, copyResult{2000, 1000, nil, strings.Repeat("r\n", 1000), "", nil}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := newFaultReader([]byte(tt.data))
			reads := 0
			got := copyWith(src, tt.size, newFaultWriter(), func(r *Reader, w io.Writer) (int64, int64, error) {
				defer func() { reads = len(src.calls) }()
				return r.CopyRecords(w, '\n', tt.n)
			})
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateErrors()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if reads != tt.reads {
				t.Errorf("%d reads during the copy, want %d", reads, tt.reads)
			}
		})
	}
}

// TestCopyRecordsWrites checks that CopyRecords writes runs of records
// straight from the buffer, one Write for what a fill brought, and not a
// Write per record.
func TestCopyRecordsWrites(t *testing.T) {
	data := strings.Repeat("ab\n", 10)
	w := newFaultWriter()
	r := NewReaderSize(strings.NewReader(data), 16)
	if _, _, err := r.CopyRecords(w, '\n', 9); err != nil {
		t.Fatal(err)
	}
	want := []string{data[:16], data[16:27]}
	if diff := cmp.Diff(want, w.writes()); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
}

// TestCopyWriteErrors checks the counts after a write error in the middle
// of a run, and that a writer that accepts nothing without an error
// gets io.ErrShortWrite rather than being called forever.
func TestCopyWriteErrors(t *testing.T) {
	data := "one\ntwo\nthree\n"
	w := newFaultWriter()
	w.errAt = 6
	written, records, err := NewReader(strings.NewReader(data)).CopyRecords(w, '\n', 3)
	if diff := cmp.Diff([]any{int64(6), int64(1), errFault}, []any{written, records, err}, cmpopts.EquateErrors()); diff != "" {
		t.Errorf("CopyRecords to a writer failing at byte 6 (-want +got):\n%s", diff)
	}
	w = newFaultWriter()
	w.errAt = 6
	written, err = NewReader(strings.NewReader(data)).CopyBytes(w, 10)
	if diff := cmp.Diff([]any{int64(6), errFault}, []any{written, err}, cmpopts.EquateErrors()); diff != "" {
		t.Errorf("CopyBytes to a writer failing at byte 6 (-want +got):\n%s", diff)
	}

	for _, name := range []string{"CopyRecords", "CopyBytes"} {
		w := &stuckWriter{}
		r := NewReader(strings.NewReader(data))
		var err error
		if name == "CopyRecords" {
			_, _, err = r.CopyRecords(w, '\n', 2)
		} else {
			_, err = r.CopyBytes(w, 10)
		}
		if err != io.ErrShortWrite {
			t.Errorf("%s to a writer of (0, nil): %v after %d writes, want io.ErrShortWrite", name, err, w.calls)
		}
	}
}

// stuckWriter accepts nothing and returns no error, up to a point: past
// 1000 calls it fails, so that a caller that loops on it ends.
type stuckWriter struct{ calls int }

var errStuck = errors.New("stuckWriter: 1000 calls without progress")

func (w *stuckWriter) Write(p []byte) (int, error) {
	if w.calls++; w.calls > 1000 {
		return 0, errStuck
	}
	return 0, nil
}

// TestCopyReadErrors checks the end of the input and read errors: an
// input of (0, nil) reads ends in io.ErrNoProgress; a negative count is
// ErrNegativeCount.
func TestCopyReadErrors(t *testing.T) {
	zeros := newFaultReader([]byte("data"))
	zeros.steps = []int{0}
	r := NewReaderSize(zeros, 16)
	if n, err := r.CopyBytes(io.Discard, 3); n != 0 || err != io.ErrNoProgress {
		t.Errorf("CopyBytes over (0, nil) reads = %d, %v; want 0, io.ErrNoProgress", n, err)
	}
	if n, recs, err := r.CopyRecords(io.Discard, '\n', 3); n != 0 || recs != 0 || err != io.ErrNoProgress {
		t.Errorf("CopyRecords over (0, nil) reads = %d, %d, %v; want 0, 0, io.ErrNoProgress", n, recs, err)
	}
	if _, err := r.CopyBytes(io.Discard, -1); err != ErrNegativeCount {
		t.Errorf("CopyBytes(-1): %v, want ErrNegativeCount", err)
	}
	if _, _, err := r.CopyRecords(io.Discard, '\n', -1); err != ErrNegativeCount {
		t.Errorf("CopyRecords(-1): %v, want ErrNegativeCount", err)
	}
}

// callCounter is a file whose Write and ReadFrom calls are counted: the
// calls bufio makes on the file it wraps.
type callCounter struct {
	f     *os.File
	calls int
}

func (c *callCounter) Write(p []byte) (int, error) {
	c.calls++
	return c.f.Write(p)
}

func (c *callCounter) ReadFrom(r io.Reader) (int64, error) {
	c.calls++
	return c.f.ReadFrom(r)
}

// TestReadFromKeepsBuffering: records made of a formatted header and
// io.CopyN of a body from memory, into a Writer over a file, take as many
// calls on the file as under bufio (a buffer's worth at a time), not one
// flush and one ReadFrom per record: a source no kernel copy can take
// does not flush the buffer. The file gets the same bytes.
func TestReadFromKeepsBuffering(t *testing.T) {
	t.Setenv(policyEnv, "bufio")
	dir := t.TempDir()
	body := bytes.Repeat([]byte("b"), 40)
	write := func(w interface {
		io.Writer
		Flush() error
	}) {
		for i := range 1000 {
			fmt.Fprintf(w, "record %d: ", i)
			if _, err := io.CopyN(w, bytes.NewReader(body), int64(len(body))); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	create := func(name string) *os.File {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}

	bf := &callCounter{f: create("bufio")}
	write(bufio.NewWriter(bf))
	sw := NewWriter(create("stream"))
	write(sw)

	type result struct {
		Calls  int
		Output string
	}
	output := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%d bytes, sha256 %x", len(b), sha256.Sum256(b))
	}
	want := result{bf.calls, output("bufio")}
	got := result{int(sw.Info().Writes), output("stream")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("calls on the file and what it got (-bufio +stream):\n%s", diff)
	}
}
