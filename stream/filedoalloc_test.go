package stream

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The policy tables, without descriptors: parsing and printing policies,
// modes and Info, and the size each policy gives for an fstat result.

func TestParsePolicy(t *testing.T) {
	tests := []struct {
		in   string
		want Policy
	}{
		{"blksize", PolicyBlksize},
		{"BLKSIZE", PolicyBlksize},
		{"BufSiz", PolicyBufsiz},
		{"coreutils", PolicyCoreutils},
		{"Bufio", PolicyBufio},
		{"cpython", PolicyCpython},
		{"CPython", PolicyCpython},
		{"rust", PolicyRust},
		{"Rust", PolicyRust},
		{"readahead", PolicyReadahead},
		{"default", PolicyDefault},
		{"65536", 65536},
		{"1", 1},
		{"64K", 65536},
		{"64k", 65536},
		{"64KiB", 65536},
		{"64kib", 65536},
		{"64KB", 64000},
		{"1M", 1 << 20},
		{"1MiB", 1 << 20},
		{"2MB", 2000000},
		{"1G", 1 << 30},
		{"1GB", 1000000000},
		{"1073741824", 1 << 30},
	}
	for _, tt := range tests {
		got, err := ParsePolicy(tt.in)
		if got != tt.want || err != nil {
			t.Errorf("ParsePolicy(%q) = %v, %v; want %v, nil", tt.in, got, err, tt.want)
		}
	}
	// Each error names the text, then why: the accepted forms, or the
	// bound a size broke.
	const forms = ": want blksize, bufsiz, coreutils, bufio, readahead, cpython, rust, readahead:SIZE, default or a size such as 65536 or 64K"
	const tooBig = ": a size is at most 1 GiB (1073741824 bytes)"
	const notPositive = ": a size must be positive"
	bad := []struct{ in, why string }{
		{"", forms}, {"bogus", forms}, {"-1", forms}, {"abc", forms}, {"12Q", forms}, {"64 K", forms},
		{" 64K", forms}, {"K", forms}, {"0x10", forms}, {"+5", forms}, {"1.5M", forms},
		{"0", notPositive}, {"0K", notPositive},
		{"2G", tooBig}, {"1073741825", tooBig}, {"1025M", tooBig}, {"99999999999999999999999", tooBig},
	}
	for _, tt := range bad {
		got, err := ParsePolicy(tt.in)
		if !errors.Is(err, ErrInvalidPolicy) || errors.Is(err, ErrInvalidSize) {
			t.Errorf("ParsePolicy(%q) = %v, %v; want an error wrapping ErrInvalidPolicy only", tt.in, got, err)
			continue
		}
		want := "stream: invalid policy " + strconv.Quote(tt.in) + tt.why
		if diff := cmp.Diff(want, err.Error()); diff != "" {
			t.Errorf("ParsePolicy(%q) error (-want +got):\n%s", tt.in, diff)
		}
	}
}

func TestPolicyString(t *testing.T) {
	tests := []struct {
		p    Policy
		want string
	}{
		{PolicyDefault, "default"},
		{PolicyBlksize, "blksize"},
		{PolicyBufsiz, "bufsiz"},
		{PolicyCoreutils, "coreutils"},
		{PolicyBufio, "bufio"},
		{PolicyReadahead, "readahead"},
		{PolicyCpython, "cpython"},
		{PolicyRust, "rust"},
		{65536, "65536"},
		{1, "1"},
		{-8, "Policy(-8)"},
		{-100, "Policy(-100)"},
	}
	for _, tt := range tests {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("Policy(%d).String() = %q, want %q", int(tt.p), got, tt.want)
		}
		// A valid policy prints as ParsePolicy reads it.
		if tt.p >= PolicyRust {
			if back, err := ParsePolicy(tt.want); back != tt.p || err != nil {
				t.Errorf("ParsePolicy(%q) = %v, %v; want %d", tt.want, back, err, int(tt.p))
			}
		}
	}
}

func TestModeString(t *testing.T) {
	tests := []struct {
		m    Mode
		want string
	}{
		{FullyBuffered, "full"},
		{LineBuffered, "line"},
		{Unbuffered, "none"},
		{Mode(3), "Mode(3)"},
		{Mode(-1), "Mode(-1)"},
	}
	for _, tt := range tests {
		if got := tt.m.String(); got != tt.want {
			t.Errorf("Mode(%d).String() = %q, want %q", int(tt.m), got, tt.want)
		}
	}
}

