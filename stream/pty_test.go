//go:build linux

package stream_test

import (
	"os"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/internal/ptytest"
	"github.com/stdiobuf/stdiobuf/stream"
)

// Streams over a pseudo-terminal: line buffered by every policy but bufio.

// openPty opens a pseudo-terminal pair (internal/ptytest), or skips the
// test; the deadlines are ioDeadline from now.
func openPty(t *testing.T) (master, slave *os.File) {
	t.Helper()
	return ptytest.Open(t, ioDeadline)
}

// expectMaster reads the master until it has len(want) bytes, which must
// be want.
func expectMaster(t *testing.T, master *os.File, want string) {
	t.Helper()
	ptytest.Expect(t, master, want)
}

// ptyLine is the decision for a pty slave (st_blksize 1024 on Linux: the
// blksize policy raises it to bufio's 4096, bufsiz keeps it).
func ptyLine(size int, p stream.Policy) decision {
	return decision{Mode: stream.LineBuffered, Size: size, Blksize: 1024, Policy: p}
}

// ptyPolicies are the decisions each policy makes for a pty slave.
var ptyPolicies = []policyCase{
	{"default", stream.PolicyDefault, ptyLine(4096, stream.PolicyBlksize)},
	{"bufsiz", stream.PolicyBufsiz, ptyLine(1024, stream.PolicyBufsiz)},
	{"coreutils", stream.PolicyCoreutils, ptyLine(262144, stream.PolicyCoreutils)},
	{"bufio", stream.PolicyBufio, fullyBuffered(4096, 1024, stream.PolicyBufio)},
	{"cpython", stream.PolicyCpython, ptyLine(131072, stream.PolicyCpython)},
	{"rust", stream.PolicyRust, fullyBuffered(8192, 1024, stream.PolicyRust)},
	{"fixed 100", 100, ptyLine(100, 100)},
}

// setvbufWriter makes a Writer and sets its mode before its first write.
func setvbufWriter(mode stream.Mode) func(*os.File) *stream.Writer {
	return func(f *os.File) *stream.Writer {
		w := stream.NewWriter(f)
		w.Setvbuf(mode, 0)
		return w
	}
}

// TestPtyWriter writes to a terminal through a Writer, with Write and with
// WriteString: everything through the last newline of each write goes out
// in one write(2), the tail waits.
func TestPtyWriter(t *testing.T) {
	t.Setenv(policyEnv, "")
	type step struct {
		write      string // "" means Flush
		wantWrites int64
		wantShown  string // what the master reads after the step
	}
	lineSteps := []step{
		{"a\n", 1, "a\n"}, {"b", 1, ""}, {"c\n", 2, "bc\n"}, {"d\ne\nf", 3, "d\ne\n"}, {"", 4, "f"},
	}
	fullSteps := []step{{"a\n", 0, ""}, {"b\nc", 0, ""}, {"", 1, "a\nb\nc"}}
	tests := []struct {
		name  string
		new   func(*os.File) *stream.Writer
		want  decision
		steps []step
	}{{
		name:  "NewWriter",
		new:   func(f *os.File) *stream.Writer { return stream.NewWriter(f) },
		want:  ptyLine(4096, stream.PolicyBlksize),
		steps: lineSteps,
	}, {
		name:  "NewWriterSize keeps the size, not the mode",
		new:   func(f *os.File) *stream.Writer { return stream.NewWriterSize(f, 65536) },
		want:  ptyLine(65536, stream.PolicyBlksize),
		steps: lineSteps,
	}, {
		name:  "bufio policy: fully buffered",
		new:   func(f *os.File) *stream.Writer { return stream.NewWriterPolicy(f, stream.PolicyBufio) },
		want:  fullyBuffered(4096, 1024, stream.PolicyBufio),
		steps: fullSteps,
	}, {
		name:  "Setvbuf(FullyBuffered) before the first write wins over the terminal",
		new:   setvbufWriter(stream.FullyBuffered),
		want:  fullyBuffered(4096, 1024, stream.PolicyBlksize),
		steps: fullSteps,
	}, {
		name:  "Setvbuf(Unbuffered): one write per call",
		new:   setvbufWriter(stream.Unbuffered),
		want:  decision{Mode: stream.Unbuffered, Size: 4096, Blksize: 1024, Policy: stream.PolicyBlksize},
		steps: []step{{"a", 1, "a"}, {"b\nc", 2, "b\nc"}, {"", 2, ""}},
	}}
	methods := map[string]func(w *stream.Writer, s string) error{
		"Write":       func(w *stream.Writer, s string) error { _, err := w.Write([]byte(s)); return err },
		"WriteString": func(w *stream.Writer, s string) error { _, err := w.WriteString(s); return err },
	}
	for _, tc := range tests {
		for method, write := range methods {
			t.Run(tc.name+"/"+method, func(t *testing.T) {
				master, slave := openPty(t)
				w := tc.new(slave)
				checkDecision(t, "Writer on a terminal", w.Info(), tc.want)
				for i, s := range tc.steps {
					var err error
					if s.write == "" {
						err = w.Flush()
					} else {
						err = write(w, s.write)
					}
					if err != nil {
						t.Fatalf("step %d: %v", i, err)
					}
					if got := w.Info().Writes; got != s.wantWrites {
						t.Errorf("after %q: %d writes, want %d", s.write, got, s.wantWrites)
					}
					expectMaster(t, master, s.wantShown)
				}
			})
		}
	}
}

