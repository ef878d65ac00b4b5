//go:build linux

package stream_test

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/stream"
	"golang.org/x/sys/unix"
)

// policyEnv is the variable that sets the default policy.
const policyEnv = "STDIOBUF_POLICY"

// Streams over real descriptors, in this process: regular files, pipes,
// /dev/null, under each policy and after Setvbuf, Sync and Reset.

// decision is the part of Info that doallocate decides.
type decision struct {
	Mode    stream.Mode
	Size    int
	Blksize int64
	Policy  stream.Policy
}

func decisionOf(i stream.Info) decision {
	return decision{Mode: i.Mode, Size: i.Size, Blksize: i.Blksize, Policy: i.Policy}
}

// ioDeadline bounds every blocking read or write the tests make on a pipe
// or a terminal, so that a stream that waits for ever fails the test.
const ioDeadline = 30 * time.Second

// fdRecorder is a descriptor that remembers how many bytes each Read and
// Write asked for. It has an Fd method, so a stream over it decides as over
// the *os.File. Fd takes the number through SyscallConn, as the stream does
// for an *os.File, so that a pipe stays non-blocking and keeps deadlines.
type fdRecorder struct {
	f             *os.File
	reads, writes []int
}

func (r *fdRecorder) Read(p []byte) (int, error) {
	r.reads = append(r.reads, len(p))
	return r.f.Read(p)
}

func (r *fdRecorder) Write(p []byte) (int, error) {
	r.writes = append(r.writes, len(p))
	return r.f.Write(p)
}

func (r *fdRecorder) Fd() uintptr {
	fd := ^uintptr(0)
	withFd(r.f, func(d int) error { fd = uintptr(d); return nil })
	return fd
}

// withFd calls fn with f's descriptor without making it blocking (as Fd
// would).
func withFd(f *os.File, fn func(fd int) error) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	if cerr := rc.Control(func(fd uintptr) { err = fn(int(fd)) }); cerr != nil {
		return cerr
	}
	return err
}

// blksizeOf is st_blksize of f.
func blksizeOf(t *testing.T, f *os.File) int64 {
	t.Helper()
	var st unix.Stat_t
	if err := withFd(f, func(fd int) error { return unix.Fstat(fd, &st) }); err != nil {
		t.Fatal(err)
	}
	return int64(st.Blksize)
}

// policyCase is a policy and what it must decide for a descriptor.
type policyCase struct {
	name   string
	policy stream.Policy
	want   decision
}

// fullyBuffered is the decision of a fully buffered stream.
func fullyBuffered(size int, blksize int64, p stream.Policy) decision {
	return decision{Mode: stream.FullyBuffered, Size: size, Blksize: blksize, Policy: p}
}

// testContent is n bytes of lines.
func testContent(n int) []byte {
	line := []byte("the quick brown fox jumps over the lazy dog 0123456789\n")
	return bytes.Repeat(line, n/len(line)+1)[:n]
}

// wantWriteSizes is what a buffered writer of size bytes asks write(2)
// for when it is given total bytes in small pieces and then flushed:
// whole buffers, then the rest.
func wantWriteSizes(total, size int) []int {
	sizes := repeatInt(size, total/size)
	if total%size > 0 {
		sizes = append(sizes, total%size)
	}
	return sizes
}

// drain reads r to the end in 100-byte Reads (smaller than any buffer
// here, so every read(2) fills the buffer).
func drain(t *testing.T, r io.Reader) []byte {
	t.Helper()
	var out []byte
	p := make([]byte, 100)
	for {
		n, err := r.Read(p)
		out = append(out, p[:n]...)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("read after %d bytes: %v", len(out), err)
		}
	}
}

