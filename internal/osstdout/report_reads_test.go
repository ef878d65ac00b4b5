//go:build linux

package osstdout_test

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The report's lines of -files read buffers (testdata/files built with
// -files): their counts against strace's, and the reason of a standard
// input pipe that package os reads plainly.

// readsRun runs cmd, with the report into a file, to its end and returns
// the report's line of standard input (fd=0, dir=read).
func readsRun(t *testing.T, cmd *exec.Cmd) reportLine {
	t.Helper()
	report := filepath.Join(t.TempDir(), "report")
	cmd.Env = append(envWithout(cmd.Env, "STDIOBUF_REPORT"), "STDIOBUF_REPORT="+report)
	if _, errb, status := runToEnd(t, cmd); status != 0 {
		if strings.Contains(errb, "PTRACE") || strings.Contains(errb, "ptrace") {
			t.Skip("strace cannot trace here: " + errb)
		}
		t.Fatalf("%s: status %d\n%s", cmd, status, errb)
	}
	return stdinLine(t, report)
}

// stdinLine is the line of standard input's read buffer in the report
// in the file report.
func stdinLine(t *testing.T, report string) reportLine {
	t.Helper()
	text, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	streams, total := parseReport(t, string(text))
	checkTotal(t, streams, total)
	for _, l := range streams {
		if l["fd"] == "0" && l["dir"] == "read" && l["buffer"] == "files" {
			return l
		}
	}
	t.Fatalf("no line of standard input's buffer in the report:\n%s", text)
	return nil
}

// straceArgs are strace's arguments before the traced command: every
// thread, paths of descriptors, no strings.
func straceArgs(strace, trace string) []string {
	return []string{strace, "-f", "-qq", "-y", "-s", "0", "-o", trace, "-e", "trace=read,tee"}
}

// TestReportFilesReadsAgreeWithStrace runs reads of standard input
// built with -files under strace, standard input a regular file and a
// FIFO: fmt.Scan, and Reads of one byte then of more than a buffer
// (which the buffer sends straight to the kernel). The report's reads,
// kernel copies and bytes of the read buffer must be the system calls
// strace saw the buffer make.
func TestReportFilesReadsAgreeWithStrace(t *testing.T) {
	strace := lookPath(t, "strace")
	_, files := filesPrograms(t)
	for _, c := range []struct {
		name string
		args []string // the case and its arguments
		pipe bool     // standard input a FIFO, else a regular file
	}{
		{"file/scan", []string{"scan"}, false},
		{"file/bigread", []string{"bigread", "100"}, false},
		{"pipe/scan", []string{"scan"}, true},
		{"pipe/bigread", []string{"bigread", "100"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			trace := filepath.Join(t.TempDir(), "trace")
			var cmd *exec.Cmd
			in := filepath.Join(t.TempDir(), "in")
			if c.pipe {
				var after func() string
				cmd, _, after = pipeCmd(t, files, c.args[0], pipeFIFO, readInput(), c.args[1:]...)
				defer after()
				// A session of its own: strace, and the shell the
				// program replaces, each of which /proc shows the
				// program, hold no reading end of the FIFO.
				cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
			} else {
				cmd, _ = fileCmd(t, files, c.args[0], nil, c.args[1:]...)
				if err := os.WriteFile(in, []byte(readInput()), 0o644); err != nil {
					t.Fatal(err)
				}
				f, err := os.Open(in)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				cmd.Stdin = f
			}
			cmd.Path, cmd.Args = strace, append(straceArgs(strace, trace), cmd.Args...)
			l := readsRun(t, cmd)
			if l["mode"] != "full" {
				t.Fatalf("standard input's line %v, want a buffer", l)
			}
			var want map[string]int
			if c.pipe {
				want = pipeBufferCalls(t, trace)
			} else {
				want = fileBufferCalls(t, trace, "0<"+in+">")
			}
			got := map[string]int{"reads": l.num(t, "reads"), "kernel": l.num(t, "kernel"), "bytes": l.num(t, "bytes")}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("strace and the report disagree (-strace +report):\n%s\nthe line: %v", diff, l)
			}
		})
	}
}

// fileBufferCalls counts the read buffer's calls over standard input,
// the regular file fd, in trace: every read of fd, those that ask for a
// buffer or more (a fill, or a Read larger than the buffer sent straight
// to the file) and the Reads of one byte made plainly before the
// decision, which the buffer's line counts too.
func fileBufferCalls(t *testing.T, trace, fd string) map[string]int {
	t.Helper()
	want := map[string]int{"reads": 0, "kernel": 0, "bytes": 0}
	filled := false
	for _, c := range straceTrace(t, trace) {
		if c.name == "read" && c.fd == fd {
			want["reads"]++
			want["bytes"] += max(c.result, 0)
			filled = filled || c.count >= 4096
		}
	}
	if !filled {
		t.Fatalf("strace saw no read of the buffer in %s", trace)
	}
	return want
}