// TestPtyPolicies: the decision of Readers and Writers on a terminal
// under each policy.
func TestPtyPolicies(t *testing.T) {
	t.Setenv(policyEnv, "")
	_, slave := openPty(t)
	for _, tc := range ptyPolicies {
		checkDecision(t, tc.name+" Reader", stream.NewReaderPolicy(slave, tc.policy).Info(), tc.want)
		checkDecision(t, tc.name+" Writer", stream.NewWriterPolicy(slave, tc.policy).Info(), tc.want)
	}
}

// TestPtyReader reads lines typed at a terminal.
func TestPtyReader(t *testing.T) {
	t.Setenv(policyEnv, "")
	master, slave := openPty(t)
	r := stream.NewReader(slave)
	checkDecision(t, "Reader on a terminal", r.Info(), ptyLine(4096, stream.PolicyBlksize))
	if _, err := master.WriteString("first\nsecond\n"); err != nil {
		t.Fatal(err)
	}
	var got []string
	for range 2 {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("ReadString: %q, %v", line, err)
		}
		got = append(got, line)
	}
	if diff := cmp.Diff([]string{"first\n", "second\n"}, got); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

// TestPtyReset: Reset decides again for the new descriptor, keeping the
// size NewWriterSize or NewReaderSize asked for and any Setvbuf.
func TestPtyReset(t *testing.T) {
	t.Setenv(policyEnv, "")
	master, slave := openPty(t)
	null := openDevNull(t)
	_, pw := newPipe(t)

	w := stream.NewWriter(pw)
	checkDecision(t, "Writer on a pipe", w.Info(), fullyBuffered(4096, 4096, stream.PolicyBlksize))
	w.Reset(slave)
	checkDecision(t, "after Reset(terminal)", w.Info(), ptyLine(4096, stream.PolicyBlksize))
	w.WriteString("shown\n")
	expectMaster(t, master, "shown\n")
	w.Reset(null)
	checkDecision(t, "after Reset(/dev/null)", w.Info(), fullyBuffered(4096, 4096, stream.PolicyBlksize))

	sized := stream.NewWriterSize(pw, 65536)
	checkDecision(t, "NewWriterSize(pipe, 65536)", sized.Info(), fullyBuffered(65536, 4096, stream.PolicyBlksize))
	sized.Reset(slave)
	checkDecision(t, "NewWriterSize then Reset(terminal)", sized.Info(), ptyLine(65536, stream.PolicyBlksize))

	unbuf := stream.NewWriter(pw)
	unbuf.Setvbuf(stream.Unbuffered, 0)
	unbuf.Reset(slave)
	if got := unbuf.Info(); got.Mode != stream.Unbuffered {
		t.Errorf("Reset dropped Setvbuf(Unbuffered): %v", got)
	}

	r := stream.NewReaderSize(null, 100)
	checkDecision(t, "NewReaderSize(/dev/null, 100)", r.Info(), fullyBuffered(100, 4096, stream.PolicyBlksize))
	r.Reset(slave)
	checkDecision(t, "NewReaderSize then Reset(terminal)", r.Info(), ptyLine(100, stream.PolicyBlksize))
	r = stream.NewReader(slave)
	r.Reset(null)
	checkDecision(t, "Reader from terminal Reset(/dev/null)", r.Info(), fullyBuffered(4096, 4096, stream.PolicyBlksize))
}

