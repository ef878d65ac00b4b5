//go:build linux

package stream_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/stream"
)

// The tests of the standard streams run the test binary again as a child
// process (TestHelperProcess, the pattern of os/exec's tests) with its
// descriptors 0, 1 and 2 on what the test wants: a pipe, a pseudo-terminal,
// /dev/full, a file. The child performs a list of operations given after
// "--" on stream.Stdin, Stdout and Stderr, then writes a JSON report of what
// the streams decided and did to descriptor 3, so that the streams under
// test are the only writers of descriptors 1 and 2.

// helperEnv set to 1 makes TestHelperProcess act as the child.
const helperEnv = "STREAM_TEST_HELPER"

// helperTimeout bounds a child's run: a child that deadlocks is killed and
// its test fails instead of hanging.
const helperTimeout = 2 * time.Minute

// helperReport is what the child reports on descriptor 3 when it exits.
type helperReport struct {
	Stdin, Stdout, Stderr stream.Info
	Extra                 *stream.Info // the stream of "own" or "scan", if any
	Lines                 []string     // lines read by "readline"
	Errs                  []string     // errors of the operations, "op: error"
}

// TestHelperProcess is not a test: it is the child the other tests run.
//
// Operations (each an argument after "--"):
//
//	out=TEXT       Stdout.WriteString(TEXT)
//	write=TEXT     Stdout.Write(TEXT)
//	own=TEXT       write TEXT through a Writer of its own over os.Stdout
//	scan           copy os.Stdin to Stdout line by line through a Scanner
//	err=TEXT       Stderr.WriteString(TEXT)
//	outbytes=N,K   N bytes to Stdout in Writes of K bytes
//	readline       read a line from Stdin into the report
//	skip=N         read N lines from Stdin, leaving them out of the report
//	reply=TEXT     Stdout.WriteString(TEXT + the last line read)
//	cat            copy Stdin to Stdout line by line until end of file
//	copy=N         Stdin.CopyBytes(Stdout, N), in the kernel where it can
//	vbuf=S,MODE    Setvbuf(MODE, 0) on stream S (stdin, stdout or stderr); MODE full, line or none
//	sync           Stdin.Sync()
//	flush          stream.Flush()
//	decide         decide three more streams over descriptors 0, 1 and 2
//	concurrent=G,M G goroutines write M records each to Stdout (see concurrentRecord)
//	exit=N         report, then stream.Exit(N); the default last operation is exit=0
//	osexit=N       report, then os.Exit(N): nothing is flushed
func TestHelperProcess(t *testing.T) {
	if os.Getenv(helperEnv) != "1" {
		t.Skip("the child process of the standard-stream tests; runs only with " + helperEnv + "=1")
	}
	h := &helper{report: os.NewFile(3, "report")}
	for _, op := range flag.Args() {
		h.do(op)
	}
	h.do("exit=0")
}

// helper is the child's state between operations.
type helper struct {
	report *os.File
	rep    helperReport
	own    *stream.Writer
	extra  func() stream.Info // Info of the stream of "own" or "scan"
	last   string             // the last line read
}

// note records the error of an operation, if any.
func (h *helper) note(op string, err error) {
	if err != nil {
		h.rep.Errs = append(h.rep.Errs, op+": "+err.Error())
	}
}

