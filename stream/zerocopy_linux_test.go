//go:build linux

package stream

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"
)

// zcSize is the bytes a test source holds: more than one default pipe's
// worth, and not a multiple of a page.
const zcSize = 1<<20 + 4321

// zcCalls is what a zero-copy through faultySys did: its result, the sum
// of the bytes that arrived, and the calls it made.
type zcCalls struct {
	N       int64
	Handled bool
	Err     error
	Sum     string
	Calls   []string
}

// zeroCopy runs the kernel copy's machinery from src to dst through sys,
// whatever the ends' types (TestPlanCopyEnds tests planCopy's choice of
// ends): the copy a plan for them would make.
func zeroCopy(sys kernelSys, dst io.Writer, src io.Reader, limit int64, c *counters) (int64, bool, error) {
	p, ok := describeCopy(dst, newCopySource(src, limit))
	if !ok {
		return 0, false, nil
	}
	return p.runWith(sys, c)
}

// kernelCopy is a stream's kernel copy: a plan, then its run.
func kernelCopy(dst io.Writer, src io.Reader, limit int64, c *counters) (int64, bool, error) {
	p, ok := planCopy(dst, src, limit)
	if !ok {
		return 0, false, nil
	}
	return p.run(c)
}

// zcData is a test source's bytes, the same in every test.
func zcData() []byte {
	b := make([]byte, zcSize)
	r := rand.New(rand.NewPCG(4, 5))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// faultySys is linuxSys with faults injected. Calls first to last (counted
// from 1) fail with err; with after > 0, the calls take after bytes from
// the source in all and the next call fails with err. It records the
// calls' names.
type faultySys struct {
	linuxSys
	err         syscall.Errno
	first, last int
	after       int64
	pipeErr     error

	calls  int
	moved  int64 // bytes taken from the source
	names  []string
	eagain int // calls that failed with EAGAIN
	piped  bool
	pipeR  int // the intermediate pipe's read end, if piped
	pipeW  int // and its write end
	flags  []spliceCall
}

// spliceCall is the flags of one splice call, and whether it went into or
// out of the intermediate pipe.
type spliceCall struct {
	viaPipe bool
	flags   int
}

// inject makes call, a call to move up to n bytes, or fails it. take says
// whether the call takes bytes from the source, which a splice out of the
// intermediate pipe does not.
func (f *faultySys) inject(name string, n int, take bool, call func(n int) (int, error)) (int, error) {
	f.calls++
	f.names = append(f.names, name)
	if f.first <= f.calls && f.calls <= f.last {
		return -1, f.err
	}
	if f.after > 0 {
		if f.moved >= f.after {
			return -1, f.err
		}
		if take {
			n = int(min(int64(n), f.after-f.moved))
		}
	}
	m, err := call(n)
	if m > 0 && take {
		f.moved += int64(m)
	}
	if err == unix.EAGAIN {
		f.eagain++
	}
	return m, err
}

func (f *faultySys) copyFileRange(dst, src, n int) (int, error) {
	return f.inject("copy_file_range", n, true, func(n int) (int, error) { return f.linuxSys.copyFileRange(dst, src, n) })
}

func (f *faultySys) sendfile(dst, src, n int) (int, error) {
	return f.inject("sendfile", n, true, func(n int) (int, error) { return f.linuxSys.sendfile(dst, src, n) })
}

func (f *faultySys) splice(dst, src, n, flags int) (int, error) {
	f.flags = append(f.flags, spliceCall{viaPipe: f.piped && (src == f.pipeR || dst == f.pipeW), flags: flags})
	return f.inject("splice", n, !f.piped || src != f.pipeR, func(n int) (int, error) { return f.linuxSys.splice(dst, src, n, flags) })
}

func (f *faultySys) pipe() (r, w int, err error) {
	f.names = append(f.names, "pipe")
	if f.pipeErr != nil {
		return -1, -1, f.pipeErr
	}
	r, w, err = f.linuxSys.pipe()
	f.piped, f.pipeR, f.pipeW = err == nil, r, w
	return r, w, err
}

// used is the distinct calls f saw, in the order first made.
func (f *faultySys) used() []string {
	var u []string
	for _, n := range f.names {
		if !slices.Contains(u, n) {
			u = append(u, n)
		}
	}
	return u
}

// class groups kinds of ends by the call they get.
type class int

const (
	classFile  class = iota // regular file: copy_file_range, sendfile
	classPipe               // splice
	classOther              // socket, device: splice through a pipe
)

// testSource is one kind of source end.
type testSource struct {
	name  string
	class class
	// open makes the source. It returns the bytes the source has (for
	// /dev/zero, as many as a test copies) and rest, which reads what is
	// left after a copy (nil for /dev/zero, which has no end).
	open func(t *testing.T, data []byte) (r io.Reader, content []byte, rest func() []byte)
	// kernel says whether this kernel moves its bytes.
	kernel bool
}

// testDest is one kind of destination end.
type testDest struct {
	name     string
	class    class
	append   bool
	discards bool
	// open makes the destination; got ends writing and returns the bytes
	// that arrived (nil if it discards them).
	open func(t *testing.T) (w io.Writer, got func() []byte)
}

// zcPipe returns a pipe: Go's own (non-blocking, in the poller), or a
// blocking one like the pipe a shell gives a program.
func zcPipe(t *testing.T, blocking bool) (r, w *os.File) {
	t.Helper()
	if !blocking {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		return r, w
	}
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	return os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1")
}

// zcSocketPair returns a connected pair of Unix stream sockets: ours as a
// net.Conn, the peer as a blocking *os.File.
func zcSocketPair(t *testing.T) (ours net.Conn, peer *os.File) {
	t.Helper()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	f := os.NewFile(uintptr(fds[0]), "sock")
	defer f.Close()
	c, err := net.FileConn(f)
	if err != nil {
		t.Fatal(err)
	}
	return c, os.NewFile(uintptr(fds[1]), "peer")
}

// zcFeed writes data to w in the background and closes it; the returned
// function waits for that, as the test's end does.
func zcFeed(t *testing.T, w io.WriteCloser, data []byte) (wait func()) {
	done := make(chan struct{})
	t.Cleanup(func() { <-done })
	go func() {
		defer close(done)
		if _, err := w.Write(data); err != nil {
			t.Errorf("feeding the source: %v", err)
		}
		w.Close()
	}()
	return func() { <-done }
}

// zcDrain reads r to its end in the background; the returned function waits
// for that and returns the bytes.
func zcDrain(t *testing.T, r io.ReadCloser) (wait func() []byte) {
	c := make(chan []byte, 1)
	go func() {
		b, err := io.ReadAll(r)
		if err != nil {
			t.Errorf("draining the destination: %v", err)
		}
		r.Close()
		c <- b
	}()
	return func() []byte { return <-c }
}

// zcReadRest reads what is left in r.
func zcReadRest(t *testing.T, r io.Reader) []byte {
	t.Helper()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Errorf("reading the rest of the source: %v", err)
	}
	return b
}

