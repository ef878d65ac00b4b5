package stream

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestResetSameWriter resets a Writer that has written to the very writer
// it has, for each kind of writer: the decision, its counts and the
// buffer stay (no new decision), the buffered bytes and the error go.
func TestResetSameWriter(t *testing.T) {
	dir := t.TempDir()
	file := func(t *testing.T) *os.File {
		f, err := os.CreateTemp(dir, "w")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	tests := []struct {
		name string
		w    func(t *testing.T) io.Writer
	}{
		{"memory", func(*testing.T) io.Writer { return new(bytes.Buffer) }},
		{"os.File", func(t *testing.T) io.Writer { return file(t) }},
		{"descriptor of another type", func(t *testing.T) io.Writer { return &upcaseFile{f: file(t)} }},
		{"value of a type == cannot compare", func(*testing.T) io.Writer { return sliceWriter(make([]byte, 1)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dst := tt.w(t)
			w := NewWriterSize(dst, 16)
			w.WriteString("0123456789abcdefXYZ") // one write of the full buffer, 3 bytes left
			before := w.Info()
			w.Reset(dst)
			if got := w.Buffered(); got != 0 {
				t.Errorf("Buffered() after Reset = %d, want 0", got)
			}
			if diff := cmp.Diff(before, w.Info()); diff != "" {
				t.Errorf("Info() changed across Reset to the same writer (-before +after):\n%s", diff)
			}
			if got := w.Available(); got != before.Size {
				t.Errorf("Available() after Reset = %d, want the kept size %d", got, before.Size)
			}
			if before.Writes != 1 {
				t.Errorf("Info().Writes = %d before Reset, want 1", before.Writes)
			}
		})
	}
}

// TestResetSameReader resets a Reader that has read to the very reader it
// has, for each kind of reader: the decision, its counts and the buffer
// stay, the buffered bytes go.
func TestResetSameReader(t *testing.T) {
	dir := t.TempDir()
	file := func(t *testing.T) *os.File {
		name := filepath.Join(dir, t.Name()[len("TestResetSameReader/"):])
		if err := os.WriteFile(name, []byte("0123456789abcdefXYZ"), 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	tests := []struct {
		name string
		r    func(t *testing.T) io.Reader
	}{
		{"memory", func(*testing.T) io.Reader { return strings.NewReader("0123456789abcdefXYZ") }},
		{"os.File", func(t *testing.T) io.Reader { return file(t) }},
		{"descriptor of another type", func(t *testing.T) io.Reader { return &countingFile{f: file(t)} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.r(t)
			r := NewReaderSize(src, 16)
			if _, err := r.ReadByte(); err != nil {
				t.Fatal(err)
			}
			before := r.Info()
			r.Reset(src)
			if got := r.Buffered(); got != 0 {
				t.Errorf("Buffered() after Reset = %d, want 0", got)
			}
			if diff := cmp.Diff(before, r.Info()); diff != "" {
				t.Errorf("Info() changed across Reset to the same reader (-before +after):\n%s", diff)
			}
			if before.Reads != 1 {
				t.Errorf("Info().Reads = %d before Reset, want 1", before.Reads)
			}
		})
	}
}

// TestZeroWriterResetNil: a zero Writer reset to nil takes its buffer at
// its first write (docs/differences.md), and then buffers as bufio's.
func TestZeroWriterResetNil(t *testing.T) {
	var w Writer
	w.Reset(nil)
	if got := w.Available(); got != 0 {
		t.Errorf("Available() before the first write = %d, want 0", got)
	}
	if _, err := w.WriteString("x"); err != nil {
		t.Fatal(err)
	}
	if got, want := [2]int{w.Buffered(), w.Available()}, [2]int{1, bufioSize - 1}; got != want {
		t.Errorf("Buffered, Available after one byte = %v, want %v", got, want)
	}
}

// TestResetSameWriterError: a Reset to the same writer clears the sticky
// error, as bufio's does.
func TestResetSameWriterError(t *testing.T) {
	dst := &failWriter{}
	w := NewWriterSize(dst, 16)
	w.WriteString("x")
	if err := w.Flush(); err == nil {
		t.Fatal("Flush to a failing writer returned no error")
	}
	w.Reset(dst)
	dst.ok = true
	if _, err := w.WriteString("y"); err != nil {
		t.Fatalf("WriteString after Reset: %v", err)
	}
	if err := w.Flush(); err != nil {
		t.Fatalf("Flush after Reset: %v", err)
	}
	if got := string(dst.got); got != "y" {
		t.Errorf("the writer got %q, want %q", got, "y")
	}
}

// failWriter fails every Write until ok.
type failWriter struct {
	ok  bool
	got []byte
}

func (f *failWriter) Write(p []byte) (int, error) {
	if !f.ok {
		return 0, io.ErrShortWrite
	}
	f.got = append(f.got, p...)
	return len(p), nil
}

// TestResetInlined: Writer.Reset to the writer it has is bufio's whole
// Reset and must be inlined as bufio's is, or a reused Writer pays a call
// on every record (bench_test.go's BenchmarkResetWriter measures it).
func TestResetInlined(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" || runtime.GOOS == "windows" {
		t.Skipf("the go command is not run on %s", runtime.GOOS)
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is needed to ask the compiler what it inlines: not found")
	}
	out, err := exec.Command(goCmd, "build", "-gcflags=-m=2", "-o", os.DevNull, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`(?m)can inline \(\*Writer\)\.Reset with`).Match(out) {
		t.Errorf("the compiler does not inline (*Writer).Reset; its -m=2 output says why:\n%s",
			regexp.MustCompile(`(?m)^.*\(\*Writer\)\.Reset.*$`).FindAll(out, -1))
	}
}
