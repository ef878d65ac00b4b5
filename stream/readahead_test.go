package stream

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// Read-ahead is checked as the plain Reader is: the bufio-equivalence
// programs run over a real file with read-ahead on (and over a real pipe,
// which it reads as bufio), and the contracts it could break (order,
// errors after bytes, Sync, Setvbuf, SetPolicy, Reset, the owner's Close,
// leaks) have tests of their own; readahead_seen_test.go has the cases
// where reading ahead could be seen.

// streamAheadAPI is stream with read-ahead on every Reader it makes, at
// bufio's sizes so that the buffer boundaries (ErrBufferFull, Size) are
// bufio's whatever st_blksize the test's files have.
var streamAheadAPI = func() pkgAPI {
	api := streamAPI
	api.name = "stream readahead"
	// ahead sets read-ahead at the size r has (a Reader that NewReaderSize
	// returned as it was keeps its own size).
	ahead := func(r *Reader, size int) bufReader {
		if err := r.SetPolicy(ReadaheadSize(max(size, minReadBufferSize))); err != nil {
			panic(err)
		}
		return r
	}
	api.newReader = func(r io.Reader) bufReader { return ahead(NewReaderSize(r, bufioSize), bufioSize) }
	api.newReaderSize = func(r io.Reader, n int) bufReader { return ahead(NewReaderSize(r, n), n) }
	api.zeroReader = func() bufReader {
		r := new(Reader)
		if err := r.Setvbuf(FullyBuffered, bufioSize); err != nil {
			panic(err)
		}
		return ahead(r, bufioSize)
	}
	return api
}()

// fullReads makes a transcript independent of how many bytes each read(2)
// returned, for a pipe: Read becomes io.ReadFull and Buffered is not
// reported. Over a pipe what a Reader holds between calls depends on how
// the writes came in, for bufio as for stream. Over a regular file a
// read-ahead Reader's reads and Buffered are bufio's, and sameWrites
// leaves them as they are.
type fullReads struct{ sameWrites }

func (f fullReads) Read(p []byte) (int, error) { return io.ReadFull(f.bufReader, p) }
func (f fullReads) Buffered() int              { return 0 }

// sameWrites keeps a faultWriter from writing short with a nil error,
// which io.Writer forbids: after such a write bufio's WriteTo goes on
// with the bytes that follow, so what is lost depends on the sizes of its
// writes, and read-ahead's writes are other sizes.
type sameWrites struct{ bufReader }

func (f sameWrites) WriteTo(w io.Writer) (int64, error) {
	switch w.(type) {
	case *faultWriter, stringFaultWriter:
		w = wholeWrites{w}
	}
	return f.bufReader.WriteTo(w)
}

// wholeWrites continues a short write until it is whole or fails.
type wholeWrites struct{ w io.Writer }

func (x wholeWrites) Write(p []byte) (n int, err error) {
	for n < len(p) && err == nil {
		var m int
		m, err = x.w.Write(p[n:])
		n += m
	}
	return n, err
}

// aheadSource makes the descriptor a program reads: a regular file holding
// data, or a pipe that another goroutine writes data into in pieces. The
// returned function closes it and waits for the writer.
func aheadSource(p *prog, data []byte) (*os.File, func()) {
	if p.pick(2) == 0 {
		f, err := os.CreateTemp("", "readahead")
		if err != nil {
			panic(err)
		}
		os.Remove(f.Name())
		if _, err := f.Write(data); err != nil {
			panic(err)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			panic(err)
		}
		return f, func() { f.Close() }
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		panic(err)
	}
	piece := []int{1, 7, 100, 4096, 70000}[p.pick(5)]
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer pw.Close()
		for rest := data; len(rest) > 0; {
			n := min(piece, len(rest))
			if _, err := pw.Write(rest[:n]); err != nil {
				return // the reader closed its end
			}
			rest = rest[n:]
		}
	}()
	return pr, func() { pr.Close(); <-done }
}

// runAheadProg runs a Reader program over a file or a pipe; under stream
// the Reader reads ahead. The transcript leaves out the calls on the
// underlying reader, which read-ahead changes by design.
func runAheadProg(api pkgAPI, code, data []byte) []event {
	if api.name == streamAPI.name {
		api = streamAheadAPI
	}
	p := &prog{b: code}
	src, closeSrc := aheadSource(p, data)
	defer closeSrc()
	r, ctor := decodeReader(p, api, src)
	var rr bufReader = fullReads{sameWrites{r}}
	if st, err := src.Stat(); err == nil && st.Mode().IsRegular() {
		rr = sameWrites{r}
	}
	evs := []event{{Op: ctor, N: int64(r.Size())}}
	noCalls := func() []readCall { return nil }
	for p.more() {
		var e event
		panicked := capture(&e, func() { readerOp(p, api, rr, data, &e, &noCalls) })
		e.Reads, e.Writes = nil, nil
		evs = append(evs, e)
		if panicked {
			return evs
		}
		if strings.HasPrefix(e.Op, "WriteTo") && e.Err != nil {
			// Where a failed WriteTo leaves the input is not bufio's to
			// say: past the buffer it copies with the file's WriteTo
			// (io.Copy), which drops what it read and could not write,
			// and on a pipe that depends on how the writes came in.
			// Read-ahead keeps what it read and could not write.
			return evs
		}
	}
	e := event{Op: "ReadAll"}
	capture(&e, func() {
		all, err := io.ReadAll(rr)
		e.S, e.Err = string(all), err
	})
	return append(evs, e)
}

