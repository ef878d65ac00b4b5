package seedinput

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func generate(t *testing.T, lines int, seed uint64) []byte {
	t.Helper()
	var buf bytes.Buffer
	n, err := Write(&buf, lines, seed)
	if err != nil {
		t.Fatalf("Write(%d lines, seed %d): %v", lines, seed, err)
	}
	if n != int64(buf.Len()) {
		t.Fatalf("Write(%d lines, seed %d) returned %d, wrote %d bytes", lines, seed, n, buf.Len())
	}
	return buf.Bytes()
}

// shape is what a generated input must look like.
type shape struct {
	Lines      int
	Size       int64
	LongestOK  bool
	Printable  bool
	EndsInLine bool
}

func shapeOf(data []byte, maxLen int) shape {
	s := shape{Size: int64(len(data)), LongestOK: true, Printable: true}
	s.EndsInLine = len(data) == 0 || data[len(data)-1] == '\n'
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			i = len(data)
		}
		if i > maxLen {
			s.LongestOK = false
		}
		for _, b := range data[:i] {
			if b < ' ' || b > '~' {
				s.Printable = false
			}
		}
		s.Lines++
		data = data[min(i+1, len(data)):]
	}
	return s
}

func TestWriteShape(t *testing.T) {
	for _, tc := range []struct {
		lines int
		seed  uint64
	}{
		{0, 1},
		{1, 1},
		{7, 2},
		{1000, DefaultSeed},
		{5000, 42},
	} {
		t.Run(fmt.Sprintf("lines=%d/seed=%d", tc.lines, tc.seed), func(t *testing.T) {
			data := generate(t, tc.lines, tc.seed)
			want := shape{Lines: tc.lines, Size: Size(tc.lines, tc.seed), LongestOK: true, Printable: true, EndsInLine: true}
			if diff := cmp.Diff(want, shapeOf(data, MaxLineLen)); diff != "" {
				t.Errorf("shape of Write(%d, %d) (-want +got):\n%s", tc.lines, tc.seed, diff)
			}
		})
	}
}

func TestWriteDeterministic(t *testing.T) {
	a := generate(t, 3000, 7)
	b := generate(t, 3000, 7)
	if !bytes.Equal(a, b) {
		t.Fatal("two Write calls with the same lines and seed gave different bytes")
	}
	// A shorter input is a prefix of a longer one with the same seed: the
	// streams are drawn line by line.
	if short := generate(t, 100, 7); !bytes.HasPrefix(a, short) {
		t.Error("Write(100, 7) is not a prefix of Write(3000, 7)")
	}
	if c := generate(t, 3000, 8); bytes.Equal(a, c) {
		t.Error("seeds 7 and 8 gave the same bytes")
	}
}

// TestWriteGolden pins the bytes. If it fails, the generator changed: bump
// formatVersion so that no cached input made by the old one is reused, then
// update the figures here.
func TestWriteGolden(t *testing.T) {
	data := generate(t, 1000, DefaultSeed)
	got := fmt.Sprintf("%d %x", len(data), sha256.Sum256(data))
	const want = "805130 bddc61caf0e380815d0bd103eb13a5208b7f7d0efe1edab35512139ddf97622a"
	if got != want {
		t.Errorf("Write(1000, DefaultSeed) = %s, want %s", got, want)
	}
}

// TestSeedScale checks the full-size input's size without making it: about
// 230 MB, as in the glibc proposal's benchmark (230427757 bytes).
func TestSeedScale(t *testing.T) {
	n := Size(Lines, DefaultSeed)
	if n < 229_000_000 || n > 232_000_000 {
		t.Errorf("Size(Lines, DefaultSeed) = %d, want about 230 MB", n)
	}
}

func TestLineLengthsUniform(t *testing.T) {
	const lines = 20000
	data := generate(t, lines, 3)
	var counts [4]int // quarters of [0, MaxLineLen]
	for _, line := range bytes.Split(data[:len(data)-1], []byte("\n")) {
		counts[len(line)*4/(MaxLineLen+1)]++
	}
	// Each quarter expects lines/4 = 5000 with a standard deviation of
	// about 61; 400 is more than six of them.
	for q, c := range counts {
		if c < lines/4-400 || c > lines/4+400 {
			t.Errorf("quarter %d of the lengths holds %d lines, want about %d (all: %v)", q, c, lines/4, counts)
		}
	}
}

func TestSize(t *testing.T) {
	for _, lines := range []int{-1, 0, 1, 2, 999} {
		want := int64(0)
		if lines > 0 {
			want = int64(len(generate(t, lines, 5)))
		}
		if got := Size(lines, 5); got != want {
			t.Errorf("Size(%d, 5) = %d, want %d", lines, got, want)
		}
	}
}

func TestWriteNegative(t *testing.T) {
	if n, err := Write(io.Discard, -1, 1); err == nil || n != 0 {
		t.Errorf("Write(-1 lines) = %d, %v; want 0 and an error", n, err)
	}
}

// failWriter accepts limit bytes and then fails.
type failWriter struct {
	limit int
	err   error
}

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.limit {
		n := w.limit
		w.limit = 0
		return n, w.err
	}
	w.limit -= len(p)
	return len(p), nil
}

func TestWriteError(t *testing.T) {
	errFull := errors.New("disk full")
	for _, limit := range []int{0, 100, 3 << 20} {
		w := &failWriter{limit: limit, err: errFull}
		n, err := Write(w, 20000, 1)
		if !errors.Is(err, errFull) {
			t.Errorf("limit %d: Write error = %v, want %v", limit, err, errFull)
		}
		if n != int64(limit) {
			t.Errorf("limit %d: Write returned %d bytes written", limit, n)
		}
	}
}

func TestFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache")
	path, created, err := File(dir, 500, 9)
	if err != nil || !created {
		t.Fatalf("first File = %q, %v, %v; want a new file", path, created, err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, generate(t, 500, 9)) {
		t.Fatal("File's contents differ from Write's")
	}
	again, created, err := File(dir, 500, 9)
	if err != nil || created || again != path {
		t.Errorf("second File = %q, %v, %v; want %q reused", again, created, err, path)
	}

	// A truncated file (a run killed before the rename cannot leave one,
	// but a user's copy can) is made anew.
	if err := os.Truncate(path, 100); err != nil {
		t.Fatal(err)
	}
	if _, created, err := File(dir, 500, 9); err != nil || !created {
		t.Errorf("File over a truncated input: created %v, %v; want made anew", created, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != FileName(500, 9) {
		t.Errorf("cache holds %v, want only %s", entries, FileName(500, 9))
	}
}

func TestFileErrors(t *testing.T) {
	dir := t.TempDir()
	notDir := filepath.Join(dir, "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := File(notDir, 10, 1); err == nil {
		t.Error("File in a directory that is a regular file: no error")
	}
	if _, _, err := File(dir, -3, 1); err == nil {
		t.Error("File with -3 lines: no error")
	}
}

func BenchmarkWrite(b *testing.B) {
	const lines = 10000
	b.SetBytes(Size(lines, 1))
	for b.Loop() {
		if _, err := Write(io.Discard, lines, 1); err != nil {
			b.Fatal(err)
		}
	}
}
