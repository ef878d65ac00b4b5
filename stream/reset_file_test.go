//go:build linux

package stream_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/stream"
)

// resetChildEnv set to a file's name makes TestResetFileChild reset a
// Reader and a Writer to that file resetRounds times.
const resetChildEnv = "STREAM_TEST_RESET_FILE"

// resetRounds is how many Resets each stream makes in the child.
const resetRounds = 100

// TestResetFileChild is not a test: it is the child of TestResetFileFstat.
// It prints the descriptor it resets to, then resets a Reader and a
// Writer over it resetRounds times each, with a read or a write after
// each Reset, which needs the decision.
func TestResetFileChild(t *testing.T) {
	name := os.Getenv(resetChildEnv)
	if name == "" {
		t.Skip("the child of TestResetFileFstat; runs only with " + resetChildEnv + " set")
	}
	f, err := os.OpenFile(name, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fmt.Println("fd", f.Fd())
	r, w := stream.NewReader(f), stream.NewWriter(f)
	for range resetRounds {
		f.Seek(0, 0)
		r.Reset(f)
		if _, err := r.ReadByte(); err != nil {
			t.Fatal(err)
		}
		w.Reset(f)
		if err := w.WriteByte('x'); err != nil {
			t.Fatal(err)
		}
	}
}

// traceFstat is an fstat of a descriptor in strace's output: fstat(2),
// or newfstatat(2) or statx(2) with an empty path, as package syscall
// makes it on other architectures.
var traceFstat = regexp.MustCompile(`(?m)^(?:\d+\s+)?(?:fstat|newfstatat|statx)\((\d+),`)

// TestResetFileFstat counts the fstat calls of a Reader and a Writer
// reset again and again to the *os.File they decided for: each decides
// once, where a new decision at each Reset made an fstat each time.
func TestResetFileFstat(t *testing.T) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace counts the fstat calls: not installed")
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "in")
	if err := os.WriteFile(name, []byte("some text\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	trace := filepath.Join(dir, "trace")
	ctx, cancel := context.WithTimeout(context.Background(), helperTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, strace, "-f", "-qq", "-e", "trace=fstat,newfstatat,statx", "-o", trace,
		os.Args[0], "-test.run=^TestResetFileChild$", "-test.v")
	cmd.Env = append(helperEnviron(nil), resetChildEnv+"="+name)
	out, err := cmd.CombinedOutput()
	if err != nil {
		if strings.Contains(string(out), "PTRACE_TRACEME") || strings.Contains(string(out), "ptrace") {
			t.Skipf("strace cannot trace here: %s", out)
		}
		t.Fatalf("child: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`(?m)^fd (\d+)$`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("the child printed no descriptor:\n%s", out)
	}
	fd := string(m[1])
	text, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for _, c := range traceFstat.FindAllSubmatch(text, -1) {
		if string(c[1]) == fd {
			calls++
		}
	}
	// One decision each for the Reader and the Writer.
	if calls != 2 {
		t.Errorf("%d fstat calls on descriptor %s for %d Resets of a Reader and of a Writer to the same file; want 2, one decision each", calls, fd, resetRounds)
	}
}

// TestResetFileKeeps checks the rule of Reset to the *os.File a stream
// decided for: the decision stays, even where a new one would differ (the
// file grew past the Reader's cap at its size), while a Reset to another
// *os.File of the same file decides again, Setvbuf and SetPolicy decide
// when they are called, and a Reset to the file after its Close reads
// os.ErrClosed.
func TestResetFileKeeps(t *testing.T) {
	p, err := stream.ParsePolicy("64K") // more than the small file: capped
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	type result struct {
		Decision decision
		Reason   string
		Closed   bool
	}
	resultOf := func(r *stream.Reader, err error) result {
		i := r.Info()
		return result{decisionOf(i), i.Reason, errors.Is(err, os.ErrClosed)}
	}
	// open opens the file with a Reader that reads a byte: the decision.
	open := func(t *testing.T, name string) (*os.File, *stream.Reader, result) {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		r := stream.NewReaderPolicy(f, p)
		_, err = r.ReadByte()
		return f, r, resultOf(r, err)
	}
	// fresh is the decision of a new Reader over the file now.
	fresh := func(t *testing.T, name string) result {
		_, _, res := open(t, name)
		return res
	}
	for _, tc := range []struct {
		name string
		// between runs after the first decision (a read of the small
		// file) and the file's growth to 1 MiB; it returns what the
		// Reader is reset to and the result the Reset must give, from
		// first, the result before it.
		between func(t *testing.T, r *stream.Reader, f *os.File, first result) (*os.File, result)
	}{
		{"same file", func(t *testing.T, r *stream.Reader, f *os.File, first result) (*os.File, result) {
			return f, first
		}},
		{"another File of the file", func(t *testing.T, r *stream.Reader, f *os.File, first result) (*os.File, result) {
			g, err := os.Open(f.Name())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { g.Close() })
			return g, fresh(t, f.Name())
		}},
		{"Setvbuf", func(t *testing.T, r *stream.Reader, f *os.File, first result) (*os.File, result) {
			if err := r.Setvbuf(stream.Unbuffered, 0); err != nil {
				t.Fatal(err)
			}
			return f, resultOf(r, nil)
		}},
		{"SetPolicy", func(t *testing.T, r *stream.Reader, f *os.File, first result) (*os.File, result) {
			if err := r.SetPolicy(stream.PolicyBufio); err != nil {
				t.Fatal(err)
			}
			return f, resultOf(r, nil)
		}},
		{"closed", func(t *testing.T, r *stream.Reader, f *os.File, first result) (*os.File, result) {
			f.Close()
			first.Closed = true
			return f, first
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			if err := os.WriteFile(name, []byte("0123456789"), 0o600); err != nil {
				t.Fatal(err)
			}
			f, r, first := open(t, name)
			if err := os.WriteFile(name, make([]byte, 1<<20), 0o600); err != nil {
				t.Fatal(err)
			}
			if grown := fresh(t, name); grown.Decision == first.Decision {
				t.Fatalf("the grown file decides as the small one did (%v): the test shows nothing", first)
			}
			to, want := tc.between(t, r, f, first)
			r.Reset(to)
			_, err := r.ReadByte()
			if diff := cmp.Diff(want, resultOf(r, err)); diff != "" {
				t.Errorf("after Reset (-want +got):\n%s", diff)
			}
		})
	}
}
