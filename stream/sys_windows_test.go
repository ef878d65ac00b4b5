package stream

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// These tests run on Windows, or on Linux under wine (internal/winetest:
// GOOS=windows go test -exec wineexec ./stream/).

// handleStat is statFile of f's handle.
func handleStat(t *testing.T, f *os.File) *fileStat {
	t.Helper()
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var st fileStat
	ok := false
	if err := rc.Control(func(h uintptr) { ok = statFile(h, &st) }); err != nil {
		t.Fatal(err)
	}
	if !ok {
		return nil
	}
	return &st
}

// TestWindowsFstat checks what the seam makes of each kind of handle.
func TestWindowsFstat(t *testing.T) {
	dir := tempDir(t)
	name := filepath.Join(dir, "f")
	if err := os.WriteFile(name, make([]byte, 100), 0o644); err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	open := func(name string, flag int) func(t *testing.T) *os.File {
		return func(t *testing.T) *os.File {
			f, err := os.OpenFile(name, flag, 0)
			if err != nil {
				t.Skipf("opening %s: %v", name, err)
			}
			t.Cleanup(func() { f.Close() })
			return f
		}
	}
	tests := []struct {
		name string
		file func(t *testing.T) *os.File
		want *fileStat
	}{
		{"file", open(name, os.O_RDONLY), &fileStat{kind: kindRegular, regular: true, size: 100}},
		{"file opened to write", open(name, os.O_WRONLY), &fileStat{kind: kindRegular, regular: true, size: 100}},
		{"directory", open(dir, os.O_RDONLY), &fileStat{kind: kindDir}},
		{"pipe, read end", func(*testing.T) *os.File { return r }, &fileStat{kind: kindPipe}},
		{"pipe, write end", func(*testing.T) *os.File { return w }, &fileStat{kind: kindPipe}},
		{"NUL", open("NUL", os.O_WRONLY), &fileStat{kind: kindChar}},
		{"console (CONOUT$)", open("CONOUT$", os.O_RDWR), &fileStat{kind: kindChar, terminal: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := handleStat(t, tt.file(t))
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(fileStat{})); diff != "" {
				t.Errorf("statFile -want +got:\n%s", diff)
			}
		})
	}
}

// TestWindowsDescriptor checks that the standard handles are 0, 1 and 2,
// as the C runtime numbers them, and any other handle its own value.
func TestWindowsDescriptor(t *testing.T) {
	std := []syscall.Handle{syscall.Stdin, syscall.Stdout, syscall.Stderr}
	if std[0] == std[1] || std[1] == std[2] || std[0] == std[2] {
		t.Skipf("the parent gave one handle as two standard streams: %v", std)
	}
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	handles := append(std, syscall.Handle(f.Fd()))
	want := []int{0, 1, 2, int(f.Fd())}
	var got []int
	for _, h := range handles {
		got = append(got, descriptor(uintptr(h)))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("descriptor of stdin, stdout, stderr, NUL -want +got:\n%s", diff)
	}
}

// TestWindowsDecide checks the decisions that follow: a file or NUL fully
// buffered with BUFSIZ (Windows gives no block size), standard error
// unbuffered whatever it is, _STDBUF_O for standard output, and a Reader
// over an empty file with BUFSIZ, not a buffer of a few bytes.
func TestWindowsDecide(t *testing.T) {
	name := filepath.Join(tempDir(t), "f")
	file, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	null, err := os.OpenFile("NUL", os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	empty, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Close()

	type decision struct {
		Fd     int
		Mode   Mode
		Size   int
		Reason string
	}
	tests := []struct {
		name   string
		stdbuf string // _STDBUF_O
		info   func() Info
		want   decision
	}{
		{"file", "", NewWriter(file).Info,
			decision{int(file.Fd()), FullyBuffered, glibcBUFSIZ, "st_blksize 0: BUFSIZ"}},
		{"NUL", "", NewWriter(null).Info,
			decision{int(null.Fd()), FullyBuffered, glibcBUFSIZ, "st_blksize 0: BUFSIZ"}},
		{"standard error", "", NewWriter(os.Stderr).Info,
			decision{2, Unbuffered, 0, ""}},
		{"standard output, _STDBUF_O=L", "L", NewWriter(os.Stdout).Info,
			decision{1, LineBuffered, 0, "_STDBUF_O=L"}},
		{"Reader over an empty file", "", NewReader(empty).Info,
			decision{int(empty.Fd()), FullyBuffered, glibcBUFSIZ, "st_blksize 0: BUFSIZ"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.stdbuf != "" {
				t.Setenv("_STDBUF_O", tt.stdbuf)
			}
			i := tt.info()
			got := decision{i.Fd, i.Mode, i.Size, i.Reason}
			// Standard error's and _STDBUF_O's size and reason depend on
			// what the handle is; their mode does not.
			if tt.want.Size == 0 {
				got.Size = 0
			}
			if tt.want.Reason == "" {
				got.Reason = ""
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Info -want +got:\n%s", diff)
			}
		})
	}
}