func TestReadaheadDiff(t *testing.T) {
	aheadCPUs(t)
	diffRandom(t, 60, runAheadProg)
}

func FuzzReadaheadOps(f *testing.F) {
	aheadCPUs(f)
	rop := func(op int, args ...byte) []byte { return append([]byte{at(readerOps, op)}, args...) }
	lines := []byte(strings.Repeat("first line\r\nsecond, a longer line that does not fit in sixteen bytes\r\n\r\nlast", 20))
	fuzzProgs(f, runAheadProg, [][2][]byte{
		// A file, 16-byte buffers: ReadLine's "\r\n" across refills.
		{slices.Concat([]byte{0, 0, at(readerSizes, 16)}, rop(opReadLine), rop(opReadLine), rop(opUnreadByte),
			rop(opReadLine), rop(opPeek, at(peekLens, 15)), rop(opReadString, 0)), lines},
		// A pipe written a byte at a time, 32-byte buffers.
		{slices.Concat([]byte{1, 0, 0, at(readerSizes, 32)}, rop(opReadSlice, 0), rop(opReadRune),
			rop(opDiscard, at(peekLens, 100)), rop(opWriteTo, 5)), lines},
	})
}

// aheadFile returns a regular file holding data, at offset 0.
func aheadFile(t *testing.T, data []byte) *os.File {
	t.Helper()
	name := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(name, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// aheadCPUs lets read-ahead engage for the test: it is off with
// GOMAXPROCS=1 (TestReadaheadOneCPU), as under go test -cpu 1 or on a
// machine with one CPU.
func aheadCPUs(tb testing.TB) {
	if n := runtime.GOMAXPROCS(0); n < 2 {
		runtime.GOMAXPROCS(2)
		tb.Cleanup(func() { runtime.GOMAXPROCS(n) })
	}
}

// aheadIdle waits until the Reader's reads ahead are done and its
// goroutine has ended: every chunk claimed is read. On a busy machine a
// goroutine may take a while to run; a test of what was read ahead waits
// for it.
func aheadIdle(t *testing.T, r *Reader) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !aheadDone(r) {
		if time.Now().After(deadline) {
			t.Fatal("reads ahead not done in 30 s")
		}
		runtime.Gosched()
		time.Sleep(10 * time.Microsecond)
	}
}

// aheadDone reports whether r has no goroutine reading ahead and no read
// under way.
func aheadDone(r *Reader) bool {
	if r.ra == nil || r.ra.run == nil {
		return true
	}
	run := r.ra.run
	if run.running.Load() {
		return false
	}
	for c := run.cons.Load(); c < run.chunks(); c++ {
		if !run.slots[c%int64(len(run.slots))].full.Load() {
			return false
		}
	}
	return true
}

// aheadPipe returns a pipe, closed at the end of the test.
func aheadPipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

// aheadReader returns a read-ahead Reader of the given buffer size over f.
func aheadReader(t *testing.T, f *os.File, size int) *Reader {
	t.Helper()
	r := NewReaderSize(f, size)
	if err := r.SetPolicy(ReadaheadSize(size)); err != nil {
		t.Fatal(err)
	}
	return r
}

// numberedLines is n lines "line 1\n", "line 2\n", ... of varied lengths.
func numberedLines(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "line %d %s\n", i, strings.Repeat("x", i%97))
	}
	return b.Bytes()
}

// offset is the file's offset, without moving it.
func offset(t *testing.T, f *os.File) int64 {
	t.Helper()
	off, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		t.Fatal(err)
	}
	return off
}

func TestReadaheadPolicy(t *testing.T) {
	aheadCPUs(t)
	for _, s := range []string{"readahead", "ReadAhead"} {
		p, err := ParsePolicy(s)
		if err != nil || p != PolicyReadahead {
			t.Errorf("ParsePolicy(%q) = %v, %v; want readahead", s, p, err)
		}
	}
	if got := PolicyReadahead.String(); got != "readahead" {
		t.Errorf("PolicyReadahead.String() = %q", got)
	}
	// Under STDIOBUF_POLICY=readahead a Reader over a file reads ahead
	// with PolicyBlksize's size, or a size set with Setvbuf, if that is at
	// least minAheadSize; a Writer is a blksize Writer.
	t.Setenv(policyEnv, "readahead")
	data := numberedLines(20000)
	f := aheadFile(t, data)
	blk := NewReaderPolicy(f, PolicyBlksize).Info().Size
	for _, asked := range []int{0, 64 << 10, 4096} {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		r := NewReader(f)
		want := blk
		if asked > 0 {
			if err := r.Setvbuf(FullyBuffered, asked); err != nil {
				t.Fatal(err)
			}
			want = asked
		}
		got, err := io.ReadAll(struct{ io.Reader }{r}) // Read, not WriteTo
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("ReadAll: %d bytes, %v; want the file's %d", len(got), err, len(data))
		}
		i := r.Info()
		if i.Policy != PolicyReadahead || i.Size != want {
			t.Errorf("Info() = %v; want policy readahead, size %d", i, want)
		}
		if ahead := want >= minAheadSize; ahead != (i.Overlapped+i.Waited > 0 && i.Reads >= i.Ahead) {
			t.Errorf("Info() = %v; want reads ahead counted: %v", i, ahead)
		}
	}
	w := NewWriter(io.Discard)
	if wi := w.Info(); wi.Policy != PolicyReadahead || wi.Ahead != 0 {
		t.Errorf("Writer Info() = %v", wi)
	}
}

