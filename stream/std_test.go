//go:build linux

package stream_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/stream"
)

// The standard streams, each in a child process with descriptors 0, 1
// and 2 on pipes unless a case says otherwise.

func TestStdStreamModes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		env        []string
		ops        []string
		fd         int // the stream checked: 1 Stdout, 2 Stderr
		want       decision
		wantWrites int64
		wantSizes  []int // the write(2) calls on fd
		wantOutput string
	}{{
		name:       "stderr is unbuffered: one write per call",
		ops:        []string{"err=a", "err=b\n", "err=c"},
		fd:         2,
		want:       decision{Mode: stream.Unbuffered, Size: 4096, Blksize: 4096, Policy: stream.PolicyBlksize},
		wantWrites: 3,
		wantSizes:  []int{1, 2, 1},
		wantOutput: "ab\nc",
	}, {
		name:       "stderr under the bufio policy is fully buffered",
		env:        []string{"STDIOBUF_POLICY=bufio"},
		ops:        []string{"err=a", "err=b\n", "err=c", "flush"},
		fd:         2,
		want:       fullyBuffered(4096, 4096, stream.PolicyBufio),
		wantWrites: 1,
		wantSizes:  []int{4},
		wantOutput: "ab\nc",
	}, {
		name:       "stdout to a pipe is fully buffered by the pipe's st_blksize",
		ops:        []string{"out=a\n", "out=b", "out=c\n", "flush"},
		fd:         1,
		want:       fullyBuffered(4096, 4096, stream.PolicyBlksize),
		wantWrites: 1,
		wantSizes:  []int{5},
		wantOutput: "a\nbc\n",
	}, {
		name:       "stdout to a pipe under the coreutils policy",
		env:        []string{"STDIOBUF_POLICY=coreutils"},
		ops:        []string{"outbytes=300000,1000", "flush"},
		fd:         1,
		want:       fullyBuffered(262144, 4096, stream.PolicyCoreutils),
		wantWrites: 2,
		wantSizes:  []int{262144, 300000 - 262144},
		wantOutput: strings.Repeat("x", 300000),
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := helperRun{ops: tc.ops, env: tc.env, trace: true}.run(t)
			info, output := res.report.Stdout, res.stdout
			if tc.fd == 2 {
				info, output = res.report.Stderr, res.stderr
			}
			checkInfo(t, info, tc.fd, tc.want, tc.wantWrites)
			if output != tc.wantOutput {
				t.Errorf("output on descriptor %d = %q, want %q", tc.fd, output, tc.wantOutput)
			}
			if len(res.report.Errs) > 0 {
				t.Errorf("errors: %q", res.report.Errs)
			}
			checkTrace(t, res, "write", tc.fd, tc.wantSizes)
		})
	}
}

// checkInfo compares what a child's stream decided and how many writes it
// made with what the test wants.
func checkInfo(t *testing.T, info stream.Info, fd int, want decision, wantWrites int64) {
	t.Helper()
	if info.Fd != fd {
		t.Errorf("Info().Fd = %d, want %d (%v)", info.Fd, fd, info)
	}
	if diff := cmp.Diff(want, decisionOf(info)); diff != "" {
		t.Errorf("decision on descriptor %d (-want +got):\n%s\n%v", fd, diff, info)
	}
	if info.Writes != wantWrites {
		t.Errorf("Info().Writes = %d, want %d (%v)", info.Writes, wantWrites, info)
	}
}

// openDevFull opens /dev/full for writing, or skips the test.
func openDevFull(t *testing.T) *os.File {
	t.Helper()
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full to make writes fail with ENOSPC: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestStdExit(t *testing.T) {
	t.Parallel()
	prog := os.Args[0] // as given, as GNU tools print it
	enospc := prog + ": write error: No space left on device\n"
	tests := []struct {
		name       string
		full       bool // stdout on /dev/full
		ops        []string
		exit       int
		wantStdout string
		wantStderr string
		wantErrs   int // errors the operations before Exit saw
	}{{
		name:       "Exit flushes stdout and keeps the status",
		ops:        []string{"out=bye\n", "out=no newline", "exit=3"},
		exit:       3,
		wantStdout: "bye\nno newline",
	}, {
		name:       "a failed flush at Exit is reported as close_stdout does",
		full:       true,
		ops:        []string{"out=hello\n", "exit=0"},
		exit:       1,
		wantStderr: enospc,
	}, {
		name:       "an earlier failed write is reported at Exit",
		full:       true,
		ops:        []string{"out=hello\n", "flush", "exit=0"},
		exit:       1,
		wantStderr: enospc,
		wantErrs:   1,
	}, {
		name: "nothing to write: nothing fails",
		full: true,
		ops:  []string{"exit=0"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := helperRun{ops: tc.ops, exit: tc.exit}
			if tc.full {
				h.stdout = openDevFull(t)
			}
			res := h.run(t)
			got := []string{res.stdout, res.stderr}
			if diff := cmp.Diff([]string{tc.wantStdout, tc.wantStderr}, got); diff != "" {
				t.Errorf("stdout, stderr (-want +got):\n%s", diff)
			}
			if len(res.report.Errs) != tc.wantErrs {
				t.Errorf("errors before Exit: %q, want %d", res.report.Errs, tc.wantErrs)
			}
		})
	}
}

func TestStdFlush(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                   string
		env                    []string
		ops                    []string
		wantStdout, wantStderr string
	}{{
		name:       "Flush writes stdout's pending bytes",
		ops:        []string{"out=partial", "flush", "osexit=0"},
		wantStdout: "partial",
	}, {
		name: "without Flush, os.Exit loses them",
		ops:  []string{"out=partial", "osexit=0"},
	}, {
		name:       "Flush writes a buffered stderr's pending bytes",
		env:        []string{"STDIOBUF_POLICY=bufio"},
		ops:        []string{"out=o", "err=e", "flush", "osexit=0"},
		wantStdout: "o",
		wantStderr: "e",
	}, {
		name: "a buffered stderr without Flush loses them too",
		env:  []string{"STDIOBUF_POLICY=bufio"},
		ops:  []string{"out=o", "err=e", "osexit=0"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := helperRun{ops: tc.ops, env: tc.env}.run(t)
			got := []string{res.stdout, res.stderr}
			if diff := cmp.Diff([]string{tc.wantStdout, tc.wantStderr}, got); diff != "" {
				t.Errorf("stdout, stderr (-want +got):\n%s", diff)
			}
		})
	}
}