func TestInfoString(t *testing.T) {
	tests := []struct {
		i    Info
		want string
	}{
		{
			Info{Fd: 0, Mode: FullyBuffered, Size: 131072, Policy: PolicyBlksize, Blksize: 131072, Reason: "st_blksize 131072", Reads: 1758},
			`fd=0 mode=full size=131072 policy=blksize blksize=131072 reads=1758 writes=0 kernel=0 ahead=0 overlapped=0 waited=0 reason="st_blksize 131072"`,
		},
		{
			Info{Fd: -1, Mode: Unbuffered, Size: 4096, Policy: 65536, Reason: `_STDBUF_O="0"`, Writes: 3, Kernel: 2},
			`fd=-1 mode=none size=4096 policy=65536 blksize=0 reads=0 writes=3 kernel=2 ahead=0 overlapped=0 waited=0 reason="_STDBUF_O=\"0\""`,
		},
		{Info{}, `fd=0 mode=full size=0 policy=default blksize=0 reads=0 writes=0 kernel=0 ahead=0 overlapped=0 waited=0 reason=""`},
	}
	for _, tt := range tests {
		if got := tt.i.String(); got != tt.want {
			t.Errorf("Info.String():\n got %s\nwant %s", got, tt.want)
		}
	}
}

// TestCoreutilsBlksize checks io_blksize(): the smallest multiple of
// st_blksize that is at least 256 KiB (coreutils adds (IO_BUFSIZE - 1) -
// (IO_BUFSIZE - 1) % blksize), rounded up to a power of two for a regular
// file; an st_blksize <= 0 counts as 256 KiB.
func TestCoreutilsBlksize(t *testing.T) {
	tests := []struct {
		blksize      int64
		regular, not int
	}{
		{4096, 262144, 262144},
		{131072, 262144, 262144},
		{262144, 262144, 262144},
		{1048576, 1048576, 1048576},
		{0, 262144, 262144},
		{-1, 262144, 262144},
		{512, 262144, 262144},
		{3000, 524288, 264000},      // 88 * 3000
		{100000, 524288, 300000},    // 3 * 100000
		{262145, 524288, 262145},    // one block past 256 KiB
		{4 << 20, 4 << 20, 4 << 20}, // CephFS
		{2 << 30, 262144, 262144},   // past 1 GiB: taken as bogus
	}
	for _, tt := range tests {
		if got := coreutilsBlksize(tt.blksize, true); got != tt.regular {
			t.Errorf("coreutilsBlksize(%d, regular) = %d, want %d", tt.blksize, got, tt.regular)
		}
		if got := coreutilsBlksize(tt.blksize, false); got != tt.not {
			t.Errorf("coreutilsBlksize(%d, not regular) = %d, want %d", tt.blksize, got, tt.not)
		}
	}
}

// TestPolicySize checks the size every policy gives for the st_blksize
// values seen in practice and the absurd ones: a failed fstat, 0 and
// negative; 512 (WSL1), 1024 (ext4 made with -b 1024, procfs, a pty);
// 4096 (ext4, tmpfs, pipes); odd sizes that are not powers of two (ZFS);
// 128 KiB (ZFS, XFS largeio); 2 MiB (tmpfs with huge pages), 8 MiB and
// 1 TiB. Only coreutils depends on whether the file is regular.
func TestPolicySize(t *testing.T) {
	const failed = math.MinInt64 // fstat failed: no fileStat
	blksizes := []int64{failed, -1, 0, 512, 1024, 3000, 4096, 8192, 3*4096 + 512, 65536, 100000, 131072, 2 << 20, 8 << 20, 1 << 40}
	const (
		anyFile = iota
		regularFile
		otherFile
	)
	tests := []struct {
		p    Policy
		file int
		want []int
	}{
		{PolicyBlksize, anyFile, []int{8192, 8192, 8192, 4096, 4096, 4096, 4096, 8192, 16384, 65536, 131072, 131072, 131072, 131072, 131072}},
		{PolicyReadahead, anyFile, []int{8192, 8192, 8192, 4096, 4096, 4096, 4096, 8192, 16384, 65536, 131072, 131072, 131072, 131072, 131072}},
		{PolicyBufsiz, anyFile, []int{8192, 8192, 8192, 512, 1024, 3000, 4096, 8192, 8192, 8192, 8192, 8192, 8192, 8192, 8192}},
		{PolicyCoreutils, regularFile, []int{262144, 262144, 262144, 262144, 262144, 524288, 262144, 262144, 524288, 262144, 524288, 262144, 2 << 20, 8 << 20, 262144}},
		{PolicyCoreutils, otherFile, []int{262144, 262144, 262144, 262144, 262144, 264000, 262144, 262144, 268800, 262144, 300000, 262144, 2 << 20, 8 << 20, 262144}},
		{PolicyBufio, anyFile, []int{4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096, 4096}},
		{PolicyCpython, anyFile, []int{131072, 131072, 131072, 131072, 131072, 131072, 131072, 131072, 131072, 131072, 131072, 131072, 2 << 20, 8 << 20, 8 << 20}},
		{PolicyRust, anyFile, []int{8192, 8192, 8192, 8192, 8192, 8192, 8192, 8192, 8192, 8192, 8192, 8192, 8192, 8192, 8192}},
		{12345, anyFile, []int{12345, 12345, 12345, 12345, 12345, 12345, 12345, 12345, 12345, 12345, 12345, 12345, 12345, 12345, 12345}},
	}
	for _, tt := range tests {
		for _, reg := range []bool{false, true} {
			if tt.file == regularFile && !reg || tt.file == otherFile && reg {
				continue
			}
			var got []int
			for _, b := range blksizes {
				var st *fileStat
				if b != failed {
					st = &fileStat{blksize: b, regular: reg}
				}
				size, reason := tt.p.size(st)
				if reason.String() == "" {
					t.Errorf("%v.size(st_blksize %d): no reason", tt.p, b)
				}
				got = append(got, size)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%v, regular %v: sizes for st_blksize %v (-want +got):\n%s", tt.p, reg, blksizes, diff)
			}
		}
	}
}