// TestReadaheadReadsAhead checks that reads are made ahead while the
// caller works on the buffer, as far as the ring goes, and that they
// leave the offset where a plain Reader's would be: after the buffer's
// bytes.
func TestReadaheadReadsAhead(t *testing.T) {
	aheadCPUs(t)
	const size = 4096
	const chunk = size // a chunk is a buffer
	data := numberedLines(5000)
	f := aheadFile(t, data)
	r := aheadReader(t, f, size)
	if _, err := r.ReadByte(); err != nil {
		t.Fatal(err)
	}
	aheadIdle(t, r)
	if got, want := offset(t, f), int64(chunk); got != want {
		t.Errorf("offset after one byte = %d, want %d, the first read's", got, want)
	}
	i := r.Info()
	// The buffer holds chunk 0, the ring the next aheadChunks.
	if i.Reads != aheadChunks+1 || i.Ahead != aheadChunks {
		t.Errorf("Info() = %v; want %d reads, all but the first ahead", i, aheadChunks+1)
	}
	run := r.ra.run
	for c := 1; c <= aheadChunks; c++ {
		s := &run.slots[c%aheadChunks]
		got := s.buf[:s.n]
		if want := data[c*chunk : (c+1)*chunk]; !s.full.Load() || !bytes.Equal(got, want) {
			t.Errorf("chunk %d holds %q..., want %q...", c, got[:min(20, len(got))], want[:20])
		}
	}
}

// TestReadaheadOneCPU checks that with GOMAXPROCS=1 a Reader under
// PolicyReadahead reads as a plain one: there is no second core to read
// on, so read-ahead would only cost (bench/readahead.sh measures it on 1
// CPU).
func TestReadaheadOneCPU(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	data := numberedLines(20000)
	r := aheadReader(t, aheadFile(t, data), 64<<10)
	got, err := io.ReadAll(struct{ io.Reader }{r})
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("ReadAll: %d bytes, %v; want the file's %d", len(got), err, len(data))
	}
	if i := r.Info(); r.ra != nil || i.Ahead+i.Overlapped+i.Waited != 0 || i.Policy != ReadaheadSize(64<<10) {
		t.Errorf("Info() = %v; want read-ahead's policy, no read ahead", i)
	}
}

// TestReadaheadOff checks that line-buffered and unbuffered Readers (a
// terminal, stdbuf -i0 or -iL, Setvbuf) never read ahead: an unbuffered
// one leaves the offset just after what it returned.
func TestReadaheadOff(t *testing.T) {
	aheadCPUs(t)
	data := numberedLines(3000)
	for _, mode := range []Mode{LineBuffered, Unbuffered} {
		t.Run(mode.String(), func(t *testing.T) {
			f := aheadFile(t, data)
			r := aheadReader(t, f, 4096)
			if err := r.Setvbuf(mode, 0); err != nil {
				t.Fatal(err)
			}
			var got []byte
			for range 50 {
				line, err := r.ReadSlice('\n')
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, line...)
				if mode == Unbuffered {
					if off := offset(t, f); off != int64(len(got)) {
						t.Fatalf("offset %d after %d bytes returned", off, len(got))
					}
				}
			}
			if i := r.Info(); r.ra != nil || i.Ahead+i.Overlapped+i.Waited != 0 {
				t.Errorf("read ahead: %v", r.Info())
			}
			rest, err := io.ReadAll(r)
			if err != nil || !bytes.Equal(append(got, rest...), data) {
				t.Errorf("read %d bytes, %v; want the file", len(got)+len(rest), err)
			}
		})
	}
}

// TestReadaheadSync checks that after Sync, with a second buffer read
// ahead (in flight or done), another reader of the file goes on just after
// the last byte returned, and the Reader too: none of what was read ahead
// is lost or shows twice.
func TestReadaheadSync(t *testing.T) {
	aheadCPUs(t)
	data := numberedLines(4000)
	for _, lines := range []int{1, 2, 3, 10, 100, 1000} {
		t.Run(fmt.Sprint(lines), func(t *testing.T) {
			f := aheadFile(t, data)
			r := aheadReader(t, f, 1024)
			var got []byte
			for range lines {
				line, err := r.ReadBytes('\n')
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, line...)
			}
			if r.ra == nil || r.ra.run == nil {
				t.Fatal("nothing read ahead: the test proves nothing")
			}
			if err := r.Sync(); err != nil {
				t.Fatal(err)
			}
			if off := offset(t, f); off != int64(len(got)) {
				t.Errorf("offset after Sync = %d, want %d", off, len(got))
			}
			rest, err := io.ReadAll(r)
			if err != nil || !bytes.Equal(append(got, rest...), data) {
				t.Errorf("read %d bytes, %v; want the file once", len(got)+len(rest), err)
			}
		})
	}
}