// zcFileAfter makes a file holding prefix and then data, opens it with
// flag, and sets its offset after prefix.
func zcFileAfter(t *testing.T, prefix, data []byte, flag int) *os.File {
	t.Helper()
	name := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(name, append(slices.Clip(prefix), data...), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(name, flag, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if _, err := f.Seek(int64(len(prefix)), io.SeekStart); err != nil {
		t.Fatal(err)
	}
	return f
}

// srcPrefix is what a regular source file holds before the bytes a test
// copies: the copy starts at the file's offset, not at 0.
var srcPrefix = bytes.Repeat([]byte("skip me\n"), 100)

func testSources() []testSource {
	file := func(flag int) func(*testing.T, []byte) (io.Reader, []byte, func() []byte) {
		return func(t *testing.T, data []byte) (io.Reader, []byte, func() []byte) {
			f := zcFileAfter(t, srcPrefix, data, flag)
			return f, data, func() []byte { return zcReadRest(t, f) }
		}
	}
	pipe := func(blocking bool) func(*testing.T, []byte) (io.Reader, []byte, func() []byte) {
		return func(t *testing.T, data []byte) (io.Reader, []byte, func() []byte) {
			r, w := zcPipe(t, blocking)
			t.Cleanup(func() { r.Close() })
			wait := zcFeed(t, w, data)
			return r, data, func() []byte { b := zcReadRest(t, r); wait(); return b }
		}
	}
	device := func(name string, n int) func(*testing.T, []byte) (io.Reader, []byte, func() []byte) {
		return func(t *testing.T, data []byte) (io.Reader, []byte, func() []byte) {
			f, err := os.Open(name)
			if err != nil {
				t.Skipf("no %s: %v", name, err)
			}
			t.Cleanup(func() { f.Close() })
			if n == 0 {
				return f, nil, func() []byte { return zcReadRest(t, f) }
			}
			return f, make([]byte, n), nil
		}
	}
	return []testSource{
		{name: "file", class: classFile, kernel: true, open: file(os.O_RDONLY)},
		{name: "append", class: classFile, kernel: true, open: file(os.O_RDWR | os.O_APPEND)},
		{name: "pipe", class: classPipe, kernel: true, open: pipe(false)},
		{name: "blockpipe", class: classPipe, kernel: true, open: pipe(true)},
		{name: "socket", class: classOther, kernel: true, open: func(t *testing.T, data []byte) (io.Reader, []byte, func() []byte) {
			c, peer := zcSocketPair(t)
			t.Cleanup(func() { c.Close() })
			wait := zcFeed(t, peer, data)
			return c, data, func() []byte { b := zcReadRest(t, c); wait(); return b }
		}},
		{name: "null", class: classOther, open: device(os.DevNull, 0)},
		{name: "zero", class: classOther, kernel: splicesZero(), open: device("/dev/zero", zcSize)},
	}
}

// splicesZero reports whether this kernel splices from /dev/zero, as
// Linux does since 6.x (copy_splice_read) and earlier ones refuse.
func splicesZero() bool {
	f, err := os.Open("/dev/zero")
	if err != nil {
		return false
	}
	defer f.Close()
	var p [2]int
	if unix.Pipe2(p[:], unix.O_CLOEXEC|unix.O_NONBLOCK) != nil {
		return false
	}
	defer unix.Close(p[0])
	defer unix.Close(p[1])
	n, err := unix.Splice(int(f.Fd()), nil, p[1], nil, 1, 0)
	return n == 1 && err == nil
}

// dstPrefix is what a destination file holds before the copy: a copy
// writes at the file's offset, after it.
var dstPrefix = []byte("already here\n")

func testDests() []testDest {
	file := func(flag int) func(*testing.T) (io.Writer, func() []byte) {
		return func(t *testing.T) (io.Writer, func() []byte) {
			f := zcFileAfter(t, dstPrefix, nil, flag)
			return f, func() []byte {
				b, err := os.ReadFile(f.Name())
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.HasPrefix(b, dstPrefix) {
					t.Errorf("the destination's first bytes were overwritten: %q", b[:min(len(b), 20)])
					return b
				}
				return b[len(dstPrefix):]
			}
		}
	}
	pipe := func(blocking bool) func(*testing.T) (io.Writer, func() []byte) {
		return func(t *testing.T) (io.Writer, func() []byte) {
			r, w := zcPipe(t, blocking)
			t.Cleanup(func() { w.Close() })
			wait := zcDrain(t, r)
			return w, func() []byte { w.Close(); return wait() }
		}
	}
	device := func(name string) func(*testing.T) (io.Writer, func() []byte) {
		return func(t *testing.T) (io.Writer, func() []byte) {
			f, err := os.OpenFile(name, os.O_WRONLY, 0)
			if err != nil {
				t.Skipf("no %s: %v", name, err)
			}
			t.Cleanup(func() { f.Close() })
			return f, func() []byte { return nil }
		}
	}
	return []testDest{
		{name: "file", class: classFile, open: file(os.O_WRONLY)},
		{name: "append", class: classFile, append: true, open: file(os.O_WRONLY | os.O_APPEND)},
		{name: "pipe", class: classPipe, open: pipe(false)},
		{name: "blockpipe", class: classPipe, open: pipe(true)},
		{name: "socket", class: classOther, open: func(t *testing.T) (io.Writer, func() []byte) {
			c, peer := zcSocketPair(t)
			t.Cleanup(func() { c.Close() })
			wait := zcDrain(t, peer)
			return c, func() []byte { c.Close(); return wait() }
		}},
		{name: "null", class: classOther, discards: true, open: device(os.DevNull)},
		{name: "zero", class: classOther, discards: true, open: device("/dev/zero")},
	}
}

// wantCalls is the calls a kernel copy from one class of end to another
// makes (the pipe being the intermediate one).
var wantCalls = map[[2]class][]string{
	{classFile, classFile}:   {"copy_file_range"},
	{classFile, classPipe}:   {"sendfile"},
	{classFile, classOther}:  {"sendfile"},
	{classPipe, classFile}:   {"splice"},
	{classPipe, classPipe}:   {"splice"},
	{classPipe, classOther}:  {"splice"},
	{classOther, classFile}:  {"pipe", "splice"},
	{classOther, classPipe}:  {"splice"},
	{classOther, classOther}: {"pipe", "splice"},
}

// zcRun is one way of running a copy in TestKernelCopyPairs.
type zcRun struct {
	name   string
	sys    func() *faultySys
	limit  int64 // kernelCopy's limit argument
	lrN    int64 // if >= 0, the source is wrapped in an io.LimitedReader with this N
	faultK int64 // if > 0, the copy fails after moving this many bytes
	// declines says the kernel copy is declined even where the kernel
	// could do it (and for a file to a file, only with copy_file_range).
	declines bool
}

// TestKernelCopyPairs copies between every pair of kinds of ends, with the
// kernel doing what it does and with refusals and failures injected, and
// checks that the bytes that reach the destination and those left in the
// source make up the source's bytes exactly once.
func TestKernelCopyPairs(t *testing.T) {
	data := zcData()
	const k = 100_003 // where injected failures happen: not on a page boundary
	real := func() *faultySys { return &faultySys{} }
	runs := []zcRun{
		{name: "all", sys: real, limit: -1, lrN: -1},
		{name: "limit", sys: real, limit: zcSize - 1000, lrN: -1},
		{name: "limitedreader", sys: real, limit: -1, lrN: zcSize/2 + 7},
		{name: "refuse-all", limit: -1, lrN: zcSize - 5, declines: true,
			sys: func() *faultySys { return &faultySys{err: unix.EINVAL, first: 1, last: math.MaxInt} }},
		{name: "refuse-first", limit: -1, lrN: -1, declines: true,
			sys: func() *faultySys { return &faultySys{err: unix.ENOSYS, first: 1, last: 1} }},
		{name: "eio-after-k", limit: -1, lrN: -1, faultK: k,
			sys: func() *faultySys { return &faultySys{err: unix.EIO, after: k} }},
		{name: "einval-after-k", limit: -1, lrN: zcSize - 3, faultK: k,
			sys: func() *faultySys { return &faultySys{err: unix.EINVAL, after: k} }},
	}
	for _, src := range testSources() {
		for _, dst := range testDests() {
			for _, run := range runs {
				t.Run(src.name+"-"+dst.name+"/"+run.name, func(t *testing.T) {
					testKernelCopyPair(t, data, src, dst, run)
				})
			}
		}
	}
}

// zcOutcome is what a copy did, with bytes as checksums.
type zcOutcome struct {
	Written   int64  // bytes the copy reports written
	Kernel    bool   // handled by the kernel copy
	Err       string // the error's errno, "" for none
	Delivered string // checksum of the bytes at the destination; "" if it discards them
	Whole     string // checksum of those bytes and the rest of the source; "" if the source has no end
	LimitN    int64  // the LimitedReader's N after the copy, -1 if none
}

// zcSum is a short checksum of b.
func zcSum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:8])
}