// TestPtyPromptFlushedBeforeRead: with stdout on a terminal, a prompt
// without a newline waits in Stdout's buffer until a line-buffered or
// unbuffered input stream reads, which flushes it first. The parent waits
// to see the prompt before it answers, so a prompt that is not flushed
// fails the test at the deadline. A fully buffered Stdin, or a Stdout that
// is not line buffered, does not flush: the prompt leaves with the reply,
// in one write, which the parent checks with the answer given in advance.
func TestPtyPromptFlushedBeforeRead(t *testing.T) {
	t.Parallel()
	const prompt = "name? "
	reply := []string{"readline", "reply=hello ", "flush"}
	tests := []struct {
		name       string
		stdinPty   bool     // else a pipe
		setup      []string // operations before the prompt
		ops        []string // operations after it
		answer     string   // typed after the prompt shows, or before the child starts
		shown      string   // what the terminal shows after the prompt
		waitPrompt bool     // the prompt must show before the answer is given
		wantWrites int64
		wantStdin  stream.Mode
	}{{
		name:       "stdin on the terminal is line buffered",
		stdinPty:   true,
		ops:        reply,
		waitPrompt: true,
		wantWrites: 2,
		wantStdin:  stream.LineBuffered,
	}, {
		name:       "unbuffered stdin on a pipe",
		setup:      []string{"vbuf=stdin,none"},
		ops:        reply,
		waitPrompt: true,
		wantWrites: 2,
		wantStdin:  stream.Unbuffered,
	}, {
		name:       "a Scanner over os.Stdin on the terminal",
		stdinPty:   true,
		ops:        []string{"scan"},
		answer:     "bob\n\x04", // a line, then end of file (VEOF)
		shown:      "bob\n",
		waitPrompt: true,
		wantWrites: 2,
		wantStdin:  stream.LineBuffered,
	}, {
		name:       "fully buffered stdin on a pipe does not flush",
		ops:        reply,
		wantWrites: 1,
		wantStdin:  stream.FullyBuffered,
	}, {
		name:       "a fully buffered stdout is not flushed",
		stdinPty:   true,
		setup:      []string{"vbuf=stdout,full"},
		ops:        reply,
		wantWrites: 1,
		wantStdin:  stream.LineBuffered,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.answer == "" {
				tc.answer, tc.shown = "bob\n", "hello bob\n"
			}
			master, slave := openPty(t)
			pr, pw := newPipe(t)
			answer := master
			h := helperRun{stdin: pr, stdout: slave, ops: slices.Concat(tc.setup, []string{"out=" + prompt}, tc.ops)}
			if tc.stdinPty {
				h.stdin = slave
			} else {
				answer = pw
			}
			if !tc.waitPrompt {
				answer.WriteString(tc.answer)
			}
			p := h.start(t)
			if tc.waitPrompt {
				expectMaster(t, master, prompt)
				answer.WriteString(tc.answer)
				expectMaster(t, master, tc.shown)
			} else {
				expectMaster(t, master, prompt+tc.shown)
			}
			res := p.wait(t)
			if got := res.report.Stdout.Writes; got != tc.wantWrites {
				t.Errorf("Stdout made %d writes, want %d: %v", got, tc.wantWrites, res.report.Stdout)
			}
			stdin := res.report.Stdin
			if res.report.Extra != nil {
				stdin = *res.report.Extra // the Scanner's
			}
			if stdin.Mode != tc.wantStdin {
				t.Errorf("the input stream is %v, want %v: %v", stdin.Mode, tc.wantStdin, stdin)
			}
			if len(res.report.Errs) > 0 {
				t.Errorf("errors: %q", res.report.Errs)
			}
		})
	}
}