// pipeBufferCalls counts the read buffer's calls over standard input, a
// pipe, in trace: each read(2) of standard input before the first tee,
// made plainly before the decision, with its bytes; each tee(2) of
// standard input into its private pipe (a kernel copy), each read(2) of
// that pipe (the bytes the program gets through it), and each read(2)
// of standard input after the first tee: the consumes of what the
// program used, whose bytes came through the copy, and the Reads of
// 12345 bytes the buffer sends straight to the pipe, whose bytes count
// (bigread).
func pipeBufferCalls(t *testing.T, trace string) map[string]int {
	t.Helper()
	want := map[string]int{"reads": 0, "kernel": 0, "bytes": 0}
	private := ""
	for _, c := range straceTrace(t, trace) {
		switch {
		case c.name == "tee" && strings.HasPrefix(c.fd, "0<"):
			want["kernel"]++
			private = c.fd2[strings.Index(c.fd2, "<"):]
		case c.name == "read" && strings.HasPrefix(c.fd, "0<") && private == "":
			want["reads"]++
			want["bytes"] += max(c.result, 0)
		case c.name == "read" && strings.HasPrefix(c.fd, "0<"):
			want["reads"]++
			if c.count == 12345 {
				want["bytes"] += max(c.result, 0)
			}
		case c.name == "read" && private != "" && strings.HasSuffix(c.fd, private):
			want["reads"]++
			want["bytes"] += max(c.result, 0)
		}
	}
	if want["kernel"] == 0 {
		t.Fatalf("strace saw no tee(2) of standard input in %s", trace)
	}
	return want
}