func testKernelCopyPair(t *testing.T, data []byte, src testSource, dst testDest, run zcRun) {
	r, content, rest := src.open(t, data)
	w, got := dst.open(t)
	limit := run.limit
	if rest == nil && limit < 0 && run.lrN < 0 {
		limit = zcSize // /dev/zero never ends: every copy from it has a limit
	}
	var lr *io.LimitedReader
	if run.lrN >= 0 {
		lr = &io.LimitedReader{R: r, N: run.lrN}
		r = lr
	}
	// want is how many bytes a copy moves if nothing fails.
	want := int64(len(content))
	if limit >= 0 {
		want = min(want, limit)
	}
	if lr != nil {
		want = min(want, lr.N)
	}

	sys := run.sys()
	var c counters
	n, handled, err := zeroCopy(sys, w, r, limit, &c)
	// Info's counts: each kernel call once, and no read(2) or write(2),
	// but for the Writes that rescue bytes left in the intermediate pipe
	// when the splice out of it failed.
	rescued := sys.piped && run.faultK > 0
	if c.kernel != int64(sys.calls) || c.reads != 0 || (c.writes != 0 && !rescued) {
		t.Errorf("counters %+v after %d kernel calls; want kernel=%d, no reads, no writes", c, sys.calls, sys.calls)
	}
	if !handled {
		// The caller's part: copy in user space.
		if n != 0 || sys.moved != 0 {
			t.Errorf("declined after moving bytes: n=%d, %d moved by calls", n, sys.moved)
		}
		fr := r
		if limit >= 0 {
			fr = io.LimitReader(r, limit)
		}
		n, err = io.Copy(struct{ io.Writer }{w}, struct{ io.Reader }{fr})
	}
	delivered := got()
	var left []byte
	if rest != nil {
		left = rest()
	}

	kernel := src.kernel && !dst.append && want > 0
	wantOut := zcOutcome{Written: want, Kernel: kernel && !run.declines, LimitN: -1}
	if run.name == "refuse-first" && src.class == classFile && dst.class == classFile && kernel {
		wantOut.Kernel = true // sendfile takes over from copy_file_range
	}
	if run.faultK > 0 && kernel {
		wantOut.Written = run.faultK
		wantOut.Err = sys.err.Error()
	}
	if lr != nil {
		wantOut.LimitN = run.lrN - wantOut.Written
	}
	if !dst.discards {
		wantOut.Delivered = zcSum(content[:wantOut.Written])
	}
	if rest != nil {
		wantOut.Whole = zcSum(content)
	}

	gotOut := zcOutcome{Written: n, Kernel: handled, LimitN: -1}
	if err != nil {
		var errno syscall.Errno
		if !errors.As(err, &errno) {
			t.Fatalf("error %v is not a system call's", err)
		}
		gotOut.Err = errno.Error()
	}
	if lr != nil {
		gotOut.LimitN = lr.N
	}
	if delivered != nil {
		gotOut.Delivered = zcSum(delivered)
	}
	if rest != nil {
		gotOut.Whole = zcSum(append(slices.Clip(delivered), left...))
		if delivered == nil { // discarded: the rest must follow what was written
			gotOut.Whole = zcSum(append(slices.Clip(content[:min(n, int64(len(content)))]), left...))
		}
	}
	if diff := cmp.Diff(wantOut, gotOut); diff != "" {
		t.Errorf("copy %s -> %s (%s): outcome mismatch (-want +got):\n%s", src.name, dst.name, run.name, diff)
	}

	if handled && n > 0 {
		if c.kernel == 0 {
			t.Errorf("counters %+v: a kernel copy that moved bytes counted no calls", c)
		}
		if run.name == "all" {
			if diff := cmp.Diff(wantCalls[[2]class{src.class, dst.class}], sys.used()); diff != "" {
				t.Errorf("calls made (-want +got):\n%s", diff)
			}
		}
	}
	if dst.append && len(sys.names) != 0 {
		t.Errorf("tried %v on an O_APPEND destination", sys.names)
	}
}

