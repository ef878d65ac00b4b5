//go:build linux

package stream_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stdiobuf/stdiobuf/stream"
)

// coreutils' stdbuf sets _STDBUF_I, _STDBUF_O and _STDBUF_E and preloads
// libstdbuf, which a static Go program ignores; stream reads the variables
// itself. Each case runs a child with the variable set by hand and under
// the real stdbuf, and checks the counts in Info and, under strace, the
// system calls: what a C program under libstdbuf would make.

func TestStdbufModes(t *testing.T) {
	t.Parallel()
	const input = "one\ntwo\nthree\n"
	// onPipe is the decision in mode for descriptors on pipes.
	onPipe := func(mode stream.Mode) decision {
		return decision{Mode: mode, Size: 4096, Blksize: 4096, Policy: stream.PolicyBlksize}
	}
	lineOps := []string{"out=a\n", "write=b", "out=c\n", "write=d\ne\n", "flush"}
	tests := []struct {
		name      string
		option    string // stdbuf's option
		env       string // the variable stdbuf sets for it
		ops       []string
		stream    string // the stream checked: stdin, stdout, stderr, own or scan
		want      decision
		reason    string
		wantCalls int64 // reads for stdin, writes for the others
		// wantSizes are the sizes the read(2) or write(2) calls asked for.
		wantSizes  []int
		wantOutput string // on stdout, or stderr for the stderr cases
	}{{
		name:       "line buffered: a write per line",
		option:     "-oL",
		env:        "_STDBUF_O=L",
		ops:        lineOps,
		stream:     "stdout",
		want:       onPipe(stream.LineBuffered),
		reason:     "_STDBUF_O=L",
		wantCalls:  3,
		wantSizes:  []int{2, 3, 4},
		wantOutput: "a\nbc\nd\ne\n",
	}, {
		name:       "unbuffered: a write per call",
		option:     "-o0",
		env:        "_STDBUF_O=0",
		ops:        lineOps,
		stream:     "stdout",
		want:       onPipe(stream.Unbuffered),
		reason:     "_STDBUF_O=0",
		wantCalls:  4,
		wantSizes:  []int{2, 1, 2, 4},
		wantOutput: "a\nbc\nd\ne\n",
	}, {
		name:       "a size: writes of that size",
		option:     "-o64K",
		env:        "_STDBUF_O=65536",
		ops:        []string{"outbytes=200000,1000", "flush"},
		stream:     "stdout",
		want:       fullyBuffered(65536, 4096, stream.PolicyBlksize),
		reason:     "_STDBUF_O=65536",
		wantCalls:  4,
		wantSizes:  []int{65536, 65536, 65536, 200000 - 3*65536},
		wantOutput: strings.Repeat("x", 200000),
	}, {
		name:       "unbuffered input: one-byte reads",
		option:     "-i0",
		env:        "_STDBUF_I=0",
		ops:        []string{"cat"},
		stream:     "stdin",
		want:       onPipe(stream.Unbuffered),
		reason:     "_STDBUF_I=0",
		wantCalls:  int64(len(input) + 1),
		wantSizes:  repeatInt(1, len(input)+1),
		wantOutput: input,
	}, {
		name:       "an input size: reads of that size",
		option:     "-i64K",
		env:        "_STDBUF_I=65536",
		ops:        []string{"cat"},
		stream:     "stdin",
		want:       fullyBuffered(65536, 4096, stream.PolicyBlksize),
		reason:     "_STDBUF_I=65536",
		wantCalls:  2,
		wantSizes:  []int{65536, 65536},
		wantOutput: input,
	}, {
		name:       "unbuffered input: one-byte reads by a Scanner",
		option:     "-i0",
		env:        "_STDBUF_I=0",
		ops:        []string{"scan"},
		stream:     "scan",
		want:       onPipe(stream.Unbuffered),
		reason:     "_STDBUF_I=0",
		wantCalls:  int64(len(input) + 1),
		wantSizes:  repeatInt(1, len(input)+1),
		wantOutput: input,
	}, {
		name:       "line-buffered stderr",
		option:     "-eL",
		env:        "_STDBUF_E=L",
		ops:        []string{"err=a", "err=b\n", "err=c", "flush"},
		stream:     "stderr",
		want:       onPipe(stream.LineBuffered),
		reason:     "_STDBUF_E=L",
		wantCalls:  2,
		wantSizes:  []int{3, 1},
		wantOutput: "ab\nc",
	}, {
		name:       "NewWriter(os.Stdout) follows it too",
		option:     "-oL",
		env:        "_STDBUF_O=L",
		ops:        []string{"own=a\n", "own=b"},
		stream:     "own",
		want:       onPipe(stream.LineBuffered),
		reason:     "_STDBUF_O=L",
		wantCalls:  2,
		wantSizes:  []int{2, 1},
		wantOutput: "a\nb",
	}, {
		name:       "the program's Setvbuf wins",
		option:     "-o0",
		env:        "_STDBUF_O=0",
		ops:        append([]string{"vbuf=stdout,full"}, lineOps...),
		stream:     "stdout",
		want:       onPipe(stream.FullyBuffered),
		reason:     "Setvbuf",
		wantCalls:  1,
		wantSizes:  []int{9},
		wantOutput: "a\nbc\nd\ne\n",
	}}
	for _, tc := range tests {
		for _, how := range []struct {
			name  string
			env   []string
			under []string
		}{
			{tc.env, []string{tc.env}, nil},
			{"stdbuf " + tc.option, nil, []string{"stdbuf", tc.option}},
		} {
			t.Run(tc.name+"/"+how.name, func(t *testing.T) {
				t.Parallel()
				if how.under != nil {
					if _, err := exec.LookPath("stdbuf"); err != nil {
						t.Skipf("coreutils' stdbuf is not installed: %v", err)
					}
				}
				res := helperRun{ops: tc.ops, env: how.env, under: how.under, stdin: strings.NewReader(input), trace: true}.run(t)
				r := res.report
				info, calls, output, fd, call := r.Stdout, r.Stdout.Writes, res.stdout, 1, "write"
				switch tc.stream {
				case "stdin":
					info, calls, fd, call = r.Stdin, r.Stdin.Reads, 0, "read"
				case "stderr":
					info, calls, output, fd = r.Stderr, r.Stderr.Writes, res.stderr, 2
				case "own", "scan":
					if r.Extra == nil {
						t.Fatalf("no report of the %s stream", tc.stream)
					}
					info, calls = *r.Extra, r.Extra.Writes
					if tc.stream == "scan" {
						calls, fd, call = r.Extra.Reads, 0, "read"
					}
				}
				checkDecision(t, tc.stream, info, tc.want)
				if info.Fd != fd || info.Reason != tc.reason || calls != tc.wantCalls {
					t.Errorf("%s: %v; want fd %d, reason %q and %d %s calls", tc.stream, info, fd, tc.reason, tc.wantCalls, call)
				}
				if output != tc.wantOutput {
					t.Errorf("output %q, want %q", output, tc.wantOutput)
				}
				if len(r.Errs) > 0 {
					t.Errorf("errors: %q", r.Errs)
				}
				checkTrace(t, res, call, fd, tc.wantSizes)
			})
		}
	}
}