// writeInPieces writes data to w in 100-byte Writes and flushes.
func writeInPieces(t *testing.T, w *stream.Writer, data []byte) {
	t.Helper()
	for p := data; len(p) > 0; p = p[min(100, len(p)):] {
		if _, err := w.Write(p[:min(100, len(p))]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
}

// checkFilePolicies writes and reads a regular file in dir under each
// policy: the decision must be the case's, over the *os.File and over a
// recorder of it, and every write(2) and read(2) must ask for a whole
// buffer (the reads one more than the file needs, for end of file).
func checkFilePolicies(t *testing.T, dir string, size int, cases []policyCase) {
	t.Helper()
	t.Setenv(policyEnv, "") // PolicyDefault is blksize
	content := testContent(size)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name)
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			checkDecision(t, "Writer over *os.File", stream.NewWriterPolicy(f, tc.policy).Info(), tc.want)
			rec := &fdRecorder{f: f}
			w := stream.NewWriterPolicy(rec, tc.policy)
			checkDecision(t, "Writer", w.Info(), tc.want)
			writeInPieces(t, w, content)
			checkCalls(t, "write", rec.writes, w.Info().Writes, wantWriteSizes(len(content), tc.want.Size))

			if _, err := f.Seek(0, io.SeekStart); err != nil {
				t.Fatal(err)
			}
			// A Reader's buffer is capped at the file's size in whole
			// blocks (more could never be filled), but not below 4096.
			wantR := tc.want
			if block := int(wantR.Blksize); wantR.Size > max((size+block-1)/block*block, 4096) {
				wantR.Size = max((size+block-1)/block*block, 4096)
			}
			checkDecision(t, "Reader over *os.File", stream.NewReaderPolicy(f, tc.policy).Info(), wantR)
			r := stream.NewReaderPolicy(rec, tc.policy)
			checkDecision(t, "Reader", r.Info(), wantR)
			if got := drain(t, r); !bytes.Equal(got, content) {
				t.Errorf("read back %d bytes, want the %d written", len(got), len(content))
			}
			reads := (len(content)+wantR.Size-1)/wantR.Size + 1
			checkCalls(t, "read", rec.reads, r.Info().Reads, repeatInt(wantR.Size, reads))
		})
	}
}

// checkDecision compares a stream's decision with want.
func checkDecision(t *testing.T, what string, got stream.Info, want decision) {
	t.Helper()
	if diff := cmp.Diff(want, decisionOf(got)); diff != "" {
		t.Errorf("%s decided (-want +got):\n%s\n%v", what, diff, got)
	}
}

// checkCalls compares the sizes a recorder saw with want, and the count
// the stream's Info gave with the recorder's.
func checkCalls(t *testing.T, name string, sizes []int, counted int64, want []int) {
	t.Helper()
	if diff := cmp.Diff(want, sizes); diff != "" {
		t.Errorf("sizes %s(2) was asked for (-want +got):\n%s", name, diff)
	}
	if counted != int64(len(sizes)) {
		t.Errorf("Info counted %d %s calls, the descriptor saw %d", counted, name, len(sizes))
	}
}

func TestFDRegularFilePolicies(t *testing.T) {
	dir := t.TempDir()
	probe, err := os.Create(filepath.Join(dir, "probe"))
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close()
	if bs := blksizeOf(t, probe); bs != 4096 {
		t.Skipf("the temporary directory's file system reports st_blksize %d; these cases are for 4096", bs)
	}
	checkFilePolicies(t, dir, 5*4096+777, []policyCase{
		{"default", stream.PolicyDefault, fullyBuffered(4096, 4096, stream.PolicyBlksize)},
		{"blksize", stream.PolicyBlksize, fullyBuffered(4096, 4096, stream.PolicyBlksize)},
		{"bufsiz", stream.PolicyBufsiz, fullyBuffered(4096, 4096, stream.PolicyBufsiz)},
		{"coreutils", stream.PolicyCoreutils, fullyBuffered(262144, 4096, stream.PolicyCoreutils)},
		{"bufio", stream.PolicyBufio, fullyBuffered(4096, 4096, stream.PolicyBufio)},
		{"cpython", stream.PolicyCpython, fullyBuffered(131072, 4096, stream.PolicyCpython)},
		{"rust", stream.PolicyRust, fullyBuffered(8192, 4096, stream.PolicyRust)},
		{"fixed 65536", 65536, fullyBuffered(65536, 4096, 65536)},
		{"fixed 1000", 1000, fullyBuffered(1000, 4096, 1000)},
	})
}