// TestFileCap checks the cap of a Reader's buffer over a regular file:
// st_size in whole st_blksize blocks (BUFSIZ blocks where the platform
// gives no block size: Windows, wasip1), at least one block and never
// below bufio's 4096; none for a file that is not regular, or larger than
// any buffer.
func TestFileCap(t *testing.T) {
	type result struct {
		Limit int
		OK    bool
	}
	tests := []struct {
		st   *fileStat
		want result
	}{
		{nil, result{0, false}},
		{&fileStat{blksize: 4096, size: 100}, result{0, false}}, // a pipe, a terminal
		{&fileStat{blksize: 4096, size: 0, regular: true}, result{4096, true}},
		{&fileStat{blksize: 4096, size: 4097, regular: true}, result{8192, true}},
		{&fileStat{blksize: 1024, size: 0, regular: true}, result{4096, true}},
		{&fileStat{blksize: 1024, size: 1500, regular: true}, result{4096, true}},
		{&fileStat{blksize: 1024, size: 5000, regular: true}, result{5120, true}},
		{&fileStat{blksize: 512, size: 100, regular: true}, result{4096, true}},
		{&fileStat{blksize: 0, size: 0, regular: true}, result{glibcBUFSIZ, true}},
		{&fileStat{blksize: 0, size: 100, regular: true}, result{glibcBUFSIZ, true}},
		{&fileStat{blksize: 0, size: 2*glibcBUFSIZ + 1, regular: true}, result{3 * glibcBUFSIZ, true}},
		{&fileStat{blksize: 131072, size: 1, regular: true}, result{131072, true}},
		{&fileStat{blksize: 4096, size: 1 << 50, regular: true}, result{0, false}},
	}
	for _, tt := range tests {
		limit, ok := fileCap(tt.st)
		if diff := cmp.Diff(tt.want, result{limit, ok}); diff != "" {
			t.Errorf("fileCap(%+v) (-want +got):\n%s", tt.st, diff)
		}
	}
}

// TestReasonString checks Info's Reason as reason formats it, for each
// rule and with what decide puts on top.
func TestReasonString(t *testing.T) {
	tests := []struct {
		r    reason
		want string
	}{
		{reason{}, ""},
		{reason{size: sizeNotDescriptor}, "not a descriptor: bufio's 4096"},
		{reason{size: sizeRequested, mode: modeTerminal}, "terminal: requested size"},
		{reason{size: sizeFixed}, "fixed size"},
		{reason{size: sizeBufio}, "bufio's 4096"},
		{reason{size: sizeRust}, "Rust's 8192"},
		{reason{size: sizeCpython, blksize: 4096}, "CPython's open(st_blksize 4096)"},
		{reason{size: sizeCoreutils, blksize: 1024}, "io_blksize(st_blksize 1024)"},
		{reason{size: sizeFstatFailed}, "fstat failed: BUFSIZ"},
		{reason{size: sizeNoBlksize, blksize: -1}, "st_blksize -1: BUFSIZ"},
		{reason{size: sizeBlksize, blksize: 131072}, "st_blksize 131072"},
		{reason{size: sizeCapped, blksize: 2 << 20, bound: 131072}, "st_blksize 2097152 capped at 131072"},
		{reason{size: sizeRaised, blksize: 1024, bound: 4096, mode: modeTerminal}, "terminal: st_blksize 1024 raised to bufio's 4096"},
		{reason{size: sizeRounded, blksize: 12800, bound: 16384, mode: modeStderr}, "standard error: st_blksize 12800 rounded up to 16384"},
		{reason{size: sizeBlksize, blksize: 131072, capped: true, fileSize: 100}, "st_blksize 131072, capped at st_size 100 in whole blocks"},
		{reason{size: sizeBlksize, blksize: 4096, mode: modeStdbuf, env: "_STDBUF_O=L"}, "_STDBUF_O=L"},
		{reason{size: sizeBlksize, blksize: 4096, mode: modeSetvbuf}, "Setvbuf"},
		{reason{size: sizeBlksize, blksize: 4096, mode: modeOS, os: "pipe: process 1 of the session cannot be looked at"}, "pipe: process 1 of the session cannot be looked at"},
	}
	for _, tt := range tests {
		if got := tt.r.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.r, got, tt.want)
		}
	}
}