// do performs one operation.
func (h *helper) do(op string) {
	name, arg, _ := strings.Cut(op, "=")
	switch name {
	case "out":
		_, err := stream.Stdout.WriteString(arg)
		h.note(op, err)
	case "write":
		_, err := stream.Stdout.Write([]byte(arg))
		h.note(op, err)
	case "own":
		if h.own == nil {
			h.own = stream.NewWriter(os.Stdout)
			h.extra = h.own.Info
		}
		_, err := h.own.WriteString(arg)
		h.note(op, err)
	case "err":
		_, err := stream.Stderr.WriteString(arg)
		h.note(op, err)
	case "outbytes":
		n, k := helperPair(op, arg)
		chunk := bytes.Repeat([]byte{'x'}, k)
		for ; n > 0; n -= k {
			_, err := stream.Stdout.Write(chunk[:min(k, n)])
			h.note(op, err)
		}
	case "readline":
		line, err := stream.Stdin.ReadString('\n')
		h.rep.Lines = append(h.rep.Lines, line)
		h.last = line
		if err != io.EOF {
			h.note(op, err)
		}
	case "skip":
		n, err := strconv.Atoi(arg)
		if err != nil {
			helperFail("bad operation %q", op)
		}
		for range n {
			if _, err := stream.Stdin.ReadString('\n'); err != nil {
				h.note(op, err)
				break
			}
		}
	case "reply":
		_, err := stream.Stdout.WriteString(arg + h.last)
		h.note(op, err)
	case "cat":
		for {
			line, err := stream.Stdin.ReadString('\n')
			_, werr := stream.Stdout.WriteString(line)
			h.note(op, werr)
			if err != nil {
				if err != io.EOF {
					h.note(op, err)
				}
				break
			}
		}
	case "scan":
		s := stream.NewScanner(os.Stdin)
		h.extra = s.Info
		for s.Scan() {
			_, err := stream.Stdout.WriteString(s.Text() + "\n")
			h.note(op, err)
		}
		h.note(op, s.Err())
	case "copy":
		n, err := strconv.ParseInt(arg, 10, 64)
		if err != nil {
			helperFail("bad operation %q", op)
		}
		r, w := stream.Stdin.Lock(), stream.Stdout.Lock()
		_, err = r.CopyBytes(w, n)
		stream.Stdout.Unlock()
		stream.Stdin.Unlock()
		h.note(op, err)
	case "vbuf":
		h.note(op, h.setvbuf(arg))
	case "sync":
		h.note(op, stream.Stdin.Sync())
	case "flush":
		h.note(op, stream.Flush())
	case "decide":
		stream.NewReader(os.Stdin).Info()
		stream.NewWriter(os.Stdout).Info()
		stream.NewWriter(os.Stderr).Info()
	case "concurrent":
		g, m := helperPair(op, arg)
		writeConcurrently(g, m)
	case "exit", "osexit":
		code, err := strconv.Atoi(arg)
		if err != nil {
			helperFail("bad operation %q", op)
		}
		h.writeReport()
		if name == "exit" {
			stream.Exit(code)
		}
		os.Exit(code)
	default:
		helperFail("unknown operation %q", op)
	}
}

// setvbuf performs "vbuf=STREAM,MODE".
func (h *helper) setvbuf(arg string) error {
	which, modeName, _ := strings.Cut(arg, ",")
	mode, ok := map[string]stream.Mode{"full": stream.FullyBuffered, "line": stream.LineBuffered, "none": stream.Unbuffered}[modeName]
	switch {
	case !ok:
	case which == "stdin":
		return stream.Stdin.Setvbuf(mode, 0)
	case which == "stdout":
		return stream.Stdout.Setvbuf(mode, 0)
	case which == "stderr":
		return stream.Stderr.Setvbuf(mode, 0)
	}
	helperFail("bad vbuf %q", arg)
	return nil
}

// writeReport writes the report to descriptor 3.
func (h *helper) writeReport() {
	h.rep.Stdin, h.rep.Stdout, h.rep.Stderr = stream.Stdin.Info(), stream.Stdout.Info(), stream.Stderr.Info()
	if h.own != nil {
		h.note("own flush", h.own.Flush())
	}
	if h.extra != nil {
		i := h.extra()
		h.rep.Extra = &i
	}
	if err := json.NewEncoder(h.report).Encode(&h.rep); err != nil {
		helperFail("writing the report: %v", err)
	}
}

// helperPair parses "A,B" as two positive numbers.
func helperPair(op, arg string) (int, int) {
	a, b, _ := strings.Cut(arg, ",")
	x, err1 := strconv.Atoi(a)
	y, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || x <= 0 || y <= 0 {
		helperFail("bad operation %q", op)
	}
	return x, y
}

// helperFail ends the child with status 2, the reason on standard error.
func helperFail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "helper: "+format+"\n", args...)
	os.Exit(2)
}