// TestKernelCopyDeclines covers copies that the kernel copy leaves to the
// caller without touching either end's bytes. A copy of nothing (a limit
// of 0) is left to the caller too, so that a Writer flushes nothing for
// it, as bufio's ReadFrom does not.
func TestKernelCopyDeclines(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	if err := os.WriteFile(name, []byte("some bytes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	open := func(t *testing.T, name string, flag int) *os.File {
		t.Helper()
		f, err := os.OpenFile(name, flag, 0o600)
		if err != nil {
			t.Skipf("cannot open %s with flags %#x here: %v", name, flag, err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	tests := []struct {
		name  string
		src   func(t *testing.T) io.Reader
		dst   func(t *testing.T) io.Writer
		limit int64
		sys   *faultySys
		tries bool // the kernel is asked, and refuses
	}{{
		name:  "not-a-descriptor-source",
		limit: -1,
		src:   func(t *testing.T) io.Reader { return bytes.NewReader([]byte("x")) },
		dst:   func(t *testing.T) io.Writer { return open(t, filepath.Join(dir, "out1"), os.O_WRONLY|os.O_CREATE) },
	}, {
		name:  "not-a-descriptor-destination",
		limit: -1,
		src:   func(t *testing.T) io.Reader { return open(t, name, os.O_RDONLY) },
		dst:   func(t *testing.T) io.Writer { return new(bytes.Buffer) },
	}, {
		name:  "datagram-socket",
		limit: -1,
		src:   func(t *testing.T) io.Reader { return open(t, name, os.O_RDONLY) },
		dst: func(t *testing.T) io.Writer {
			fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
			if err != nil {
				t.Fatal(err)
			}
			unix.Close(fds[1])
			f := os.NewFile(uintptr(fds[0]), "dgram")
			t.Cleanup(func() { f.Close() })
			return f
		},
	}, {
		name:  "directory",
		limit: -1,
		src:   func(t *testing.T) io.Reader { return open(t, dir, os.O_RDONLY) },
		dst:   func(t *testing.T) io.Writer { return open(t, os.DevNull, os.O_WRONLY) },
	}, {
		name:  "same-file",
		limit: -1,
		src:   func(t *testing.T) io.Reader { return open(t, name, os.O_RDONLY) },
		dst:   func(t *testing.T) io.Writer { return open(t, name, os.O_WRONLY) },
	}, {
		name:  "o-direct",
		limit: -1,
		src:   func(t *testing.T) io.Reader { return open(t, name, os.O_RDONLY|syscall.O_DIRECT) },
		dst:   func(t *testing.T) io.Writer { return open(t, filepath.Join(dir, "out2"), os.O_WRONLY|os.O_CREATE) },
	}, {
		name:  "dev-full-refuses-sendfile",
		tries: true,
		limit: -1,
		src:   func(t *testing.T) io.Reader { return open(t, name, os.O_RDONLY) },
		dst:   func(t *testing.T) io.Writer { return open(t, "/dev/full", os.O_WRONLY) },
	}, {
		name:  "dev-full-refuses-splice",
		tries: true,
		src:   func(t *testing.T) io.Reader { return open(t, "/dev/zero", os.O_RDONLY) },
		dst:   func(t *testing.T) io.Writer { return open(t, "/dev/full", os.O_WRONLY) },
		limit: 10,
	}, {
		name:  "no-intermediate-pipe",
		tries: true,
		src:   func(t *testing.T) io.Reader { return open(t, "/dev/zero", os.O_RDONLY) },
		dst:   func(t *testing.T) io.Writer { return open(t, os.DevNull, os.O_WRONLY) },
		limit: 10,
		sys:   &faultySys{pipeErr: unix.EMFILE},
	}, {
		name:  "source-at-end",
		tries: true,
		limit: -1,
		src: func(t *testing.T) io.Reader {
			f := open(t, name, os.O_RDONLY)
			if _, err := f.Seek(0, io.SeekEnd); err != nil {
				t.Fatal(err)
			}
			return f
		},
		dst: func(t *testing.T) io.Writer { return open(t, filepath.Join(dir, "out3"), os.O_WRONLY|os.O_CREATE) },
	}, {
		name: "limit-zero",
		src:  func(t *testing.T) io.Reader { return open(t, name, os.O_RDONLY) },
		dst:  func(t *testing.T) io.Writer { return open(t, os.DevNull, os.O_WRONLY) },
	}, {
		name:  "limitedreader-zero",
		src:   func(t *testing.T) io.Reader { return &io.LimitedReader{R: open(t, name, os.O_RDONLY), N: 0} },
		dst:   func(t *testing.T) io.Writer { return open(t, os.DevNull, os.O_WRONLY) },
		limit: -1,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, dst := tt.src(t), tt.dst(t)
			sys := tt.sys
			if sys == nil {
				sys = &faultySys{}
			}
			var c counters
			n, handled, err := zeroCopy(sys, dst, src, tt.limit, &c)
			if diff := cmp.Diff([]any{int64(0), false, nil}, []any{n, handled, err}); diff != "" {
				t.Errorf("zeroCopy (-want +got):\n%s", diff)
			}
			if sys.moved != 0 {
				t.Errorf("calls moved %d bytes", sys.moved)
			}
			if tried := len(sys.names) > 0; tried != tt.tries {
				t.Errorf("calls made: %q; want some: %v", sys.names, tt.tries)
			}
			if f, ok := src.(*os.File); ok {
				if off, err := f.Seek(0, io.SeekCurrent); err == nil && off != 0 && tt.name != "source-at-end" {
					t.Errorf("source offset moved to %d", off)
				}
			}
		})
	}
}

// TestKernelCopyLimitLessThanLimitedReader checks that the smaller of the
// limit and the LimitedReader's N wins, and that N is kept right.
func TestKernelCopyLimitLessThanLimitedReader(t *testing.T) {
	data := zcData()
	f := zcFileAfter(t, nil, data, os.O_RDONLY)
	r, w := zcPipe(t, false)
	got := zcDrain(t, r)
	inner := &io.LimitedReader{R: f, N: 5000}
	outer := &io.LimitedReader{R: inner, N: 4000}
	var c counters
	n, handled, err := kernelCopy(w, outer, 3000, &c)
	w.Close()
	type result struct {
		N                 int64
		Handled           bool
		Err               error
		Outer, Inner, Off int64
		Sum               string
	}
	off, _ := f.Seek(0, io.SeekCurrent)
	want := result{N: 3000, Handled: true, Outer: 1000, Inner: 2000, Off: 3000, Sum: zcSum(data[:3000])}
	if diff := cmp.Diff(want, result{n, handled, err, outer.N, inner.N, off, zcSum(got())}); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestKernelCopyDeadline checks that a kernel copy waits for a
// non-blocking pipe in Go's poller, so that the pipe's deadline applies:
// before any byte moved the copy is left to the caller, whose Read meets
// the deadline; after, the deadline's error ends the copy.
func TestKernelCopyDeadline(t *testing.T) {
	for _, fed := range []int{0, 1000} {
		t.Run(strconv.Itoa(fed), func(t *testing.T) {
			r, w := zcPipe(t, false)
			defer r.Close()
			defer w.Close()
			if _, err := w.Write(make([]byte, fed)); err != nil {
				t.Fatal(err)
			}
			if err := r.SetReadDeadline(time.Now().Add(50 * time.Millisecond)); err != nil {
				t.Fatal(err)
			}
			null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer null.Close()
			var c counters
			n, handled, err := kernelCopy(null, r, -1, &c)
			if n != int64(fed) || handled != (fed > 0) || (fed > 0) != errors.Is(err, os.ErrDeadlineExceeded) {
				t.Errorf("kernelCopy = %d, %v, %v; want %d, %v, deadline error: %v", n, handled, err, fed, fed > 0, fed > 0)
			}
		})
	}
}

// TestKernelCopyBrokenPipe checks that a destination that fails before any
// byte moved is an error, not a refusal: copying in user space would fail
// the same way.
func TestKernelCopyBrokenPipe(t *testing.T) {
	f := zcFileAfter(t, nil, []byte("lost\n"), os.O_RDONLY)
	r, w := zcPipe(t, false)
	r.Close()
	defer w.Close()
	n, handled, err := kernelCopy(w, f, -1, new(counters))
	var se *os.SyscallError
	if n != 0 || !handled || !errors.As(err, &se) || se.Syscall != "sendfile" || !errors.Is(err, syscall.EPIPE) {
		t.Errorf("kernelCopy = %d, %v, %v; want 0, true, sendfile: broken pipe", n, handled, err)
	}
}

// TestKernelCopyTCP copies into, out of and between TCP connections.
func TestKernelCopyTCP(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no TCP on the loopback interface: %v", err)
	}
	defer ln.Close()
	// conn returns a connected pair of TCP connections.
	conn := func(t *testing.T) (net.Conn, net.Conn) {
		t.Helper()
		c := make(chan net.Conn, 1)
		go func() {
			a, err := ln.Accept()
			if err != nil {
				t.Error(err)
			}
			c <- a
		}()
		d, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		a := <-c
		t.Cleanup(func() { a.Close(); d.Close() })
		return d, a
	}
	data := zcData()
	fileSrc := func(t *testing.T) io.Reader { return zcFileAfter(t, nil, data, os.O_RDONLY) }
	tcpSrc := func(t *testing.T) io.Reader {
		d, a := conn(t)
		zcFeed(t, d, data)
		return a
	}
	tcpDst := func(t *testing.T) (io.Writer, func() []byte) {
		d, a := conn(t)
		wait := zcDrain(t, a)
		return d, func() []byte { d.Close(); return wait() }
	}
	pipeDst := func(t *testing.T) (io.Writer, func() []byte) {
		r, w := zcPipe(t, false)
		wait := zcDrain(t, r)
		return w, func() []byte { w.Close(); return wait() }
	}
	tests := []struct {
		name  string
		src   func(t *testing.T) io.Reader
		dst   func(t *testing.T) (io.Writer, func() []byte)
		calls []string
	}{
		{"file-tcp", fileSrc, tcpDst, []string{"sendfile"}},
		{"tcp-pipe", tcpSrc, pipeDst, []string{"splice"}},
		{"tcp-tcp", tcpSrc, tcpDst, []string{"pipe", "splice"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.src(t)
			dst, got := tt.dst(t)
			sys := &faultySys{}
			n, handled, err := zeroCopy(sys, dst, src, -1, new(counters))
			want := zcCalls{N: zcSize, Handled: true, Sum: zcSum(data), Calls: tt.calls}
			if diff := cmp.Diff(want, zcCalls{n, handled, err, zcSum(got()), sys.used()}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestKernelCopyWaits copies between pipes that are not ready all the
// time, blocking ones and ones in Go's poller, so that calls fail with
// EAGAIN on either end and the copy waits for the right one.
func TestKernelCopyWaits(t *testing.T) {
	data := zcData()
	const chunk = 64 << 10
	// feed writes data to w a chunk at a time, slowly or not, and closes it.
	feed := func(w io.WriteCloser, slowly bool) {
		defer w.Close()
		for b := data; len(b) > 0; b = b[min(chunk, len(b)):] {
			if slowly {
				time.Sleep(time.Millisecond)
			}
			if _, err := w.Write(b[:min(chunk, len(b))]); err != nil {
				t.Errorf("feeding the source: %v", err)
				return
			}
		}
	}
	tests := []struct {
		name                     string
		srcBlocking, dstBlocking bool
		slowSource               bool // else a slow destination
	}{
		{"blocking-source-to-poller", true, false, true},
		{"poller-to-blocking-destination", false, true, false},
		{"poller-to-poller-slow-source", false, false, true},
		{"poller-to-poller-slow-destination", false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sr, sw := zcPipe(t, tt.srcBlocking)
			dr, dw := zcPipe(t, tt.dstBlocking)
			defer sr.Close()
			done := make(chan struct{})
			go func() { defer close(done); feed(sw, tt.slowSource) }()
			got := make(chan []byte, 1)
			go func() {
				var b []byte
				buf := make([]byte, chunk/4)
				for {
					if !tt.slowSource {
						time.Sleep(100 * time.Microsecond)
					}
					n, err := dr.Read(buf)
					b = append(b, buf[:n]...)
					if err != nil {
						break
					}
				}
				dr.Close()
				got <- b
			}()
			sys := &faultySys{}
			n, handled, err := zeroCopy(sys, dw, sr, -1, new(counters))
			dw.Close()
			<-done
			type result struct {
				N       int64
				Handled bool
				Err     error
				Sum     string
			}
			if diff := cmp.Diff(result{zcSize, true, nil, zcSum(data)}, result{n, handled, err, zcSum(<-got)}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if sys.eagain == 0 {
				t.Errorf("no call failed with EAGAIN: the waiting was not tried")
			}
		})
	}
}

// TestKernelCopySpliceFlags: every splice into or out of the package's
// own intermediate pipe passes SPLICE_F_NONBLOCK, since kernels before 5.1
// ignore the pipe's O_NONBLOCK and would wait for good; a splice straight
// between the caller's descriptors leaves blocking to their own flags.
func TestKernelCopySpliceFlags(t *testing.T) {
	data := zcData()
	socketSrc := func(t *testing.T) io.Reader {
		c, peer := zcSocketPair(t)
		zcFeed(t, peer, data)
		return c
	}
	tests := []struct {
		name string
		dst  func(t *testing.T) (io.Writer, func() []byte)
		want []spliceCall // the distinct calls, in the order first made
	}{
		{"socket-to-socket", func(t *testing.T) (io.Writer, func() []byte) {
			c, peer := zcSocketPair(t)
			wait := zcDrain(t, peer)
			return c, func() []byte { c.Close(); return wait() }
		}, []spliceCall{{viaPipe: true, flags: unix.SPLICE_F_MOVE | unix.SPLICE_F_NONBLOCK}}},
		{"socket-to-pipe", func(t *testing.T) (io.Writer, func() []byte) {
			r, w := zcPipe(t, false)
			wait := zcDrain(t, r)
			return w, func() []byte { w.Close(); return wait() }
		}, []spliceCall{{viaPipe: false, flags: unix.SPLICE_F_MOVE}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := socketSrc(t)
			dst, got := tt.dst(t)
			sys := &faultySys{}
			n, handled, err := zeroCopy(sys, dst, src, -1, new(counters))
			if n != zcSize || !handled || err != nil {
				t.Fatalf("zeroCopy = %d, %v, %v; want %d, true, nil", n, handled, err, zcSize)
			}
			if sum := zcSum(got()); sum != zcSum(data) {
				t.Errorf("the destination got other bytes than the source's")
			}
			var distinct []spliceCall
			for _, c := range sys.flags {
				if !slices.Contains(distinct, c) {
					distinct = append(distinct, c)
				}
			}
			if diff := cmp.Diff(tt.want, distinct, cmp.AllowUnexported(spliceCall{})); diff != "" {
				t.Errorf("splice calls (-want +got):\n%s", diff)
			}
		})
	}
}

// fdOnly offers its descriptor by an Fd method alone, without SyscallConn;
// Fd takes the number without making the descriptor blocking.
type fdOnly struct{ f *os.File }

func (o fdOnly) Read(p []byte) (int, error)  { return o.f.Read(p) }
func (o fdOnly) Write(p []byte) (int, error) { return o.f.Write(p) }
func (o fdOnly) Fd() uintptr {
	fd := ^uintptr(0)
	if rc, err := o.f.SyscallConn(); err == nil {
		rc.Control(func(d uintptr) { fd = d })
	}
	return fd
}

// embeddingFile and embeddingTCP embed a file and a TCP connection: they
// have every method of the embedded value, and could override Read or
// Write.
type (
	embeddingFile struct{ *os.File }
	embeddingTCP  struct{ *net.TCPConn }
)

// TestPlanCopyEnds: a kernel copy is planned only from a concrete
// *os.File, under LimitedReaders or not, to a concrete *os.File; never
// from or to a type embedding one, a socket of package net or any other
// value with Fd or SyscallConn, nor for a nil *os.File.
func TestPlanCopyEnds(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no TCP on the loopback interface: %v", err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		a, _ := ln.Accept()
		accepted <- a
	}()
	d, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	a := <-accepted
	defer a.Close()
	tcp := a.(*net.TCPConn)
	unixConn, _ := zcSocketPair(t)
	defer unixConn.Close()
	file := zcFileAfter(t, nil, []byte("data\n"), os.O_RDONLY)
	out := zcFileAfter(t, nil, nil, os.O_WRONLY)

	tests := []struct {
		name string
		dst  io.Writer
		src  io.Reader
		want bool
	}{
		{"file to file", out, file, true},
		{"limited file to file", out, &io.LimitedReader{R: &io.LimitedReader{R: file, N: 9}, N: 3}, true},
		{"tcp to file", out, tcp, false},
		{"unix socket to file", out, unixConn, false},
		{"file to tcp", tcp, file, false},
		{"file to embedding file", embeddingFile{out}, file, false},
		{"embedding file to file", out, embeddingFile{file}, false},
		{"limited embedding file to file", out, io.LimitReader(embeddingFile{file}, 3), false},
		{"embedding tcp to file", out, embeddingTCP{tcp}, false},
		{"Fd-only to file", out, fdOnly{file}, false},
		{"file to Fd-only", fdOnly{out}, file, false},
		{"nil file to file", out, (*os.File)(nil), false},
		{"file to nil file", (*os.File)(nil), file, false},
		{"nil tcp to file", out, (*net.TCPConn)(nil), false},
		{"bytes to file", out, bytes.NewReader([]byte("x")), false},
		{"nil to file", out, nil, false},
	}
	for _, tt := range tests {
		if _, got := planCopy(tt.dst, tt.src, -1); got != tt.want {
			t.Errorf("%s: planCopy planned %v, want %v", tt.name, got, tt.want)
		}
	}
}