// TestReportFilesPipePlainReason checks the line of a standard input
// pipe that package os reads plainly though a buffer was decided for
// it: mode none, the reason says what kept it plain (a process of the
// session it cannot look at, another reader, non-blocking mode), and
// its reads are the plain reads the program made.
func TestReportFilesPipePlainReason(t *testing.T) {
	plain, files := filesPrograms(t)
	// The line counts the plain reads: the scan case reads a byte at a
	// time, and once more at the end.
	plainReads := strconv.Itoa(len(readInput()) + 1)
	sh := lookPath(t, "sh")
	t.Run("hidden", func(t *testing.T) {
		// The program in a session of its own under a root shell that
		// has every capability, run itself without CAP_SYS_PTRACE: it
		// cannot read the shell's descriptors, as a program in CI's
		// session 0 cannot read those of PID 1.
		if os.Geteuid() != 0 {
			t.Skip("needs root: a process of the session that the program cannot look at is made by dropping CAP_SYS_PTRACE from root")
		}
		setpriv := lookPath(t, "setpriv")
		if out, err := exec.Command(setpriv, "--bounding-set", "-sys_ptrace", "true").CombinedOutput(); err != nil {
			t.Skipf("setpriv cannot drop CAP_SYS_PTRACE here: %v: %s", err, out)
		}
		cmd, _ := fileCmd(t, files, "scan", nil)
		pidFile := filepath.Join(t.TempDir(), "pid")
		// The shell stays (exit after the program) and holds the pipe.
		cmd.Path, cmd.Args = sh, append([]string{"sh", "-c", `echo $$ > "$PID_FILE"; "$@"; exit $?`, "sh", setpriv, "--bounding-set", "-sys_ptrace"}, cmd.Args...)
		cmd.Env = append(cmd.Env, "PID_FILE="+pidFile)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		cmd.Stdin = strings.NewReader(readInput())
		l := readsRun(t, cmd)
		pid := readPid(t, pidFile)
		want := reportLine{"kind": "pipe", "mode": "none", "reason": "pipe: process " + pid + " of the session cannot be looked at", "reads": plainReads, "kernel": "0"}
		if diff := cmp.Diff(want, l.pick("kind", "mode", "reason", "reads", "kernel")); diff != "" {
			t.Errorf("standard input's line (-want +got):\n%s", diff)
		}
	})
	t.Run("nonblocking", func(t *testing.T) {
		// A pipe in non-blocking mode when the program starts, as a
		// parent that reads its other end through a poller may leave it:
		// os's poller reads it, and a tee(2) would not wait for the
		// writer. The program is started with syscall.ForkExec: os/exec
		// hands a child an *os.File through Fd, which makes it blocking.
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		if _, err := io.WriteString(w, readInput()); err != nil {
			t.Fatal(err)
		}
		w.Close()
		rc, err := r.SyscallConn()
		if err != nil {
			t.Fatal(err)
		}
		var in uintptr
		if cerr := rc.Control(func(fd uintptr) { in, err = fd, syscall.SetNonblock(int(fd), true) }); cerr != nil || err != nil {
			t.Fatal(cerr, err)
		}
		report := filepath.Join(t.TempDir(), "report")
		cmd, _ := fileCmd(t, files, "scan", []string{"STDIOBUF_REPORT=" + report})
		out, err := os.Create(filepath.Join(t.TempDir(), "stdout"))
		if err != nil {
			t.Fatal(err)
		}
		defer out.Close()
		pid, err := syscall.ForkExec(cmd.Path, cmd.Args, &syscall.ProcAttr{
			Env:   cmd.Env,
			Files: []uintptr{in, out.Fd(), out.Fd()},
			Sys:   &syscall.SysProcAttr{Setsid: true},
		})
		if err != nil {
			t.Fatal(err)
		}
		var ws syscall.WaitStatus
		if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil {
			t.Fatal(err)
		}
		if text, _ := os.ReadFile(out.Name()); !ws.Exited() || ws.ExitStatus() != 0 || !strings.HasPrefix(string(text), "scanned 3000 ") {
			t.Fatalf("the program ended with %v, printing %q", ws, text)
		}
		l := stdinLine(t, report)
		want := reportLine{"kind": "pipe", "mode": "none", "reason": "pipe: non-blocking", "reads": plainReads, "kernel": "0"}
		if diff := cmp.Diff(want, l.pick("kind", "mode", "reason", "reads", "kernel")); diff != "" {
			t.Errorf("standard input's line (-want +got):\n%s", diff)
		}
	})
	t.Run("reader", func(t *testing.T) {
		// The plain build reading the same pipe, in the program's
		// session: the shell starts the program and becomes the other
		// reader. (A shell gives a command it starts in the background
		// /dev/null as its standard input, unless redirected from
		// another descriptor.)
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		cmd, _ := fileCmd(t, files, "copybytes", nil)
		other := filepath.Join(t.TempDir(), "other")
		report := filepath.Join(t.TempDir(), "report")
		pidFile := filepath.Join(t.TempDir(), "pid")
		cmd.Path, cmd.Args = sh, append([]string{"sh", "-c", `echo $$ > "$PID_FILE"; exec 3<&0; STDIOBUF_REPORT="$REPORT" "$@" <&3 3<&- & exec "$PLAIN" copybytes "$OTHER" 3<&-`, "sh"}, cmd.Args...)
		cmd.Env = append(envWithout(cmd.Env, "STDIOBUF_REPORT"), "PID_FILE="+pidFile, "REPORT="+report, "PLAIN="+plain, "OTHER="+other)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		cmd.Stdin = r
		// Wait then waits for the program, started in the background,
		// to close its standard output as it ends, after its report.
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		cmd.WaitDelay = runDeadline
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		r.Close()
		// In pieces with pauses, so that both readers find bytes to
		// read.
		input := readInput()
		for i := 0; i < len(input); i += 700 {
			w.WriteString(input[i:min(i+700, len(input))])
			time.Sleep(10 * time.Millisecond)
		}
		w.Close()
		if err := cmd.Wait(); err != nil {
			t.Fatalf("%v\nstderr: %s", err, errb.String())
		}
		t.Logf("the two readers: %s", out.String())
		l := stdinLine(t, report)
		pid := readPid(t, pidFile)
		want := reportLine{"kind": "pipe", "mode": "none", "reason": "pipe: process " + pid + " holds it open for reading", "kernel": "0"}
		if diff := cmp.Diff(want, l.pick("kind", "mode", "reason", "kernel")); diff != "" {
			t.Errorf("standard input's line (-want +got):\n%s", diff)
		}
		// Its plain reads, as many as the other reader left it.
		if l.num(t, "reads") == 0 {
			t.Errorf("standard input's line counts no reads: %v", l)
		}
	})
}

// TestReportFilesChildReason checks the line of a buffered standard
// input that a child is then handed (exec.Cmd's Stdin = os.Stdin): os
// reads it plainly from then on, and the line says so, with the reads
// the buffer made before.
func TestReportFilesChildReason(t *testing.T) {
	_, files := filesPrograms(t)
	for _, pipe := range []bool{false, true} {
		name := map[bool]string{false: "file", true: "pipe"}[pipe]
		t.Run(name, func(t *testing.T) {
			var cmd *exec.Cmd
			if pipe {
				var after func() string
				cmd, _, after = pipeCmd(t, files, "scanchild", pipeExec, readInput(), "1000")
				defer after()
				cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
			} else {
				var path string
				cmd, path = fileCmd(t, files, "scanchild", nil, "1000")
				withInput(true, false)(cmd, path)
			}
			l := readsRun(t, cmd)
			want := reportLine{"mode": "none", "reason": "handed to a child: read plainly from then on"}
			if diff := cmp.Diff(want, l.pick("mode", "reason")); diff != "" {
				t.Errorf("standard input's line (-want +got):\n%s\n%v", diff, l)
			}
			if l.num(t, "reads") == 0 {
				t.Errorf("no reads before the child: %v", l)
			}
		})
	}
}

// readPid is the process number the shell wrote to file.
func readPid(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}