// TestResetReusesBuffer: Reset keeps the buffer when the new decision
// gives the same size, over a file, a pipe or memory, and makes one of
// the new size when it does not, keeping the settings it is documented to
// keep.
func TestResetReusesBuffer(t *testing.T) {
	t.Setenv(policyEnv, "")
	dir := t.TempDir()
	// Files larger than the buffers, so that a Reader's is not capped at
	// the file's size.
	big := strings.Repeat("x", 100000)
	file := func(content string) *os.File {
		f, err := os.CreateTemp(dir, "f")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		if _, err := f.WriteString(content); err != nil {
			t.Fatal(err)
		}
		f.Seek(0, io.SeekStart)
		return f
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	pw.WriteString("piped\n")

	r := NewReaderPolicy(file(big), 65536)
	r.ReadByte()
	steps := []struct {
		to   io.Reader
		same bool // the buffer is the one before
		size int
	}{
		{file(big), true, 65536},
		{pr, true, 65536},
		{strings.NewReader("three\n"), false, 4096}, // not a descriptor: bufio's size
		{strings.NewReader("four\n"), true, 4096},
		{file(big), false, 65536},
	}
	for i, st := range steps {
		prev := &r.buf[0]
		r.Reset(st.to)
		if _, err := r.ReadByte(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if got := &r.buf[0] == prev; got != st.same || r.Size() != st.size {
			t.Errorf("step %d: buffer reused %v, size %d; want %v, %d", i, got, r.Size(), st.same, st.size)
		}
	}

	w := NewWriterPolicy(file(""), 65536)
	w.WriteByte('x')
	for i, st := range []struct {
		to   io.Writer
		same bool
		size int
	}{
		{file(""), true, 65536},
		{pw, true, 65536},
		{io.Discard, false, 4096},
		{new(strings.Builder), true, 4096},
		{file(""), false, 65536},
	} {
		prev := &w.buf[0]
		w.Reset(st.to)
		if err := w.WriteByte('x'); err != nil {
			t.Fatalf("Writer step %d: %v", i, err)
		}
		if got := &w.buf[0] == prev; got != st.same || w.Size() != st.size {
			t.Errorf("Writer step %d: buffer reused %v, size %d; want %v, %d", i, got, w.Size(), st.same, st.size)
		}
	}
}

func TestErrnoText(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{syscall.ENOSPC, "No space left on device"},
		{&os.PathError{Op: "write", Path: "/dev/full", Err: syscall.ENOSPC}, "No space left on device"},
		{fmt.Errorf("flush: %w", syscall.EPIPE), "Broken pipe"},
		{syscall.EIO, "Input/output error"},
		{errFault, "injected fault"},
	}
	for _, tt := range tests {
		if got := errnoText(tt.err); got != tt.want {
			t.Errorf("errnoText(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

// sliceWriter is a writer of a type == cannot compare (== panics on it).
type sliceWriter []byte

func (w sliceWriter) Write(p []byte) (int, error) { return len(p), nil }

// TestSameValue: sameValue and Writer.has tell the very value apart from
// any other, without panicking on a type == cannot compare.
func TestSameValue(t *testing.T) {
	a, b := new(bytes.Buffer), new(bytes.Buffer)
	sw := sliceWriter(make([]byte, 1))
	tests := []struct {
		name string
		x, y io.Writer
		want bool
	}{
		{"same pointer", a, a, true},
		{"other pointer", a, b, false},
		{"other type", a, io.Discard, false},
		{"zero-size value", io.Discard, io.Discard, true},
		{"not comparable, and nil", sw, nil, false},
		{"nil and nil", nil, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (&Writer{wr: tt.x}).has(tt.y); got != tt.want {
				t.Errorf("Writer over %T has(%T) = %v, want %v", tt.x, tt.y, got, tt.want)
			}
			if got := sameValue(tt.x, tt.y); got != tt.want {
				t.Errorf("sameValue(%T, %T) = %v, want %v", tt.x, tt.y, got, tt.want)
			}
		})
	}
	// A Writer reset to a value of a type == cannot compare keeps working.
	var x io.Writer = sw
	if !sameValue(x, x) {
		t.Error("sameValue(x, x) = false for one boxed value")
	}
	w := NewWriter(sw)
	w.Reset(sw)
	w.Reset(sliceWriter(make([]byte, 2)))
	if _, err := w.WriteString("x"); err != nil {
		t.Fatal(err)
	}
}