// concurrentRecord is record r of goroutine g: one line whose length and
// letter depend on both, so that a record torn by another goroutine's
// bytes cannot pass for a whole one.
func concurrentRecord(g, r int) string {
	return fmt.Sprintf("g%02d r%04d %s\n", g, r, strings.Repeat(string(rune('a'+g%26)), 10+(g*37+r*13)%150))
}

// writeConcurrently has g goroutines write m records each to Stdout: the
// even ones with one Write or WriteString per record, the odd ones with
// three writes per record under Stdout.Lock, as flockfile.
func writeConcurrently(g, m int) {
	var wg sync.WaitGroup
	for i := range g {
		wg.Go(func() {
			for r := range m {
				rec := concurrentRecord(i, r)
				switch {
				case i%2 == 0 && r%2 == 0:
					stream.Stdout.WriteString(rec)
					continue
				case i%2 == 0:
					stream.Stdout.Write([]byte(rec))
					continue
				}
				w := stream.Stdout.Lock()
				w.WriteString(rec[:4])
				w.WriteString(rec[4 : len(rec)-1])
				w.WriteByte('\n')
				stream.Stdout.Unlock()
			}
		})
	}
	wg.Wait()
}

// helperRun describes one run of the child.
type helperRun struct {
	ops   []string  // the operations, as TestHelperProcess reads them
	env   []string  // NAME=value added to the child's environment
	under []string  // a command to run the child under, such as stdbuf -oL
	stdin io.Reader // nil: /dev/null
	// stdout is descriptor 1; nil: a pipe read into helperResult.stdout.
	stdout io.Writer
	stderr io.Writer // descriptor 2; nil: a pipe read into helperResult.stderr
	exit   int       // the exit status the child must end with
	trace  bool      // run under strace, if it is installed
	// traceKernel adds the kernel copies (sendfile, splice,
	// copy_file_range) to the calls traced.
	traceKernel bool
}

// helperResult is what a run of the child left.
type helperResult struct {
	stdout, stderr string
	report         helperReport
	traced         bool        // strace ran: calls is the child's reads and writes
	calls          []sysIOCall // read(2) and write(2) calls, all threads
}

// helperProc is a started child.
type helperProc struct {
	h              helperRun
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
	reportPath     string
	tracePath      string
}

// stracePath is the strace binary, or "" if there is none.
var stracePath = sync.OnceValue(func() string {
	p, _ := exec.LookPath("strace")
	return p
})

// helperEnviron is the test's environment without the variables that
// change buffering, plus helperEnv and extra.
func helperEnviron(extra []string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name == policyEnv || name == helperEnv || strings.HasPrefix(name, "_STDBUF_") {
			continue
		}
		env = append(env, kv)
	}
	return append(append(env, helperEnv+"=1"), extra...)
}

// start starts the child. A child still running when the test ends is
// killed.
func (h helperRun) start(t *testing.T) *helperProc {
	t.Helper()
	dir := t.TempDir()
	p := &helperProc{h: h, reportPath: filepath.Join(dir, "report.json")}
	report, err := os.Create(p.reportPath)
	if err != nil {
		t.Fatal(err)
	}
	defer report.Close()

	var args []string
	if h.trace && stracePath() != "" {
		p.tracePath = filepath.Join(dir, "strace.out")
		trace := "trace=read,write"
		if h.traceKernel {
			trace = "trace=/^(read|write|sendfile|sendfile64|splice|copy_file_range)$"
		}
		args = append(args, stracePath(), "-f", "-qq", "-e", trace, "-e", "signal=none", "-o", p.tracePath)
	}
	args = append(args, h.under...)
	args = append(args, os.Args[0], "-test.run=^TestHelperProcess$", "--")
	args = append(args, h.ops...)

	ctx, cancel := context.WithTimeout(context.Background(), helperTimeout)
	t.Cleanup(cancel)
	p.cmd = exec.CommandContext(ctx, args[0], args[1:]...)
	p.cmd.Env = helperEnviron(h.env)
	p.cmd.Stdin = h.stdin
	p.cmd.Stdout = h.stdout
	if h.stdout == nil {
		p.cmd.Stdout = &p.stdout
	}
	p.cmd.Stderr = h.stderr
	if h.stderr == nil {
		p.cmd.Stderr = &p.stderr
	}
	p.cmd.ExtraFiles = []*os.File{report}
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("starting the helper: %v", err)
	}
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			p.cmd.Process.Kill()
			p.cmd.Wait()
		}
	})
	return p
}

