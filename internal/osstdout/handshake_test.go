//go:build linux

package osstdout_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
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
	// stdout, if set, is the program's standard output, and the texts
	// are what it writes to standard error.
	stdout *os.File
	// merged sends standard error where standard output goes, as `go
	// test` runs a test binary.
	merged bool
	// wait is how long each text may take to arrive: stepWait if 0.
	wait time.Duration
}

// converse runs bin through c with standard output to s, answering each
// text once it has arrived, and returns what the program wrote to standard
// error (unless that is what the texts are) and its exit status. It logs
// how long each text took to arrive after the answer before it: a bound
// at work shows there.
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
	if c.stdout != nil {
		cmd.Stdout, cmd.Stderr = c.stdout, out
	}
	if c.merged {
		cmd.Stderr = out
	}
	wait := c.wait
	if wait == 0 {
		wait = stepWait
	}
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
		if err := until(so.String(), wait); err != nil {
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
	status = exitStatus(t, cmd.Wait())
	done = true
	return errBuf.String(), status
}

// TestHandshake: a line a parent waits for (a server's READY), progress
// lines, and a prompt without a newline reach a file, a pipe and a
// terminal while the program waits, within the bound, as they do in the
// plain build; a bufio.Writer's Flush (encoding/csv's too) reaches them
// at once, also with no bound.
func TestHandshake(t *testing.T) {
	plain, buffered := programs(t)
	cases := []struct {
		name string
		c    conversation
	}{
		{"READY", conversation{args: []string{"ready"}, texts: []string{"READY\n", "done\n"}}},
		{"progress", conversation{args: []string{"progress"}, texts: []string{"progress 0\n", "progress 1\n", "progress 2\n", ""}}},
		{"prompt", conversation{args: []string{"partial"}, texts: []string{"continue? ", "yes\n"}}},
		{"bufio Flush", conversation{args: []string{"bufioflush"}, env: []string{"STDIOBUF_MAXDELAY=none"}, texts: []string{"flushed\n", "a,b\n", ""}}},
	}
	for _, c := range cases {
		for _, s := range []sink{toFile, toPipe, toPty} {
			t.Run(c.name+"/"+string(s), func(t *testing.T) {
				for _, bin := range []string{plain, buffered, raceBin} {
					stderr, status := converse(t, bin, s, c.c)
					if stderr != "" || status != 0 {
						t.Errorf("%s: status %d, stderr %q", filepath.Base(bin), status, stderr)
					}
				}
			})
		}
	}
}

// TestMaxDelayVariable: a bad STDIOBUF_MAXDELAY is reported once on
// standard error and the default bound used; "none" is glibc's rule, no
// bound: two lines a moment apart leave in one write(2) call.
func TestMaxDelayVariable(t *testing.T) {
	_, buffered := programs(t)
	c := conversation{args: []string{"progress"}, env: []string{"STDIOBUF_MAXDELAY=soon"}, texts: []string{"progress 0\n", "progress 1\n", "progress 2\n", ""}}
	stderr, status := converse(t, buffered, toPipe, c)
	want := "stream: invalid STDIOBUF_MAXDELAY=\"soon\": want a positive duration such as 50ms, or none; using 50ms\n"
	if diff := cmp.Diff(want, stderr); diff != "" || status != 0 {
		t.Errorf("status %d, stderr (-want +got):\n%s", status, diff)
	}
	if _, err := exec.LookPath("strace"); err != nil {
		t.Skipf("needs strace: %v", err)
	}
	log := filepath.Join(t.TempDir(), "strace.log")
	cmd := exec.Command("strace", "-f", "-o", log, "-e", "trace=write", buffered, "sleepy")
	cmd.Env = append(os.Environ(), "STDIOBUF_MAXDELAY=none")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if n := writeCalls(string(b)); string(out) != "a\nb\n" || n != 1 {
		t.Errorf("with no bound: %q in %d write calls, want \"a\\nb\\n\" in 1", out, n)
	}
}

// openFull opens /dev/full for writing, or skips the test.
func openFull(t *testing.T) *os.File {
	t.Helper()
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	t.Cleanup(func() { full.Close() })
	return full
}