// TestStdFlushJoinsErrors: when both Stdout and Stderr fail, Flush
// returns both errors, Stdout's first, joined as errors.Join joins them.
func TestStdFlushJoinsErrors(t *testing.T) {
	t.Parallel()
	h := helperRun{
		ops: []string{"out=o", "err=e", "flush", "osexit=0"},
		env: []string{"STDIOBUF_POLICY=bufio"}, // a buffered stderr
	}
	h.stdout, h.stderr = openDevFull(t), openDevFull(t)
	res := h.run(t)
	if diff := cmp.Diff([]string{"flush: write /dev/stdout: no space left on device\nwrite /dev/stderr: no space left on device"}, res.report.Errs); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// TestStdConcurrentStdout has goroutines write records to Stdout at once,
// some one Write a record, some several under Stdout.Lock: every record
// must come out whole, each goroutine's in order. Under -race the child is
// race-enabled too, and a race makes it exit with status 66.
func TestStdConcurrentStdout(t *testing.T) {
	t.Parallel()
	const goroutines, records = 8, 300
	res := helperRun{ops: []string{"concurrent=8,300"}}.run(t)

	got := map[string][]string{} // goroutine prefix "gNN": its lines in order
	for _, line := range strings.SplitAfter(res.stdout, "\n") {
		if line != "" {
			got[line[:min(3, len(line))]] = append(got[line[:min(3, len(line))]], line)
		}
	}
	want := map[string][]string{}
	for g := range goroutines {
		for r := range records {
			rec := concurrentRecord(g, r)
			want[rec[:3]] = append(want[rec[:3]], rec)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("records by goroutine (-want +got):\n%s", diff)
	}
}

// TestStdinSync is `{ prog; cat; } < file`: a child reads two lines from
// Stdin and exits; the descriptor's offset, which the parent shares, tells
// what the next reader of the file would start with.
func TestStdinSync(t *testing.T) {
	t.Parallel()
	const content = "one\ntwo\nthree\nfour\n"
	twoLines := []string{"readline", "readline"}
	tests := []struct {
		name       string
		env        []string
		ops        []string
		wantOffset int64
	}{
		{"Sync hands the read-ahead back", nil, append(twoLines, "sync"), 8},
		{"without Sync (os.Exit) the read-ahead is gone", nil, append(twoLines, "osexit=0"), int64(len(content))},
		{"16-byte buffer without Sync (os.Exit)", []string{"STDIOBUF_POLICY=16"}, append(twoLines, "osexit=0"), 16},
		{"Exit syncs as glibc's exit does", []string{"STDIOBUF_POLICY=16"}, twoLines, 8},
		{"16-byte buffer with Sync", []string{"STDIOBUF_POLICY=16"}, append(twoLines, "sync"), 8},
		{"unbuffered stdin never reads ahead", []string{"_STDBUF_I=0"}, twoLines, 8},
		{"Sync on an unbuffered stdin", []string{"_STDBUF_I=0"}, append(twoLines, "sync"), 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := openTempFile(t, content)
			res := helperRun{ops: tc.ops, env: tc.env, stdin: f}.run(t)
			if diff := cmp.Diff([]string{"one\n", "two\n"}, res.report.Lines); diff != "" {
				t.Errorf("lines read (-want +got):\n%s", diff)
			}
			if len(res.report.Errs) > 0 {
				t.Errorf("errors: %q", res.report.Errs)
			}
			offset, err := f.Seek(0, io.SeekCurrent)
			if err != nil {
				t.Fatal(err)
			}
			rest, err := io.ReadAll(f)
			if err != nil {
				t.Fatal(err)
			}
			if offset != tc.wantOffset || string(rest) != content[tc.wantOffset:] {
				t.Errorf("after the child: offset %d and the rest %q, want %d and %q", offset, rest, tc.wantOffset, content[tc.wantOffset:])
			}
		})
	}
}

// TestStdExitGivesBackInput: as glibc's exit does, Exit hands unread input
// back on a seekable standard input, so the next reader of the same open
// file starts after the last line read; os.Exit leaves the offset where
// the buffer's read left it.
func TestStdExitGivesBackInput(t *testing.T) {
	t.Parallel()
	const input = "one\ntwo\nthree\n"
	tests := []struct {
		exit string
		want int64
	}{
		{"exit=0", int64(len("one\n"))},
		{"osexit=0", int64(len(input))},
	}
	for _, tc := range tests {
		t.Run(tc.exit, func(t *testing.T) {
			name := filepath.Join(t.TempDir(), "in")
			if err := os.WriteFile(name, []byte(input), 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(name)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			helperRun{ops: []string{"readline", tc.exit}, stdin: f}.run(t)
			off, err := f.Seek(0, io.SeekCurrent)
			if err != nil {
				t.Fatal(err)
			}
			if off != tc.want {
				t.Errorf("after the child's %s the shared offset is %d, want %d", tc.exit, off, tc.want)
			}
		})
	}
}
