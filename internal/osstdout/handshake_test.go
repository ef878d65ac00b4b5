//go:build linux

package osstdout_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stdiobuf/stdiobuf/internal/ptytest"
)

// The tests here talk with a running program: it writes, then waits for an
// answer on descriptor 3 (never on standard input, whose reads flush), and
// the test answers only once it has read what the program wrote. A byte
// left in the buffer makes both wait, and the test fails at a deadline
// far longer than any bound: a handshake, not a timing.

// stepWait is how long a test waits for output a program wrote: a guard
// against a hang, not a measure.
const stepWait = 30 * time.Second

// watch returns the file to give a program as its output s, and a
// function that waits, at most d, until everything the program wrote so
// far is want. Over a file it reads the file again every few
// milliseconds; over a pipe or a terminal it reads as bytes come.
func watch(t *testing.T, s sink) (out *os.File, until func(want string, d time.Duration) error) {
	t.Helper()
	if s == toFile {
		name := filepath.Join(t.TempDir(), "out")
		f, err := os.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f, func(want string, d time.Duration) error {
			deadline := time.Now().Add(d)
			for {
				got, err := os.ReadFile(name)
				if err != nil {
					return err
				}
				if len(got) >= len(want) || time.Now().After(deadline) {
					return compareOutput(got, want)
				}
				time.Sleep(5 * time.Millisecond)
			}
		}
	}
	var r *os.File
	switch s {
	case toPipe:
		pr, pw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pr.Close(); pw.Close() })
		r, out = pr, pw
	case toPty:
		r, out = ptytest.Open(t, stepWait)
	default:
		t.Fatalf("no watch over %s", s)
	}
	var got []byte
	buf := make([]byte, 4096)
	return out, func(want string, d time.Duration) error {
		r.SetReadDeadline(time.Now().Add(d))
		for len(got) < len(want) {
			n, err := r.Read(buf)
			got = append(got, buf[:n]...)
			if err != nil {
				return fmt.Errorf("%w, with %q read", err, got)
			}
		}
		return compareOutput(got, want)
	}
}

// compareOutput is nil if got is want, and says how they differ if not.
func compareOutput(got []byte, want string) error {
	if string(got) != want {
		return fmt.Errorf("output %q, want %q", got, want)
	}
	return nil
}

// conversation is what a program of a handshake test writes: texts[i]
// before its i-th wait for an answer, the last one before it exits.
type conversation struct {
	args  []string
	env   []string // added to the environment
	texts []string
}

// converse runs bin through c with standard output to s, answering each
// text once it has arrived, and returns what the program wrote to standard
// error and its exit status. It logs how long each text took to arrive
// after the answer before it: a bound at work shows there.
func converse(t *testing.T, bin string, s sink, c conversation) (stderr string, status int) {
	t.Helper()
	out, until := watch(t, s)
	answers, answer, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer answer.Close()
	cmd := exec.Command(bin, c.args...)
	cmd.Env = append(os.Environ(), c.env...)
	var errBuf bytes.Buffer
	cmd.Stdout, cmd.Stderr, cmd.ExtraFiles = out, &errBuf, []*os.File{answers}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	answers.Close()
	done := false
	defer func() {
		if !done {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	var so, delays strings.Builder
	for i, text := range c.texts {
		so.WriteString(text)
		start := time.Now()
		if err := until(so.String(), stepWait); err != nil {
			t.Fatalf("%s %v, step %d: %v (stderr %q)", filepath.Base(bin), c.args, i, err, errBuf.String())
		}
		fmt.Fprintf(&delays, " %v", time.Since(start).Round(time.Millisecond))
		if i < len(c.texts)-1 {
			if _, err := answer.Write([]byte{'\n'}); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%s %v over %s: each text arrived after%s", filepath.Base(bin), c.args, s, delays.String())
	err = cmd.Wait()
	done = true
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		status = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return errBuf.String(), status
}

// TestFlushReachesKernel: a bufio.Writer's Flush over standard output
// (encoding/csv's too) reaches a file, a pipe and a terminal at once, as
// in the plain build, where fflush(stdout) would in C.
func TestFlushReachesKernel(t *testing.T) {
	plain, buffered := programs(t)
	c := conversation{args: []string{"bufioflush"}, env: []string{"STDIOBUF_MAXDELAY=none"}, texts: []string{"flushed\n", "a,b\n", ""}}
	for _, s := range []sink{toFile, toPipe, toPty} {
		t.Run(string(s), func(t *testing.T) {
			for _, bin := range []string{plain, buffered, raceBin} {
				stderr, status := converse(t, bin, s, c)
				if stderr != "" || status != 0 {
					t.Errorf("%s: status %d, stderr %q", filepath.Base(bin), status, stderr)
				}
			}
		})
	}
}