// TestStdbufBadValues: a value stdbuf would not have set, or a bad
// STDIOBUF_POLICY, keeps the default and is reported once on standard
// error, however many streams read it.
func TestStdbufBadValues(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, value string }{
		{"_STDBUF_O", "64K"},
		{"_STDBUF_O", "abc"},
		{"_STDBUF_I", "x"},
		{policyEnv, "bogus"},
	}
	for _, tc := range tests {
		t.Run(tc.name+"="+tc.value, func(t *testing.T) {
			t.Parallel()
			res := helperRun{
				ops:   []string{"cat", "out=a\n", "own=b\n", "decide", "flush"},
				env:   []string{tc.name + "=" + tc.value},
				stdin: strings.NewReader("in\n"),
			}.run(t)
			lines := strings.SplitAfter(res.stderr, "\n")
			if len(lines) != 2 || lines[1] != "" || !strings.Contains(lines[0], tc.name) || !strings.Contains(lines[0], tc.value) {
				t.Errorf("stderr %q, want one line naming %s and %q", res.stderr, tc.name, tc.value)
			}
			want := fullyBuffered(4096, 4096, stream.PolicyBlksize)
			checkDecision(t, "Stdin", res.report.Stdin, want)
			checkDecision(t, "Stdout", res.report.Stdout, want)
			if res.stdout != "in\na\nb\n" {
				t.Errorf("stdout %q, want %q", res.stdout, "in\na\nb\n")
			}
		})
	}
}