// runOnFull runs bin's case kind with standard output on full
// (/dev/full), and returns its standard error and status.
func runOnFull(t *testing.T, full *os.File, bin, kind string) result {
	t.Helper()
	cmd := exec.Command(bin, kind)
	var errBuf bytes.Buffer
	cmd.Stdout, cmd.Stderr = full, &errBuf
	status := exitStatus(t, cmd.Run())
	return result{Stderr: errBuf.String(), Status: status}
}

// TestDevFull: a write error that only the exit flush meets is reported
// on standard error as GNU tools report it, and the program exits with
// status 1, as the plain build of a program that checks fmt's errors
// does; one that does not check them exits 1 too (gnulib's close_stdout
// rule), where its plain build exits 0 having written nothing.
func TestDevFull(t *testing.T) {
	plain, buffered := programs(t)
	full := openFull(t)
	runFull := func(bin, kind string) result { return runOnFull(t, full, bin, kind) }
	if got := runFull(plain, "full"); got.Status != 1 || !strings.Contains(got.Stderr, "no space left on device") {
		t.Errorf("plain build: %+v, want status 1 and ENOSPC", got)
	}
	want := result{Stderr: "prog-stdout: write error: No space left on device\n", Status: 1}
	for _, kind := range []string{"full", "fullignore"} {
		if diff := cmp.Diff(want, runFull(buffered, kind)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", kind, diff)
		}
	}
}

// TestDevFullOwed: an error that the plain build's Println returns, and
// that under -stdout only a Close or Sync the program asked for returned,
// is reported at exit with status 1 if the program exits 0 (it dropped
// the error), and left to a program that acts on it with its own status.
func TestDevFullOwed(t *testing.T) {
	plain, buffered := programs(t)
	full := openFull(t)
	runFull := func(bin, kind string) result { return runOnFull(t, full, bin, kind) }
	reported := result{Stderr: "prog-stdout: write error: No space left on device\n", Status: 1}
	for _, c := range []struct {
		kind            string
		plain, buffered result
	}{
		{"fullclose", result{Stderr: "prog: write /dev/stdout: no space left on device\n", Status: 1}, reported},
		{"fullsync", result{Stderr: "prog: write /dev/stdout: no space left on device\n", Status: 1}, reported},
		{"fullcheckclose", result{Stderr: "prog: write /dev/stdout: no space left on device\n", Status: 1},
			result{Stderr: "prog: close: write /dev/stdout: no space left on device\n", Status: 3}},
	} {
		if diff := cmp.Diff(c.plain, runFull(plain, c.kind)); diff != "" {
			t.Errorf("plain %s (-want +got):\n%s", c.kind, diff)
		}
		if diff := cmp.Diff(c.buffered, runFull(buffered, c.kind)); diff != "" {
			t.Errorf("-stdout %s (-want +got):\n%s", c.kind, diff)
		}
	}
}

// TestDevFullAtBound: the error the bound's flush meets is reported while
// the program runs (it waits until the message has come), once, and the
// program exits with status 1.
func TestDevFullAtBound(t *testing.T) {
	_, buffered := programs(t)
	c := conversation{
		args:   []string{"fullwait"},
		stdout: openFull(t),
		texts:  []string{"prog-stdout: write error: No space left on device\n", ""},
	}
	if _, status := converse(t, buffered, toPipe, c); status != 1 {
		t.Errorf("exit status %d, want 1", status)
	}
}

// TestBrokenPipe: a write to a pipe nobody reads ends the program with
// SIGPIPE, as in the plain build (here at the exit flush); a program that
// catches SIGPIPE goes on and exits 0 without a message, as its writes
// fail silently in the plain build.
func TestBrokenPipe(t *testing.T) {
	plain, buffered := programs(t)
	for _, c := range []struct {
		kind string
		want result
	}{
		{"return", result{Status: -1}},
		{"sigpipe", result{Status: 0}},
	} {
		for _, bin := range []string{plain, buffered} {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			r.Close()
			cmd := exec.Command(bin, c.kind)
			var errBuf bytes.Buffer
			cmd.Stdout, cmd.Stderr = w, &errBuf
			status := exitStatus(t, cmd.Run())
			w.Close()
			if diff := cmp.Diff(c.want, result{Stderr: errBuf.String(), Status: status}); diff != "" {
				t.Errorf("%s %s (-want +got):\n%s", filepath.Base(bin), c.kind, diff)
			}
		}
	}
}