// TestFDPolicyEnv: STDIOBUF_POLICY sets the default of NewReader and
// NewWriter; an explicit policy is not affected by it.
func TestFDPolicyEnv(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Larger than any of the sizes below, so that a Reader's cap at the
	// file's size does not apply.
	if err := f.Truncate(4 << 20); err != nil {
		t.Fatal(err)
	}
	bs := blksizeOf(t, f)
	tests := []struct {
		env  string
		want decision
	}{
		{"", fullyBuffered(int(min(bs, 128<<10)), bs, stream.PolicyBlksize)},
		{"default", fullyBuffered(int(min(bs, 128<<10)), bs, stream.PolicyBlksize)},
		{"coreutils", fullyBuffered(262144, bs, stream.PolicyCoreutils)},
		{"BUFIO", fullyBuffered(4096, bs, stream.PolicyBufio)},
		{"cpython", fullyBuffered(int(max(min(bs, 8<<20), 128<<10)), bs, stream.PolicyCpython)},
		{"rust", fullyBuffered(8192, bs, stream.PolicyRust)},
		{"64K", fullyBuffered(65536, bs, 65536)},
		{"100000", fullyBuffered(100000, bs, 100000)},
	}
	for _, tc := range tests {
		t.Run(tc.env, func(t *testing.T) {
			t.Setenv(policyEnv, tc.env)
			checkDecision(t, "NewReader", stream.NewReader(f).Info(), tc.want)
			checkDecision(t, "NewWriter", stream.NewWriter(f).Info(), tc.want)
			explicit := stream.NewWriterPolicy(f, stream.PolicyBufsiz).Info()
			if explicit.Policy != stream.PolicyBufsiz {
				t.Errorf("NewWriterPolicy(f, PolicyBufsiz) decided by %v", explicit)
			}
		})
	}
}

// newPipe returns both ends of a pipe with deadlines, closed at the end.
func newPipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	deadline := time.Now().Add(ioDeadline)
	r.SetReadDeadline(deadline)
	w.SetWriteDeadline(deadline)
	return r, w
}

// TestFDPipePolicies: a pipe has st_blksize 4096 and is not a regular
// file (coreutils does not round to a power of two; 262144 is one anyway).
// The reads are as many as the pipe gives, each asking for a whole buffer.
func TestFDPipePolicies(t *testing.T) {
	t.Setenv(policyEnv, "")
	content := testContent(300000)
	tests := []policyCase{
		{"default", stream.PolicyDefault, fullyBuffered(4096, 4096, stream.PolicyBlksize)},
		{"bufsiz", stream.PolicyBufsiz, fullyBuffered(4096, 4096, stream.PolicyBufsiz)},
		{"coreutils", stream.PolicyCoreutils, fullyBuffered(262144, 4096, stream.PolicyCoreutils)},
		{"bufio", stream.PolicyBufio, fullyBuffered(4096, 4096, stream.PolicyBufio)},
		{"cpython", stream.PolicyCpython, fullyBuffered(131072, 4096, stream.PolicyCpython)},
		{"rust", stream.PolicyRust, fullyBuffered(8192, 4096, stream.PolicyRust)},
		{"fixed 10000", 10000, fullyBuffered(10000, 4096, 10000)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pr, pw := newPipe(t)
			got := make(chan []byte, 1)
			go func() {
				b, _ := io.ReadAll(pr)
				got <- b
			}()
			rec := &fdRecorder{f: pw}
			w := stream.NewWriterPolicy(rec, tc.policy)
			checkDecision(t, "Writer", w.Info(), tc.want)
			writeInPieces(t, w, content)
			checkCalls(t, "write", rec.writes, w.Info().Writes, wantWriteSizes(len(content), tc.want.Size))
			pw.Close()
			if b := <-got; !bytes.Equal(b, content) {
				t.Errorf("the pipe carried %d bytes, want the %d written", len(b), len(content))
			}

			pr, pw = newPipe(t)
			go func() {
				pw.Write(content)
				pw.Close()
			}()
			rec = &fdRecorder{f: pr}
			r := stream.NewReaderPolicy(rec, tc.policy)
			checkDecision(t, "Reader", r.Info(), tc.want)
			if b := drain(t, r); !bytes.Equal(b, content) {
				t.Errorf("read %d bytes from the pipe, want %d", len(b), len(content))
			}
			checkCalls(t, "read", rec.reads, r.Info().Reads, repeatInt(tc.want.Size, len(rec.reads)))
		})
	}
}

