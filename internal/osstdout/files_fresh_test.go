//go:build linux

package osstdout_test

import (
	"bufio"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// freshHows are the ways testdata/files's fresh case hears from its
// child that the file changed, and how many runs each gets.
var freshHows = []struct {
	how  string
	runs int
}{
	{"wait", 3},
	{"wait4", 1},
	{"signal", 3},
	{"pipe", 3},
	{"socket", 3},
}

// TestFilesFreshReads: a program reads part of a file through a read
// buffer; a child changes a byte beyond where it is and then tells it
// so (exits and is waited for, through exec.Cmd's Wait and
// syscall.Wait4; sends a signal that signal.Notify delivers; writes a
// line to a pipe or a Unix socket the program reads); the program reads
// on to that byte: it sees the new byte, as plainly.
func TestFilesFreshReads(t *testing.T) {
	plain, files := filesPrograms(t)
	for _, c := range freshHows {
		t.Run(c.how, func(t *testing.T) {
			want := runFile(t, plain, "fresh", c.how)
			if want.Status != 0 {
				t.Fatalf("plain: %+v", want)
			}
			for run := range c.runs {
				got := runFile(t, files, "fresh", c.how)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("run %d (-plain +files):\n%s", run, diff)
				}
			}
		})
	}
}

// TestFilesFreshReadsRace: the signal case, whose give-back runs on
// os/signal's goroutine while the program waits on its channel, under
// the race detector.
func TestFilesFreshReadsRace(t *testing.T) {
	plain, _ := filesPrograms(t)
	race := filesRace(t)
	want := runFile(t, plain, "fresh", "signal")
	if got := runFile(t, race, "fresh", "signal"); !cmp.Equal(want, got) {
		t.Errorf("-race (-plain +files):\n%s", cmp.Diff(want, got))
	}
}

// TestFilesFreshStdin: the program's standard input is a pipe read
// through its buffer; the program reads part of a file, and the test,
// the pipe's writer, changes a byte beyond where the program is and then
// writes it a line; the program reads on to that byte: it sees the new
// byte, as plainly.
func TestFilesFreshStdin(t *testing.T) {
	plain, files := filesPrograms(t)
	want := freshStdin(t, plain)
	for run := range 3 {
		if got := freshStdin(t, files); got != want {
			t.Errorf("run %d (-plain +files):\n%s", run, cmp.Diff(want, got))
		}
	}
}

// freshStdin runs bin's freshstdin case, as its standard input's writer,
// and returns its standard output.
func freshStdin(t *testing.T, bin string) string {
	t.Helper()
	cmd, path := fileCmd(t, bin, "freshstdin", nil)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outp, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	io.WriteString(in, strings.Repeat("l\n", 100))
	out := bufio.NewReader(outp)
	ready, err := out.ReadString('\n')
	if err != nil {
		t.Fatalf("%q, %v", ready, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("X"), 4000); err != nil {
		t.Fatal(err)
	}
	f.Close()
	io.WriteString(in, "changed\n")
	in.Close()
	rest, _ := io.ReadAll(out)
	if err := cmd.Wait(); err != nil {
		t.Errorf("%s: %v", bin, err)
	}
	return ready + string(rest)
}