// TestReadaheadChanges switches the mode, size and policy at points of a
// read and checks that no byte is lost, doubled or reordered.
func TestReadaheadChanges(t *testing.T) {
	aheadCPUs(t)
	data := numberedLines(6000)
	changes := []struct {
		name string
		do   func(*Reader) error
	}{
		{"Setvbuf(none)", func(r *Reader) error { return r.Setvbuf(Unbuffered, 0) }},
		{"Setvbuf(line)", func(r *Reader) error { return r.Setvbuf(LineBuffered, 0) }},
		{"Setvbuf(full, 100)", func(r *Reader) error { return r.Setvbuf(FullyBuffered, 100) }},
		{"Setvbuf(full, 16)", func(r *Reader) error { return r.Setvbuf(FullyBuffered, 16) }},
		{"Setvbuf(full, 9000)", func(r *Reader) error { return r.Setvbuf(FullyBuffered, 9000) }},
		{"SetPolicy(blksize)", func(r *Reader) error { return r.SetPolicy(PolicyBlksize) }},
		{"SetPolicy(bufsiz)", func(r *Reader) error { return r.SetPolicy(PolicyBufsiz) }},
		{"SetPolicy(readahead)", func(r *Reader) error { return r.SetPolicy(PolicyReadahead) }},
		{"SetPolicy(readahead:700)", func(r *Reader) error { return r.SetPolicy(ReadaheadSize(700)) }},
		{"SetPolicy(100)", func(r *Reader) error { return r.SetPolicy(100) }},
		{"Sync", func(r *Reader) error { return r.Sync() }},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c1 := range changes {
		for _, c2 := range changes {
			f := aheadFile(t, data)
			r := aheadReader(t, f, 1000)
			var got []byte
			at1, at2 := rng.IntN(300), 300+rng.IntN(300)
			for i := 0; ; i++ {
				switch i {
				case at1:
					if err := c1.do(r); err != nil {
						t.Fatal(err)
					}
				case at2:
					if err := c2.do(r); err != nil {
						t.Fatal(err)
					}
				}
				var line []byte
				var err error
				if i%3 == 0 {
					p := make([]byte, 1+i%50)
					var n int
					n, err = r.Read(p)
					line = p[:n]
				} else {
					line, err = r.ReadSlice('\n')
					if err == ErrBufferFull {
						err = nil
					}
				}
				got = append(got, line...)
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(got, data) {
				t.Errorf("%s at %d, %s at %d: read %d bytes, want the file's %d in order", c1.name, at1, c2.name, at2, len(got), len(data))
			}
		}
	}
}

// TestReadaheadReset checks that Reset over the same file starts where
// the file's offset is, which reading ahead left where a plain Reader
// leaves it, and that Reset to another file reads that file.
func TestReadaheadReset(t *testing.T) {
	aheadCPUs(t)
	data := numberedLines(5000)
	f := aheadFile(t, data)
	r := aheadReader(t, f, 512)
	consumed := 0
	for range 20 {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		consumed += len(line)
	}
	// As a plain Reader leaves it: just after the buffered bytes, whatever
	// was read ahead.
	before := offset(t, f)
	if want := int64(consumed + r.Buffered()); before != want {
		t.Errorf("offset before Reset = %d, want %d (%d returned + %d buffered)", before, want, consumed, r.Buffered())
	}
	r.Reset(f) // nothing to wait for: the offset stays
	off := offset(t, f)
	if off != before {
		t.Errorf("offset after Reset = %d, want %d, where it was", off, before)
	}
	rest, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(rest, data[off:]) {
		t.Errorf("after Reset(same file) at offset %d: %d bytes, %v; want the file's rest, %d", off, len(rest), err, len(data)-int(off))
	}

	other := numberedLines(300)
	g := aheadFile(t, other)
	f2 := aheadFile(t, data)
	r = aheadReader(t, f2, 512)
	r.ReadString('\n')
	r.Reset(g)
	got, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(got, other) {
		t.Errorf("after Reset(other file): %d bytes, %v; want the other file's %d", len(got), err, len(other))
	}
}

// TestReadaheadWriteTo checks the copies, which hand what was read ahead
// on before they use the descriptor (copy_file_range, sendfile), and
// CopyBytes and CopyRecords, which must not skip it.
func TestReadaheadWriteTo(t *testing.T) {
	aheadCPUs(t)
	data := numberedLines(8000)
	for _, copier := range []string{"io.Copy", "WriteTo(Writer)", "CopyBytes", "CopyRecords"} {
		t.Run(copier, func(t *testing.T) {
			f := aheadFile(t, data)
			r := aheadReader(t, f, 4096)
			head, err := r.ReadBytes('\n')
			if err != nil {
				t.Fatal(err)
			}
			out, err := os.Create(filepath.Join(t.TempDir(), "out"))
			if err != nil {
				t.Fatal(err)
			}
			defer out.Close()
			switch copier {
			case "io.Copy":
				_, err = io.Copy(out, r)
			case "WriteTo(Writer)":
				w := NewWriter(out)
				if _, err = r.WriteTo(w); err == nil {
					err = w.Flush()
				}
			case "CopyBytes":
				_, err = r.CopyBytes(out, 1<<40)
			case "CopyRecords":
				_, _, err = r.CopyRecords(out, '\n', 1<<40)
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(out.Name())
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(append(head, got...), data) {
				t.Errorf("copied %d bytes after the first line, want %d", len(got), len(data)-len(head))
			}
		})
	}
}

// TestReadaheadOwnerClose checks that a file its owner closes is never read
// after Close returns: while a read ahead may be in flight, the owner
// closes the file and at once opens another, which often takes the same
// descriptor number. The Reader must return only bytes of the first file,
// then os.ErrClosed, never a byte of the second.
func TestReadaheadOwnerClose(t *testing.T) {
	aheadCPUs(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(a, bytes.Repeat([]byte("A\n"), 1<<16), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, bytes.Repeat([]byte("B\n"), 1<<16), 0o600); err != nil {
		t.Fatal(err)
	}
	reused := 0
	const runs = 200
	for i := range runs {
		f, err := os.Open(a)
		if err != nil {
			t.Fatal(err)
		}
		fd := f.Fd()
		r := aheadReader(t, f, 512+i*37)
		var other *os.File
		closeAfter := i * 100
		closed := make(chan struct{})
		concurrent := i%2 == 1 // close from another goroutine, mid-call
		if concurrent {
			go func() {
				defer close(closed)
				for range i % 7 * 100 {
					runtime.Gosched()
				}
				f.Close()
				other, _ = os.Open(b)
			}()
		}
		var got []byte
		var lastErr error
		for n := 0; ; n++ {
			if !concurrent && n == closeAfter {
				aheadIdle(t, r) // reads ahead done as Close comes
				f.Close()
				other, _ = os.Open(b)
			}
			line, err := r.ReadSlice('\n')
			got = append(got, line...)
			if err != nil {
				lastErr = err
				break
			}
		}
		if concurrent {
			<-closed
		}
		if other != nil {
			if other.Fd() == fd {
				reused++
			}
			other.Close()
		}
		if bytes.ContainsRune(got, 'B') {
			t.Fatalf("run %d: read bytes of the file opened after Close", i)
		}
		if !errors.Is(lastErr, os.ErrClosed) && lastErr != io.EOF {
			t.Fatalf("run %d: error %v, want os.ErrClosed (or the end, if Close came after it)", i, lastErr)
		}
	}
	if reused == 0 {
		t.Errorf("no run reused the descriptor number: the test proves nothing")
	}
	t.Logf("%d of %d runs reused the descriptor number", reused, runs)
}

// aheadCreator is the function that starts read-ahead goroutines, as a
// stack trace names it: a goroutine not yet run shows only a wrapper.
const aheadCreator = "github.com/stdiobuf/stdiobuf/stream.(*aheadRun).kick in goroutine"

// aheadGoroutines returns how many read-ahead goroutines there are, and
// the stacks of all goroutines.
func aheadGoroutines() (int, string) {
	buf := make([]byte, 1<<20)
	stacks := string(buf[:runtime.Stack(buf, true)])
	return strings.Count(stacks, "created by "+aheadCreator), stacks
}

// TestReadaheadNoLeak drops Readers mid-file, with reads in flight, and
// closes their files, and checks that every goroutine they started ends.
func TestReadaheadNoLeak(t *testing.T) {
	aheadCPUs(t)
	data := numberedLines(20000)
	name := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(name, data, 0o600); err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		r := aheadReader(t, f, 4096)
		for range i {
			r.ReadSlice('\n')
		}
		f.Close()
	}
	// Goroutines end asynchronously: wait for them, as goleak does,
	// failing only if some are still there after a long while.
	deadline := time.Now().Add(30 * time.Second)
	n, stacks := aheadGoroutines()
	for ; n > 0 && time.Now().Before(deadline); n, stacks = aheadGoroutines() {
		time.Sleep(time.Millisecond)
	}
	if n > 0 {
		t.Errorf("%d read-ahead goroutines left:\n%s", n, stacks)
	}
}

// TestReadaheadBufioLines compares a read-ahead Reader with bufio over a
// large file line by line, the way a program scans a file.
func TestReadaheadBufioLines(t *testing.T) {
	aheadCPUs(t)
	data := numberedLines(50000)
	want := bufio.NewScanner(bytes.NewReader(data))
	r := aheadReader(t, aheadFile(t, data), 4096)
	got := NewScanner(r)
	var wl, gl []string
	for want.Scan() {
		wl = append(wl, want.Text())
	}
	for got.Scan() {
		gl = append(gl, got.Text())
	}
	if diff := cmp.Diff(wl, gl); diff != "" || got.Err() != nil {
		t.Errorf("lines differ (-bufio +readahead), err %v:\n%s", got.Err(), diff)
	}
}

var aheadBenchFile = flag.String("readahead.file", "", "file of lines for BenchmarkReadaheadScannerLines (default: 32 MB of lines made in a temporary folder); bench/readahead.sh passes the seed input")

// BenchmarkReadaheadScannerLines scans the lines of a real file with a
// Scanner straight over it (file), over a Reader without read-ahead
// (reader) and over one with it (readahead), at PolicyBlksize's sizes.
func BenchmarkReadaheadScannerLines(b *testing.B) {
	name := *aheadBenchFile
	if name == "" {
		name = filepath.Join(b.TempDir(), "lines")
		var data []byte
		for len(data) < 32<<20 {
			data = append(data, numberedLines(10000)...)
		}
		if err := os.WriteFile(name, data, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	st, err := os.Stat(name)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		wrap func(*os.File) io.Reader
	}{
		{"file", func(f *os.File) io.Reader { return f }},
		{"reader", func(f *os.File) io.Reader { return NewReaderPolicy(f, PolicyBlksize) }},
		{"readahead", func(f *os.File) io.Reader { return NewReaderPolicy(f, PolicyReadahead) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(st.Size())
			for b.Loop() {
				f, err := os.Open(name)
				if err != nil {
					b.Fatal(err)
				}
				s := NewScanner(c.wrap(f))
				for s.Scan() {
				}
				f.Close()
				if s.Err() != nil {
					b.Fatal(s.Err())
				}
			}
		})
	}
}

func TestReadaheadSize(t *testing.T) {
	aheadCPUs(t)
	tests := []struct {
		in    string
		want  Policy
		size  int
		valid bool
	}{
		{"readahead:64K", ReadaheadSize(64 << 10), 64 << 10, true},
		{"ReadAhead:1", ReadaheadSize(1), 1, true},
		{"readahead:1G", ReadaheadSize(1 << 30), 1 << 30, true},
		{"readahead:0", 0, 0, false},
		{"readahead:2G", 0, 0, false},
		{"readahead:", 0, 0, false},
		{"readahead:blksize", 0, 0, false},
		{"blksize:64K", 0, 0, false},
	}
	for _, tt := range tests {
		p, err := ParsePolicy(tt.in)
		if tt.valid != (err == nil) || p != tt.want {
			t.Errorf("ParsePolicy(%q) = %v, %v; want %v, valid %v", tt.in, p, err, tt.want, tt.valid)
			continue
		}
		if !tt.valid {
			if !errors.Is(err, ErrInvalidPolicy) || !strings.Contains(err.Error(), tt.in) {
				t.Errorf("ParsePolicy(%q) error %v: want ErrInvalidPolicy naming the text", tt.in, err)
			}
			continue
		}
		if n, ok := p.aheadSize(); n != tt.size || !ok || !p.valid() {
			t.Errorf("%q: size %d, %v, valid %v", tt.in, n, ok, p.valid())
		}
		if back, err := ParsePolicy(p.String()); back != p || err != nil {
			t.Errorf("ParsePolicy(%q.String() = %q) = %v, %v", tt.in, p.String(), back, err)
		}
	}
	for _, size := range []int{0, -1, 1<<30 + 1} {
		if p := ReadaheadSize(size); p.valid() {
			t.Errorf("ReadaheadSize(%d) = %v is valid", size, p)
		}
	}
	// Under it a Reader over a file has buffers of that size, and reads
	// ahead whatever it is; named policies and sizes do not read ahead.
	data := numberedLines(3000)
	for _, p := range []Policy{ReadaheadSize(100), ReadaheadSize(64 << 10), PolicyBlksize, 100} {
		r := NewReaderPolicy(aheadFile(t, data), p)
		got, err := io.ReadAll(struct{ io.Reader }{r})
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("%v: ReadAll %d bytes, %v", p, len(got), err)
		}
		i := r.Info()
		n, sized := p.aheadSize()
		if engaged := i.Overlapped+i.Waited > 0; sized && (i.Size != n || !engaged) || !sized && (engaged || i.Ahead != 0) {
			t.Errorf("%v: Info() = %v", p, i)
		}
	}
}

// TestReadaheadSeek checks that the owner may seek a regular file under a
// read-ahead Reader as under bufio, in either order with Reset, or without
// it (the buffered bytes first, then the new offset's): reads ahead
// leave the offset alone, and what was read ahead of a moved offset is
// dropped.
func TestReadaheadSeek(t *testing.T) {
	aheadCPUs(t)
	data := numberedLines(5000)
	f := aheadFile(t, data)
	r := aheadReader(t, f, 1024)
	for i := range 150 {
		if _, err := r.ReadString('\n'); err != nil {
			t.Fatal(err)
		}
		off := int64(i * 997 % len(data))
		if i%3 == 0 {
			r.Reset(f)
		}
		if _, err := f.Seek(off, io.SeekStart); err != nil {
			t.Fatal(err)
		}
		switch i % 3 {
		case 1:
			r.Reset(f)
		case 2:
			// No Reset: bufio returns what it holds, then reads at off.
			held := make([]byte, r.Buffered())
			if _, err := io.ReadFull(r, held); err != nil {
				t.Fatal(err)
			}
		}
		line, err := r.ReadString('\n')
		if want, _, _ := strings.Cut(string(data[off:]), "\n"); err != nil || line != want+"\n" {
			t.Fatalf("case %d, after Seek(%d): %q, %v; want %q", i%3, off, line, err, want+"\n")
		}
	}
}

// TestReadaheadShare checks the claims on a run and how the Reader shares
// the reads: while the chunk it needs is under way (here: claimed by the
// test, as by a goroutine that has not finished its read) it reads the
// later chunks of the window itself, then sleeps until the read it needs
// is done, and is woken by it. Claims go in order, never past the window,
// and none after the run stops (rules 2, 3, 7 and 9 of aheadRun).
func TestReadaheadShare(t *testing.T) {
	aheadCPUs(t)
	data := numberedLines(3000)
	f := aheadFile(t, data)
	r := aheadReader(t, f, 1024)
	if _, err := r.Peek(0); err != nil { // decide and allocate, read nothing
		t.Fatal(err)
	}
	r.ra.newRun(len(r.buf))
	run := r.ra.run
	if c, ok := run.claim(); c != 0 || !ok {
		t.Fatalf("first claim = %d, %v; want chunk 0", c, ok)
	}
	got := make(chan *aheadSlot)
	go func() {
		r.ra.take()
		got <- r.ra.pend.slot
	}()
	deadline := time.Now().Add(30 * time.Second)
	for !run.slots[aheadChunks-1].full.Load() || !run.waiting.Load() {
		if time.Now().After(deadline) {
			t.Fatalf("after 30 s: next %d, waiting %v; want the window read and the Reader asleep", run.next.Load(), run.waiting.Load())
		}
		time.Sleep(100 * time.Microsecond)
	}
	if c, ok := run.claim(); ok {
		t.Errorf("claim with a full window = %d; want none", c)
	}
	run.read(0) // the read under way ends and wakes the Reader
	var s *aheadSlot
	select {
	case s = <-got:
	case <-time.After(30 * time.Second):
		t.Fatal("the Reader was not woken in 30 s")
	}
	chunk := len(r.buf)
	if s != &run.slots[0] || !bytes.Equal(s.buf[:s.n], data[:chunk]) {
		t.Errorf("take returned another chunk than 0")
	}
	for c := 1; c < aheadChunks; c++ {
		s := &run.slots[c]
		if !s.full.Load() || !bytes.Equal(s.buf[:s.n], data[c*chunk:(c+1)*chunk]) {
			t.Errorf("chunk %d, read by the Reader while it waited, holds other bytes", c)
		}
	}
	// Every read was claimed before the Reader needed it: chunk 0 by the
	// test, the rest by the Reader as it waited for chunk 0.
	if i := r.Info(); i.Reads != aheadChunks || i.Ahead != aheadChunks || i.Waited != 1 || i.Overlapped != 0 {
		t.Errorf("Info() = %v; want %d reads, all ahead, 1 wait", i, aheadChunks)
	}
	if claimed := run.stop(); claimed != aheadChunks {
		t.Errorf("stop() = %d chunks claimed, want %d", claimed, aheadChunks)
	}
	run.release() // the window moves, but the run is stopped
	if c, ok := run.claim(); ok {
		t.Errorf("claim after stop = %d; want none", c)
	}
	if run.running.Load() {
		t.Error("a goroutine started after stop")
	}
}

// TestReadaheadKick checks when the Reader starts the goroutine (rule 8
// of aheadRun): only when none runs and at least aheadKickFree chunks can
// be claimed, so that one wakeup reads several chunks; it reads them all
// and ends.
func TestReadaheadKick(t *testing.T) {
	aheadCPUs(t)
	data := numberedLines(3000)
	r := aheadReader(t, aheadFile(t, data), 1024)
	if _, err := r.Peek(0); err != nil {
		t.Fatal(err)
	}
	r.ra.newRun(len(r.buf))
	run := r.ra.run
	// The window [cons, cons+N) full but for aheadKickFree-1 chunks.
	for range aheadChunks - aheadKickFree + 1 {
		c, ok := run.claim()
		if !ok {
			t.Fatal("claim failed in an empty window")
		}
		run.read(c)
	}
	run.kick()
	if run.running.Load() {
		t.Fatalf("goroutine started with %d chunks claimable, want at least %d", run.claimable(), aheadKickFree)
	}
	run.release() // chunk 0: now aheadKickFree can be claimed
	if run.kick(); !run.running.Load() && run.next.Load() != aheadChunks+1 {
		t.Fatalf("no goroutine started with %d chunks claimable", run.claimable())
	}
	aheadIdle(t, r)
	if next := run.next.Load(); next != aheadChunks+1 {
		t.Errorf("the goroutine ended with chunk %d next, want %d: the window full", next, aheadChunks+1)
	}
}

// TestReadaheadWhere checks which descriptors are read ahead: only those
// where a read at an offset has no effect and gives what read(2) would
// (positionalFile). A block device is in TestReadaheadBlockDevice.
func TestReadaheadWhere(t *testing.T) {
	aheadCPUs(t)
	pr, _ := aheadPipe(t)
	dir, err := os.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	open := func(name string) *os.File {
		f, err := os.Open(name)
		if err != nil {
			return nil
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	tests := []struct {
		name  string
		f     *os.File
		ahead bool
	}{
		{"regular file", aheadFile(t, numberedLines(100)), true},
		{"empty regular file", aheadFile(t, nil), false},
		{"pipe", pr, false},
		{"directory", dir, false},
		{"/dev/zero, a character device", open("/dev/zero"), false},
		{"/proc/self/maps (size 0)", open("/proc/self/maps"), false},
		{"/proc/self/stat (size 0)", open("/proc/self/stat"), false},
		{"/sys/kernel/mm/transparent_hugepage/enabled (sysfs, size 4096)", open("/sys/kernel/mm/transparent_hugepage/enabled"), false},
		{"/sys/devices/system/cpu/online (sysfs)", open("/sys/devices/system/cpu/online"), false},
	}
	for _, tt := range tests {
		if tt.f == nil {
			t.Logf("%s: not on this system", tt.name)
			continue
		}
		r := aheadReader(t, tt.f, 64<<10)
		r.Size() // the decision, no read
		if got := r.ra != nil; got != tt.ahead {
			t.Errorf("%s: reads ahead %v, want %v", tt.name, got, tt.ahead)
		}
	}
}

// TestReadaheadInfoAfterDrop checks that the reads of a run dropped
// (here: the owner seeks) are still counted by Info.
func TestReadaheadInfoAfterDrop(t *testing.T) {
	aheadCPUs(t)
	f := aheadFile(t, bytes.Repeat([]byte("0123456789abcde\n"), 1<<16)) // 1 MiB
	r := aheadReader(t, f, 64<<10)
	if _, err := r.ReadByte(); err != nil {
		t.Fatal(err)
	}
	aheadIdle(t, r)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	r.Discard(r.Buffered())
	if _, err := r.ReadByte(); err != nil {
		t.Fatal(err)
	}
	aheadIdle(t, r)
	if i := r.Info(); i.Reads != 2*(aheadChunks+1) || i.Ahead != 2*aheadChunks {
		t.Errorf("Info() = %v; want %d reads, %d ahead: two runs", i, 2*(aheadChunks+1), 2*aheadChunks)
	}
}

// positionStep is what one operation left: its result, then Buffered()
// and the file's offset after it.
type positionStep struct {
	Op       string
	Got      string
	Err      string
	Buffered int
	Offset   int64
}

// positionOps are the read patterns of TestReadaheadPosition: each
// reads from r (a few bytes or runes at a time, or one call) and returns
// what it read.
var positionOps = map[string]func(r *Reader, size int) ([]byte, error){
	"ReadByte": func(r *Reader, _ int) ([]byte, error) { return readBytes(r, 7) },
	"ReadRune": func(r *Reader, _ int) ([]byte, error) {
		var got []byte
		for range 5 {
			c, _, err := r.ReadRune()
			if err != nil {
				return got, err
			}
			got = utf8.AppendRune(got, c)
		}
		return got, nil
	},
	"ReadString": func(r *Reader, _ int) ([]byte, error) {
		s, err := r.ReadString('\n')
		return []byte(s), err
	},
	"ReadSlice": func(r *Reader, _ int) ([]byte, error) { return r.ReadSlice('\n') },
	"Getline":   func(r *Reader, _ int) ([]byte, error) { return r.Getline(nil) },
	"Read 100":  func(r *Reader, _ int) ([]byte, error) { return readN(r, 100) },
	"Read size": func(r *Reader, size int) ([]byte, error) { return readN(r, size) },
	"Read 2size+7": func(r *Reader, size int) ([]byte, error) {
		return readN(r, 2*size+7)
	},
	"Peek Discard": func(r *Reader, size int) ([]byte, error) {
		p, err := r.Peek(size / 2)
		got := bytes.Clone(p)
		if _, derr := r.Discard(size/3 + 1); err == nil {
			err = derr
		}
		return got, err
	},
	"ReadByte UnreadByte": func(r *Reader, _ int) ([]byte, error) {
		got, err := readBytes(r, 2)
		if err != nil {
			return got, err
		}
		return got, r.UnreadByte()
	},
}

// readBytes is n calls of ReadByte, up to the first error.
func readBytes(r *Reader, n int) ([]byte, error) {
	var got []byte
	for range n {
		c, err := r.ReadByte()
		if err != nil {
			return got, err
		}
		got = append(got, c)
	}
	return got, nil
}

// readN is one Read of n bytes.
func readN(r *Reader, n int) ([]byte, error) {
	p := make([]byte, n)
	n, err := r.Read(p)
	return p[:n], err
}

// TestReadaheadPosition runs the same read patterns over the same file
// with a plain Reader and a read-ahead Reader of the same size: after
// every operation, what it returned, Buffered() and the file's offset
// are the same, so that whoever reads the descriptor next (a shell
// group's next command, a child) starts where it would after bufio.
func TestReadaheadPosition(t *testing.T) {
	aheadCPUs(t)
	lines := numberedLines(200) // about 11 KB, lines of 8 to 110 bytes
	long := append(bytes.Repeat([]byte("é"), 1500), '\n')
	names := slices.Sorted(func(yield func(string) bool) {
		for name := range positionOps {
			if !yield(name) {
				return
			}
		}
	})
	for _, size := range []int{1000, 4096, 8192} {
		mixed := slices.Concat(lines, long, lines)
		inputs := map[string][]byte{
			"lines":         lines,
			"long line":     mixed,
			"size multiple": mixed[:len(mixed)/size*size],
		}
		for _, in := range []string{"lines", "long line", "size multiple"} {
			data := inputs[in]
			patterns := append(slices.Clone(names), "mixed")
			for _, pat := range patterns {
				t.Run(fmt.Sprintf("%d/%s/%s", size, in, pat), func(t *testing.T) {
					plain := positionSteps(t, NewReaderSize(aheadFile(t, data), size), size, pat, names)
					ahead := positionSteps(t, aheadReader(t, aheadFile(t, data), size), size, pat, names)
					if diff := cmp.Diff(plain, ahead); diff != "" {
						t.Errorf("plain Reader (-) and read-ahead Reader (+) differ:\n%s", diff)
					}
				})
			}
		}
	}
}

// positionSteps runs pattern pat (a name of positionOps, or "mixed":
// each of them in turn, several times) over r until the input ends, and
// returns the steps.
func positionSteps(t *testing.T, r *Reader, size int, pat string, names []string) []positionStep {
	t.Helper()
	f := r.rd.(*os.File)
	var steps []positionStep
	for i := 0; ; i++ {
		op := pat
		if pat == "mixed" {
			op = names[i/3%len(names)]
		}
		got, err := positionOps[op](r, size)
		s := positionStep{Op: op, Got: string(got), Buffered: r.Buffered(), Offset: offset(t, f)}
		if err != nil {
			s.Err = err.Error()
		}
		steps = append(steps, s)
		if err == io.EOF || i > 200000 {
			return steps
		}
	}
}