// wait waits for the child, checks its exit status and reads its report
// and trace.
func (p *helperProc) wait(t *testing.T) helperResult {
	t.Helper()
	err := p.cmd.Wait()
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		t.Fatalf("helper %q: %v", p.h.ops, err)
	}
	res := helperResult{stdout: p.stdout.String(), stderr: p.stderr.String(), traced: p.tracePath != ""}
	if code := p.cmd.ProcessState.ExitCode(); code != p.h.exit {
		t.Fatalf("helper %q under %q: %v, want exit status %d; stderr:\n%s", p.h.ops, p.h.under, p.cmd.ProcessState, p.h.exit, res.stderr)
	}
	data, err := os.ReadFile(p.reportPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &res.report); err != nil {
		t.Fatalf("helper %q: report %q: %v; stderr:\n%s", p.h.ops, data, err, res.stderr)
	}
	if res.traced {
		res.calls = parseStrace(t, p.tracePath)
	}
	return res
}

// run starts the child and waits for it.
func (h helperRun) run(t *testing.T) helperResult {
	t.Helper()
	return h.start(t).wait(t)
}

// sysIOCall is one read(2), write(2) or kernel copy as strace showed it.
type sysIOCall struct {
	Name string // read, write, or kernel for sendfile, splice and copy_file_range
	Fd   int    // the first argument
	Size int    // the count asked for; 0 for a kernel copy
}

var (
	// straceLine is a whole call: `read(0, "ab"..., 4096) = 2`.
	straceLine = regexp.MustCompile(`^(read|write)\((\d+), .*, (\d+)\)\s+= (-?\d+)`)
	// stracePid is the pid strace -f puts first, and the rest.
	stracePid = regexp.MustCompile(`^(\d*)\s*(.*)$`)
	// straceResumed is the end of a call another thread interrupted:
	// `<... read resumed>"ab", 4096) = 2`.
	straceResumed = regexp.MustCompile(`^<\.\.\. (?:read|write|sendfile|sendfile64|splice|copy_file_range) resumed>(.*)$`)
	// straceKernel is a kernel copy: `sendfile(1, 0, NULL, 4096) = 4096`.
	straceKernel = regexp.MustCompile(`^(?:sendfile|sendfile64|splice|copy_file_range)\((\d+), .*\)\s+= -?\d+`)
)

// parseStrace reads the read(2) and write(2) calls from strace -f output,
// joining the halves of calls that other threads interrupted. A write
// that took less than it asked for (a signal, such as the runtime's
// preemption, interrupts a blocking write to a pipe), or failed to be
// retried (EINTR, EAGAIN), is one call with the writes of package os that
// finish it: the next write on the same descriptor that asks for exactly
// the rest. Those are os.File's, not the buffer's.
func parseStrace(t *testing.T, path string) []sysIOCall {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var calls []sysIOCall
	pending := map[string]string{} // pid: the start of an unfinished call
	owed := map[int]int{}          // fd: what its last write left to write
	for _, line := range strings.Split(string(data), "\n") {
		m := stracePid.FindStringSubmatch(line)
		pid, text := m[1], m[2]
		if start, ok := strings.CutSuffix(text, " <unfinished ...>"); ok {
			pending[pid] = start
			continue
		}
		if r := straceResumed.FindStringSubmatch(text); r != nil {
			text = pending[pid] + r[1]
			delete(pending, pid)
		}
		if k := straceKernel.FindStringSubmatch(text); k != nil {
			fd, _ := strconv.Atoi(k[1])
			calls = append(calls, sysIOCall{Name: "kernel", Fd: fd})
			continue
		}
		m = straceLine.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		fd, _ := strconv.Atoi(m[2])
		size, _ := strconv.Atoi(m[3])
		ret, _ := strconv.Atoi(m[4])
		if m[1] == "write" {
			rest, finishing := owed[fd]
			delete(owed, fd)
			switch {
			case ret < 0:
				owed[fd] = size
			case ret < size:
				owed[fd] = size - ret
			}
			if finishing && size == rest {
				continue
			}
		}
		calls = append(calls, sysIOCall{Name: m[1], Fd: fd, Size: size})
	}
	if len(pending) > 0 {
		t.Fatalf("strace output %s has unfinished calls: %q", path, pending)
	}
	return calls
}