// embeddedFile is a type that embeds *os.File, as wrappers do: it has
// both Fd (which makes a descriptor blocking) and SyscallConn (which does
// not) through the embedded file.
type embeddedFile struct{ *os.File }

// TestFDPipeStaysNonBlocking: deciding a stream over a non-blocking pipe,
// reading and writing through it and copying (in the kernel between
// *os.File values) do not make the descriptor blocking (as Fd would), so
// its deadlines keep working and a read can time out instead of hanging.
// This holds for an *os.File and for a type embedding one, which stream
// reaches through SyscallConn as well.
func TestFDPipeStaysNonBlocking(t *testing.T) {
	tests := []struct {
		name string
		wrap func(*os.File) io.ReadWriter
	}{
		{"*os.File", func(f *os.File) io.ReadWriter { return f }},
		{"embedding *os.File", func(f *os.File) io.ReadWriter { return embeddedFile{f} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pr, pw := newPipe(t)
			w := stream.NewWriter(tt.wrap(pw))
			r := stream.NewReader(tt.wrap(pr))
			if _, err := w.WriteString("abc\n"); err != nil {
				t.Fatal(err)
			}
			if err := w.Flush(); err != nil { // the Writer's first I/O
				t.Fatal(err)
			}
			if _, err := r.ReadString('\n'); err != nil { // the Reader's
				t.Fatal(err)
			}
			// And a copy between two of them (splice between files).
			dr, dw := newPipe(t)
			pw.WriteString("def")
			pw.Close()
			if _, err := stream.NewReader(tt.wrap(pr)).WriteTo(stream.NewWriter(tt.wrap(dw))); err != nil {
				t.Fatal(err)
			}
			for _, f := range []*os.File{pr, dr, dw} {
				var flags int
				err := withFd(f, func(fd int) (err error) {
					flags, err = unix.FcntlInt(uintptr(fd), unix.F_GETFL, 0)
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
				if flags&unix.O_NONBLOCK == 0 {
					t.Errorf("%s is blocking after a stream used it", f.Name())
				}
			}
		})
	}
}

// openDevNull opens /dev/null read-write, or skips the test.
func openDevNull(t *testing.T) *os.File {
	t.Helper()
	f, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no %s: %v", os.DevNull, err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestFDDevNull: /dev/null is a character device but not a terminal: fully
// buffered, whatever the policy, until Setvbuf says otherwise.
func TestFDDevNull(t *testing.T) {
	t.Setenv(policyEnv, "")
	null := openDevNull(t)
	bs := blksizeOf(t, null)
	want := fullyBuffered(int(min(bs, 128<<10)), bs, stream.PolicyBlksize)

	w := stream.NewWriter(null)
	checkDecision(t, "Writer on /dev/null", w.Info(), want)
	for range 3 {
		w.WriteString("line\n")
	}
	if got := w.Info().Writes; got != 0 {
		t.Errorf("fully buffered Writer on /dev/null wrote %d times before Flush", got)
	}
	if err := w.Flush(); err != nil || w.Info().Writes != 1 {
		t.Errorf("Flush: %v, %d writes; want one", err, w.Info().Writes)
	}

	r := stream.NewReader(null)
	checkDecision(t, "Reader on /dev/null", r.Info(), want)
	if b, err := r.ReadByte(); err != io.EOF {
		t.Errorf("ReadByte on /dev/null = %q, %v; want io.EOF", b, err)
	}
}

// TestFDSetvbuf changes the mode of streams over descriptors before and
// after their first I/O, and counts the calls on the descriptor.
func TestFDSetvbuf(t *testing.T) {
	t.Setenv(policyEnv, "")
	type step struct {
		write      string // "" is a Setvbuf or Flush, as set
		setvbuf    stream.Mode
		flush      bool
		wantWrites int64
	}
	setvbuf := func(m stream.Mode, wantWrites int64) step { return step{setvbuf: m, wantWrites: wantWrites} }
	tests := []struct {
		name     string
		devNull  bool // else a regular file, whose contents are checked after each step
		steps    []step
		wantMode stream.Mode
	}{{
		name:    "line buffered on /dev/null: one write per line",
		devNull: true,
		steps: []step{
			setvbuf(stream.LineBuffered, 0),
			{write: "a\n", wantWrites: 1}, {write: "b", wantWrites: 1}, {write: "c\nd\ne", wantWrites: 2},
			{flush: true, wantWrites: 3},
		},
		wantMode: stream.LineBuffered,
	}, {
		name: "unbuffered before the first write on a file",
		steps: []step{
			setvbuf(stream.Unbuffered, 0),
			{write: "ab", wantWrites: 1}, {write: "c\n", wantWrites: 2}, {write: "d", wantWrites: 3},
		},
		wantMode: stream.Unbuffered,
	}, {
		name: "unbuffered after buffering: Setvbuf flushes first",
		steps: []step{
			{write: "abc", wantWrites: 0},
			setvbuf(stream.Unbuffered, 1), {write: "de", wantWrites: 2},
		},
		wantMode: stream.Unbuffered,
	}, {
		name: "line buffered after unbuffered",
		steps: []step{
			setvbuf(stream.Unbuffered, 0), {write: "ab", wantWrites: 1},
			setvbuf(stream.LineBuffered, 1), {write: "c", wantWrites: 1}, {write: "d\ne", wantWrites: 2},
			{flush: true, wantWrites: 3},
		},
		wantMode: stream.LineBuffered,
	}, {
		name: "fully buffered after line buffered",
		steps: []step{
			setvbuf(stream.LineBuffered, 0), {write: "a\nb", wantWrites: 1},
			setvbuf(stream.FullyBuffered, 2), {write: "c\n", wantWrites: 2},
			{flush: true, wantWrites: 3},
		},
		wantMode: stream.FullyBuffered,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var f *os.File
			if tc.devNull {
				f = openDevNull(t)
			} else {
				var err error
				if f, err = os.Create(filepath.Join(t.TempDir(), "out")); err != nil {
					t.Fatal(err)
				}
				defer f.Close()
			}
			w := stream.NewWriter(f)
			var written string // what an unbuffered or line-buffered stream has written by now
			for i, s := range tc.steps {
				var err error
				switch {
				case s.write != "":
					_, err = w.WriteString(s.write)
					written += s.write
				case s.flush:
					err = w.Flush()
				default:
					err = w.Setvbuf(s.setvbuf, 0)
				}
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				if got := w.Info().Writes; got != s.wantWrites {
					t.Errorf("step %d (%+v): %d writes, want %d", i, s, got, s.wantWrites)
				}
				if !tc.devNull {
					onDisk, _ := os.ReadFile(f.Name())
					if want := written[:len(written)-w.Buffered()]; string(onDisk) != want {
						t.Errorf("step %d: file holds %q, want %q (%d buffered)", i, onDisk, want, w.Buffered())
					}
				}
			}
			info := w.Info()
			if info.Mode != tc.wantMode || info.Reason != "Setvbuf" {
				t.Errorf("Info() = %v, want mode %v by Setvbuf", info, tc.wantMode)
			}
		})
	}
}

// TestFDSetvbufErrorsChangeNothing: a bad mode or size is refused on a
// descriptor stream, before or after its decision.
func TestFDSetvbufErrorsChangeNothing(t *testing.T) {
	null := openDevNull(t)
	w := stream.NewWriter(null)
	r := stream.NewReader(null)
	before := []stream.Info{w.Info(), r.Info()}
	for _, bad := range []struct {
		mode stream.Mode
		size int
		want error
	}{{stream.Mode(7), 0, stream.ErrInvalidMode}, {stream.LineBuffered, -1, stream.ErrInvalidSize}} {
		if err := w.Setvbuf(bad.mode, bad.size); !errors.Is(err, bad.want) {
			t.Errorf("Writer.Setvbuf(%d, %d) = %v, want %v", bad.mode, bad.size, err, bad.want)
		}
		if err := r.Setvbuf(bad.mode, bad.size); !errors.Is(err, bad.want) {
			t.Errorf("Reader.Setvbuf(%d, %d) = %v, want %v", bad.mode, bad.size, err, bad.want)
		}
	}
	if diff := cmp.Diff(before, []stream.Info{w.Info(), r.Info()}); diff != "" {
		t.Errorf("a refused Setvbuf changed the streams (-before +after):\n%s", diff)
	}
}

// openTempFile writes content to a new file and opens it for reading; it
// is closed when the test ends.
func openTempFile(t *testing.T, content string) *os.File {
	t.Helper()
	path := filepath.Join(t.TempDir(), "input")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestFDReaderSetvbufUnbufferedKeepsUnread: switching a Reader that has
// read ahead to unbuffered keeps what it holds, then reads the descriptor
// one byte at a time, never past what was returned.
func TestFDReaderSetvbufUnbufferedKeepsUnread(t *testing.T) {
	f := openTempFile(t, "line1\nline2\nline3 is longer\nline4\n")
	r := stream.NewReaderSize(f, 16)
	offset := func() int64 {
		off, err := f.Seek(0, io.SeekCurrent)
		if err != nil {
			t.Fatal(err)
		}
		return off
	}

	var got []string
	readLine := func() {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("ReadString: %q, %v", line, err)
		}
		got = append(got, line)
	}
	readLine() // fills 16 bytes: "line1\n" returned, 10 held
	if n := r.Buffered(); n != 10 || offset() != 16 {
		t.Fatalf("after the first line: %d buffered at offset %d, want 10 at 16", n, offset())
	}
	if err := r.Setvbuf(stream.Unbuffered, 0); err != nil {
		t.Fatal(err)
	}
	if n := r.Buffered(); n != 10 {
		t.Errorf("Setvbuf(Unbuffered) left %d bytes buffered, want the 10 read ahead", n)
	}
	reads := r.Info().Reads
	readLine() // "line2\n" from the buffer
	if r.Info().Reads != reads {
		t.Errorf("a line held in the buffer took %d reads", r.Info().Reads-reads)
	}
	readLine() // "line3 is longer\n": 4 bytes held, 12 read one at a time
	if got, want := r.Info().Reads-reads, int64(len("line3 is longer\n")-4); got != want {
		t.Errorf("the rest of line 3 took %d reads, want %d of one byte", got, want)
	}
	if off := offset(); off != int64(len("line1\nline2\nline3 is longer\n")) {
		t.Errorf("offset %d after three lines, want %d: an unbuffered Reader read ahead", off, len("line1\nline2\nline3 is longer\n"))
	}
	readLine()
	if diff := cmp.Diff([]string{"line1\n", "line2\n", "line3 is longer\n", "line4\n"}, got); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

// TestSyncRegularFile: Sync moves the offset of a regular file back to
// just after the last byte returned, and reading goes on from there.
func TestSyncRegularFile(t *testing.T) {
	f := openTempFile(t, "one\ntwo\nthree\n")
	r := stream.NewReader(f)
	if line, _ := r.ReadString('\n'); line != "one\n" {
		t.Fatalf("first line %q", line)
	}
	if err := r.Sync(); err != nil {
		t.Fatalf("Sync: %v", err)
	}
	if off, _ := f.Seek(0, io.SeekCurrent); off != 4 || r.Buffered() != 0 {
		t.Errorf("after Sync: offset %d with %d buffered, want 4 and 0", off, r.Buffered())
	}
	rest, err := io.ReadAll(r)
	if string(rest) != "two\nthree\n" || err != nil {
		t.Errorf("after Sync the Reader read %q, %v", rest, err)
	}
}

// TestSyncPipe: on a pipe Sync cannot give bytes back; it keeps them and
// returns nil, as glibc's fflush does.
func TestSyncPipe(t *testing.T) {
	pr, pw := newPipe(t)
	if _, err := pw.WriteString("a\nb\nc\n"); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	r := stream.NewReader(pr)
	if line, _ := r.ReadString('\n'); line != "a\n" {
		t.Fatalf("first line %q", line)
	}
	if err := r.Sync(); err != nil {
		t.Errorf("Sync on a pipe: %v, want nil", err)
	}
	if n := r.Buffered(); n != 4 {
		t.Errorf("Sync on a pipe left %d bytes buffered, want 4", n)
	}
	rest, err := io.ReadAll(r)
	if string(rest) != "b\nc\n" || err != nil {
		t.Errorf("after Sync the Reader read %q, %v", rest, err)
	}
}

// TestFDNotADescriptor: nil, a nil *os.File and a closed *os.File behave
// as bufio: nothing panics at construction, the sizes and the errors of
// the first I/O are bufio's. A closed file is still a descriptor stream
// whose fstat failed (BUFSIZ).
func TestFDNotADescriptor(t *testing.T) {
	t.Setenv(policyEnv, "") // BUFSIZ when fstat fails
	closed, err := os.Create(filepath.Join(t.TempDir(), "closed"))
	if err != nil {
		t.Fatal(err)
	}
	closed.Close()
	tests := []struct {
		name     string
		file     *os.File // nil: a nil io.Reader and io.Writer
		fileNil  bool     // a nil *os.File
		wantSize int
		wantFd   int
	}{
		{name: "nil", wantSize: 4096, wantFd: -1},
		{name: "nil *os.File", fileNil: true, wantSize: 4096, wantFd: -1},
		{name: "closed *os.File", file: closed, wantSize: 8192, wantFd: -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var rd io.Reader
			var wr io.Writer
			if tc.file != nil || tc.fileNil {
				rd, wr = tc.file, tc.file
			}
			r, w := stream.NewReader(rd), stream.NewWriter(wr)
			br, bw := bufio.NewReader(rd), bufio.NewWriter(wr)
			if r.Size() != tc.wantSize || w.Size() != tc.wantSize {
				t.Errorf("sizes %d and %d, want %d", r.Size(), w.Size(), tc.wantSize)
			}
			if r.Info().Fd != tc.wantFd || w.Info().Fd != tc.wantFd {
				t.Errorf("Info: %v and %v, want fd %d", r.Info(), w.Info(), tc.wantFd)
			}
			if rd == nil {
				return // bufio panics on the first I/O; so may stream
			}
			_, err := r.ReadByte()
			_, berr := br.ReadByte()
			if !sameError(err, berr) {
				t.Errorf("ReadByte: %v, bufio's %v", err, berr)
			}
			w.WriteString("x")
			bw.WriteString("x")
			if err, berr := w.Flush(), bw.Flush(); !sameError(err, berr) {
				t.Errorf("Flush: %v, bufio's %v", err, berr)
			}
		})
	}
}

// sameError reports whether err and want are both nil or say the same.
func sameError(err, want error) bool {
	if err == nil || want == nil {
		return err == want
	}
	return err.Error() == want.Error()
}

// TestReaderInfoSizeSmall checks that Info's Size, "the buffer size in
// bytes", agrees with Size() also when the size asked for is below a
// reader's minimum of 16 bytes.
func TestReaderInfoSizeSmall(t *testing.T) {
	t.Setenv(policyEnv, "")
	tests := []struct {
		name string
		new  func(t *testing.T) *stream.Reader
	}{
		{"file, policy 8", func(t *testing.T) *stream.Reader {
			return stream.NewReaderPolicy(openTempFile(t, "hello\n"), 8)
		}},
		{"file, Setvbuf(full, 1)", func(t *testing.T) *stream.Reader {
			r := stream.NewReader(openTempFile(t, "hello\n"))
			r.Setvbuf(stream.FullyBuffered, 1)
			return r
		}},
		{"strings.Reader, Setvbuf(full, 1)", func(t *testing.T) *stream.Reader {
			r := stream.NewReader(strings.NewReader("hello\n"))
			r.Setvbuf(stream.FullyBuffered, 1)
			return r
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.new(t)
			type sizes struct{ Before, BeforeInfo, After, AfterInfo int }
			var got sizes
			got.BeforeInfo, got.Before = r.Info().Size, r.Size()
			if _, err := r.ReadString('\n'); err != nil {
				t.Fatal(err)
			}
			got.AfterInfo, got.After = r.Info().Size, r.Size()
			want := sizes{16, 16, 16, 16}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("sizes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestKernelCopyErrorSticky checks that when Reader.WriteTo or CopyBytes
// moves bytes in the kernel into a *Writer's descriptor and that fails,
// the error is the Writer's first write error: sticky, returned by its next
// Flush, as bufio's Writer.ReadFrom makes it (and as Writer.ReadFrom's
// own kernel path does).
func TestKernelCopyErrorSticky(t *testing.T) {
	tests := []struct {
		name string
		copy func(in *os.File, w *stream.Writer) error
	}{
		{"Reader.WriteTo", func(in *os.File, w *stream.Writer) error {
			_, err := stream.NewReader(in).WriteTo(w)
			return err
		}},
		{"Reader.CopyBytes", func(in *os.File, w *stream.Writer) error {
			_, err := stream.NewReader(in).CopyBytes(w, 1<<20)
			return err
		}},
		{"Writer.ReadFrom", func(in *os.File, w *stream.Writer) error {
			_, err := w.ReadFrom(in)
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := openTempFile(t, strings.Repeat("x", 100000))
			// A pipe nobody reads: the kernel copy fails with EPIPE.
			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			pr.Close()
			defer pw.Close()
			w := stream.NewWriter(pw)
			type result struct{ CopyEPIPE, FlushEPIPE bool }
			got := result{CopyEPIPE: errors.Is(tt.copy(in, w), syscall.EPIPE)}
			got.FlushEPIPE = errors.Is(w.Flush(), syscall.EPIPE)
			if diff := cmp.Diff(result{true, true}, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// handedStat is a descriptor whose owner hands the decision its fstat
// (stream's knownStat, as package os does under stdiobuf build -files),
// with typ as the file's type.
type handedStat struct {
	*os.File
	typ byte
}

func (h handedStat) StdiobufStat() (fd uintptr, typ byte, size, blksize int64, dev, ino uint64, ok bool) {
	var st syscall.Stat_t
	if err := syscall.Fstat(int(h.Fd()), &st); err != nil {
		return 0, 0, 0, 0, 0, 0, false
	}
	return h.Fd(), h.typ, st.Size, int64(st.Blksize), st.Dev, st.Ino, true
}

// TestFDHandedStat: a descriptor that hands its fstat, typ its file's
// type as ls -l shows it, is decided as from the decision's own fstat;
// a type the decision does not know makes it fstat for itself.
func TestFDHandedStat(t *testing.T) {
	regular, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer regular.Close()
	_, pw := newPipe(t)
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	_, tty := openPty(t)
	for _, c := range []struct {
		name string
		f    *os.File
		typ  byte
	}{
		{"regular", regular, '-'},
		{"pipe", pw, 'p'},
		{"null", null, 'c'},
		{"terminal", tty, 'c'},
		{"unknown type", pw, '?'},
	} {
		t.Run(c.name, func(t *testing.T) {
			info := func(w io.Writer) stream.Info {
				sw := stream.NewWriter(w)
				if _, err := sw.Write([]byte("x")); err != nil {
					t.Fatal(err)
				}
				i := sw.Info()
				sw.Reset(io.Discard) // the byte is dropped, not written
				return i
			}
			want, got := info(c.f), info(handedStat{c.f, c.typ})
			if diff := cmp.Diff(decisionOf(want), decisionOf(got)); diff != "" {
				t.Errorf("decision (-own fstat +handed):\n%s", diff)
			}
			if want.Reason != got.Reason {
				t.Errorf("reason %q, handed %q", want.Reason, got.Reason)
			}
		})
	}
}