// sizesOf returns the counts the calls of name on fd asked for, in order.
func sizesOf(calls []sysIOCall, name string, fd int) []int {
	var sizes []int
	for _, c := range calls {
		if c.Name == name && c.Fd == fd {
			sizes = append(sizes, c.Size)
		}
	}
	return sizes
}

// checkTrace compares the sizes of the child's calls of name on fd with
// want, in a subtest that is skipped when strace is not installed.
func checkTrace(t *testing.T, res helperResult, name string, fd int, want []int) {
	t.Helper()
	t.Run(fmt.Sprintf("strace_%s_%d", name, fd), func(t *testing.T) {
		if !res.traced {
			t.Skip("strace is not installed: the system calls are not checked, only the counts in Info")
		}
		if diff := cmp.Diff(want, sizesOf(res.calls, name, fd)); diff != "" {
			t.Errorf("sizes of %s(%d, ...) calls (-want +got):\n%s", name, fd, diff)
		}
	})
}

// repeatInt is n copies of v.
func repeatInt(v, n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// TestParseStrace: the halves of an interrupted call are one call, and a
// write that os.File finishes after a short or failed write is one call
// of the size the buffer asked for, on that descriptor only.
func TestParseStrace(t *testing.T) {
	tests := []struct {
		name  string
		trace string
		want  []sysIOCall
	}{
		{"whole calls", "read(0, \"ab\"..., 4096) = 2\nwrite(1, \"ab\", 2) = 2\n",
			[]sysIOCall{{"read", 0, 4096}, {"write", 1, 2}}},
		{"resumed", "12 write(1, \"ab\", 2 <unfinished ...>\n13 read(0, \"\", 4096) = 0\n12 <... write resumed>) = 2\n",
			[]sysIOCall{{"read", 0, 4096}, {"write", 1, 2}}},
		{"short write finished", "write(1, \"a\"..., 262144) = 65536\nwrite(1, \"a\"..., 196608) = 196608\nwrite(1, \"b\"..., 37856) = 37856\n",
			[]sysIOCall{{"write", 1, 262144}, {"write", 1, 37856}}},
		{"short twice", "write(1, \"a\"..., 300) = 100\nwrite(1, \"a\"..., 200) = 50\nwrite(1, \"a\"..., 150) = 150\n",
			[]sysIOCall{{"write", 1, 300}}},
		{"failed, then retried", "write(1, \"a\"..., 4096) = -1 EAGAIN (Resource temporarily unavailable)\nwrite(1, \"a\"..., 4096) = 4096\n",
			[]sysIOCall{{"write", 1, 4096}}},
		{"a full write is not continued", "write(1, \"a\"..., 4096) = 4096\nwrite(1, \"a\"..., 4096) = 4096\n",
			[]sysIOCall{{"write", 1, 4096}, {"write", 1, 4096}}},
		{"another descriptor", "write(1, \"a\"..., 300) = 100\nwrite(2, \"e\"..., 200) = 200\nwrite(1, \"a\"..., 200) = 200\n",
			[]sysIOCall{{"write", 1, 300}, {"write", 2, 200}}},
		{"not the rest", "write(1, \"a\"..., 300) = 100\nwrite(1, \"b\"..., 50) = 50\n",
			[]sysIOCall{{"write", 1, 300}, {"write", 1, 50}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "trace")
			if err := os.WriteFile(path, []byte(tt.trace), 0o600); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, parseStrace(t, path)); diff != "" {
				t.Errorf("parseStrace (-want +got):\n%s", diff)
			}
		})
	}
}
