//go:build linux

package osstdout_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The -files tests of a pipe as standard input: testdata/files's read
// cases with readInput (21000 bytes, which a pipe's 64 KiB holds whole)
// on a pipe, built plainly and with -files, compared.

// How a case's program gets its pipe.
type pipeHow int

const (
	// pipeExec: os/exec's pipe, which the test writes and of which it
	// keeps only the write end: `producer | prog`.
	pipeExec pipeHow = iota
	// pipeGroup: the same pipe to `sh -c '"$0" "$@"; cat'`:
	// `producer | { prog; cat; }`. The shell holds the pipe while the
	// program runs, so the program reads it plainly.
	pipeGroup
	// pipeRest: a pipe the test keeps the read end of, the program in a
	// session of its own (where the test's end is not looked for); the
	// test reads what the program left in the pipe once it ended and
	// prints it after its output: the test is the cat of
	// `{ prog; cat; }`.
	pipeRest
	// pipeFIFO: a FIFO that the program's shell opens by path and
	// execs the program on (`exec prog < fifo`), which the test writes.
	pipeFIFO
	// pipeHeld: a pipe the test holds the write end of, writing nothing,
	// until the program has ended: its reads wait.
	pipeHeld
)

// ownSession puts cmd in a session of its own. -files decides a pipe
// from the processes of the program's session (stdioLinuxPipeAlone): in
// the test's own, which may hold a process whose descriptors cannot be
// read (a sandbox's init, when the tests run without a session of their
// own), the pipe would stay plain and a test of the buffer would test
// nothing.
func ownSession(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}

// pipeCmd is fileCmd with standard input a pipe made as how says,
// already holding the input (or fed by a goroutine, for pipeFIFO), in a
// session of its own (ownSession). after, called once the program has
// ended, returns what the test reads of the pipe then (pipeRest) and
// releases what pipeCmd made.
func pipeCmd(t *testing.T, bin, c string, how pipeHow, input string, args ...string) (cmd *exec.Cmd, path string, after func() string) {
	t.Helper()
	cmd, path = fileCmd(t, bin, c, nil, args...)
	ownSession(cmd)
	after = func() string { return "" }
	switch how {
	case pipeExec:
		cmd.Stdin = strings.NewReader(input)
	case pipeGroup:
		cmd.Stdin = strings.NewReader(input)
		sh := lookPath(t, "sh")
		cmd.Path, cmd.Args = sh, append([]string{"sh", "-c", `"$0" "$@"; cat`}, cmd.Args...)
	case pipeRest:
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(w, input); err != nil {
			t.Fatal(err)
		}
		w.Close()
		cmd.Stdin = r
		after = func() string {
			defer r.Close()
			rest, err := io.ReadAll(r)
			if err != nil {
				t.Error(err)
			}
			return "rest: " + string(rest)
		}
	case pipeFIFO:
		fifo := filepath.Join(t.TempDir(), "fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		sh := lookPath(t, "sh")
		cmd.Path, cmd.Args = sh, append([]string{"sh", "-c", `exec "$0" "$@" < "$PIPEIN_FIFO"`}, cmd.Args...)
		cmd.Env = append(cmd.Env, "PIPEIN_FIFO="+fifo)
		done := make(chan struct{})
		go func() {
			defer close(done)
			// Opening the write end waits for the program's shell to
			// open the read end.
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				return
			}
			io.WriteString(w, input)
			w.Close()
		}()
		after = func() string {
			// A program that never opened the FIFO leaves the writer
			// waiting: a reader's open lets it go.
			if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
				<-done
				r.Close()
			}
			return ""
		}
	case pipeHeld:
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdin = r
		after = func() string {
			r.Close()
			w.Close()
			return ""
		}
	}
	return cmd, path, after
}

func lookPath(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("needs %s: %v", name, err)
	}
	return p
}

// runPipe runs case c of bin to its end with its standard input a pipe
// made as how says.
func runPipe(t *testing.T, bin, c string, how pipeHow, in string, args ...string) ran {
	t.Helper()
	if in == "" {
		in = readInput()
	}
	cmd, path, after := pipeCmd(t, bin, c, how, in, args...)
	out, errb, status := runToEnd(t, cmd)
	rest := after()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatalf("%s %s: %v\nstderr: %s", bin, c, err, errb)
	}
	return ran{File: string(b), Stdout: strings.ReplaceAll(out, path, "FILE") + rest, Status: status}
}

// pipeCases are the read cases on a pipe: name, arguments, the pipe.
var pipeCases = []struct {
	name, c string
	args    []string
	how     pipeHow
	in      string // the pipe's input; readInput() if ""
}{
	{"scan", "scan", nil, pipeExec, ""},
	{"bytes", "bytes", nil, pipeExec, ""},
	{"fifo-scan", "scan", nil, pipeFIFO, ""},
	{"fifo-bytes", "bytes", nil, pipeFIFO, ""},
	// Four goroutines reading standard input; two through os.Stdin,
	// the others through other *Files on the same pipe.
	{"concurrent", "stdinconcurrent", nil, pipeExec, ""},
	{"siblings", "stdinsiblings", nil, pipeExec, ""},
	// The program stops mid-pipe, at exit (with standard output to
	// write out, and with none), after a panic, and after Close of its
	// standard input: what it leaves is what cat, or the test, reads.
	{"group-exit", "scan", []string{"1000"}, pipeGroup, ""},
	{"group-quiet", "scanquiet", []string{"1000"}, pipeGroup, ""},
	{"group-panic", "scanpanic", []string{"800"}, pipeGroup, ""},
	{"group-close", "scanclose", []string{"700"}, pipeGroup, ""},
	{"rest-exit", "scan", []string{"1000"}, pipeRest, ""},
	{"rest-quiet", "scanquiet", []string{"1000"}, pipeRest, ""},
	{"rest-panic", "scanpanic", []string{"800"}, pipeRest, ""},
	{"rest-close", "scanclose", []string{"700"}, pipeRest, ""},
	{"fifo-exit", "scan", []string{"1000"}, pipeFIFO, ""},
	// A child that inherits standard input after the program's reads,
	// one that reads while the program does (started before the
	// program reads, and after it has read through its buffer), and
	// Exec.
	{"child", "scanchild", []string{"1500"}, pipeExec, ""},
	{"with-child", "scanwithchild", []string{"100"}, pipeExec, ""},
	{"mid-child", "scanmidchild", []string{"300", "100"}, pipeExec, ""},
	{"rest-mid-child", "scanmidchild", []string{"300", "100"}, pipeRest, ""},
	{"exec", "scanexec", []string{"1200"}, pipeExec, ""},
	{"rest-child", "scanchild", []string{"1500"}, pipeRest, ""},
	{"rest-exec", "scanexec", []string{"1200"}, pipeRest, ""},
	// fmt's scans of every kind, runes of several bytes and bytes that
	// are not UTF-8 across buffers, where each scan leaves the pipe.
	{"scanmix", "scanmix", []string{"0", "stdin"}, pipeExec, mixInput()},
	// Standard input closed while a goroutine waits in a Read of it:
	// another Read gets the closed file's error at once.
	{"close-while-reading", "stdinclose", nil, pipeHeld, ""},
}

// mixInput is the scanmix case's input: testdata/files's mixBlock,
// 2000 times.
func mixInput() string {
	const block = "12 h\u00e9llo\n\u65e5\u672c\u8a9e -7\n\xff\xfe 42\nabc\xe2\x82 9\nline 5 x\n3.5 true\n"
	return strings.Repeat(block, 2000)
}

// TestFilesPipeSameAsPlain: fmt.Scan and one-byte reads from a pipe and
// a FIFO, goroutines reading it through one *File and through several
// (os.NewFile(0, ...), /dev/stdin), a program that stops mid-pipe (at exit, with nothing left to
// write, at a panic, after Close) before another reader, a child that
// inherits standard input (after the program's reads, and while it
// reads, from before its first read or from the middle), Exec, and a
// Read after Close while another goroutine waits in one give the plain
// build's output and leave the plain build's rest in the pipe.
func TestFilesPipeSameAsPlain(t *testing.T) {
	plain, files := filesPrograms(t)
	comparePipes(t, plain, files, "files", nil)
}

// TestFilesPipeRace: fmt.Scan from a pipe, goroutines reading it
// through one *File and through several, children reading the rest and
// reading from the middle, an exit mid-pipe and a Read after Close,
// under -race, give the plain output.
func TestFilesPipeRace(t *testing.T) {
	plain, _ := filesPrograms(t)
	comparePipes(t, plain, filesRace(t), "race", []string{"scan", "concurrent", "siblings", "child", "mid-child", "rest-exit", "scanmix", "close-while-reading"})
}

// comparePipes runs the pipe cases named in only (all if nil) with the
// plain build and with bin, the build called name, and compares.
func comparePipes(t *testing.T, plain, bin, name string, only []string) {
	compareBuilds(t, pipeCases, only, plain, bin, name, func(t *testing.T, bin string, i int) ran {
		pc := pipeCases[i]
		return runPipe(t, bin, pc.c, pc.how, pc.in, pc.args...)
	})
}

// TestFilesPipeSigterm: a program killed by SIGTERM after fmt.Scan from
// a pipe leaves in the pipe what the plain build leaves.
func TestFilesPipeSigterm(t *testing.T) {
	plain, files := filesPrograms(t)
	rest := func(bin string) string {
		cmd, _, after := pipeCmd(t, bin, "scanwait", pipeRest, readInput(), "500")
		killReady(t, bin, cmd)
		return after()
	}
	want, got := rest(plain), rest(files)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("what SIGTERM leaves in the pipe (-plain +files):\n%s", diff)
	}
}

// TestFilesPipeTwoReaders: the program and another reader (the plain
// build of the same case, one byte at a time too) read one pipe at
// once, which the test writes slowly; the program reads it plainly, so
// that what the two read together is the input, no byte twice, none
// lost.
func TestFilesPipeTwoReaders(t *testing.T) {
	plain, files := filesPrograms(t)
	input := readInput()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	// Both in one session of their own, started by one shell: the
	// other reader in the background, with the pipe as its standard
	// input through descriptor 3 (sh gives a background command
	// /dev/null as descriptor 0 before its redirections).
	cmd, path := fileCmd(t, files, "copybytes", nil)
	otherPath := filepath.Join(t.TempDir(), "out")
	sh := lookPath(t, "sh")
	cmd.Path, cmd.Args = sh, append([]string{"sh", "-c", `exec 3<&0; "$0" copybytes "$OTHER_OUT" <&3 3<&- & exec 3<&-; "$@" || exit; wait $!`, plain}, cmd.Args...)
	cmd.Env = append(cmd.Env, "OTHER_OUT="+otherPath)
	cmd.Stdin = r
	ownSession(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.Close()
	// In pieces with pauses, so that both readers find bytes to read
	// while the other is reading; from when both wait on the pipe, so
	// that a reader slow to start on a loaded machine misses none.
	waitReaders(t, cmd.Process.Pid, 2)
	for i := 0; i < len(input); i += 700 {
		io.WriteString(w, input[i:min(i+700, len(input))])
		time.Sleep(10 * time.Millisecond)
	}
	w.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	gotOther, err := os.ReadFile(otherPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the program read %d bytes, the other reader %d", len(got), len(gotOther))
	if len(gotOther) == 0 || len(got) == 0 {
		t.Errorf("the program read %d bytes, the other reader %d: both should have read some", len(got), len(gotOther))
	}
	all := append(got, gotOther...)
	slices.Sort(all)
	want := []byte(input)
	slices.Sort(want)
	if !bytes.Equal(all, want) {
		t.Errorf("the two readers read %d bytes (the program %d, the other %d), not the input's %d bytes once", len(all), len(got), len(gotOther), len(want))
	}
}

// TestFilesPipeReadCount: fmt.Scan and one-byte reads of a pipe and a
// FIFO make a few read(2) calls per buffer (strace; tee(2) too), the
// plain build one per byte; and a pipe stays plain where a process of
// the program's session cannot be looked at. The program runs in a
// session of its own (ownSession, on strace), and its shell makes the
// pipe or opens the FIFO, so that strace, the program's parent, does not
// hold it.
func TestFilesPipeReadCount(t *testing.T) {
	plain, files := filesPrograms(t)
	lookPath(t, "strace")
	in := filepath.Join(t.TempDir(), "in")
	if err := os.WriteFile(in, []byte(readInput()), 0o644); err != nil {
		t.Fatal(err)
	}
	// The program's reads of a pipe, of its standard input and of the
	// private pipe it copies into, as strace -y names them; and tee.
	pipeRead := regexp.MustCompile(`(?m)\bread\(\d+<(pipe:|[^>]*fifo>)`)
	tee := regexp.MustCompile(`(?m)\btee\(`)
	count := func(bin, c, script string, fifo bool) (reads, tees int) {
		dir := t.TempDir()
		log := filepath.Join(dir, "strace")
		ctx, cancel := context.WithTimeout(context.Background(), runDeadline)
		defer cancel()
		cmd := exec.CommandContext(ctx, "strace", "-f", "-y", "-e", "trace=read,tee", "-o", log, "sh", "-c", script, bin, c, filepath.Join(dir, "out"))
		cmd.Env = append(os.Environ(), "STDIOBUF_MAXDELAY=none", "PIPEIN_IN="+in)
		ownSession(cmd)
		if fifo {
			p := filepath.Join(dir, "fifo")
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Fatal(err)
			}
			cmd.Env = append(cmd.Env, "PIPEIN_FIFO="+p)
			go func() {
				if w, err := os.OpenFile(p, os.O_WRONLY, 0); err == nil {
					io.WriteString(w, readInput())
					w.Close()
				}
			}()
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("strace %s %s: %v\n%s", bin, c, err, out)
		}
		b, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		return len(pipeRead.FindAllString(string(b), -1)), len(tee.FindAllString(string(b), -1))
	}
	cases := []struct {
		name, script string
		fifo         bool
		buffered     bool // -files reads through a buffer
	}{
		{"pipe", `cat "$PIPEIN_IN" | "$0" "$@"`, false, true},
		{"FIFO", `exec "$0" "$@" < "$PIPEIN_FIFO"`, true, true},
		// Without CAP_SYS_PTRACE the program cannot read the
		// descriptors of strace and of its shell, root processes of
		// its session that have every capability: plain, as where a
		// sandbox's init shares the session.
		{"unseen", `cat "$PIPEIN_IN" | setpriv --bounding-set -sys_ptrace "$0" "$@"`, false, false},
	}
	for _, tc := range cases {
		if tc.name == "unseen" {
			if os.Geteuid() != 0 {
				t.Logf("%s: skipped: dropping CAP_SYS_PTRACE from a root process needs root", tc.name)
				continue
			}
			if _, err := exec.LookPath("setpriv"); err != nil {
				t.Logf("%s: skipped: no setpriv (util-linux) to drop CAP_SYS_PTRACE with", tc.name)
				continue
			}
		}
		for _, c := range []string{"scan", "bytes"} {
			p, _ := count(plain, c, tc.script, tc.fifo)
			f, ft := count(files, c, tc.script, tc.fifo)
			t.Logf("%s, %s: read(2) of a pipe: plain %d, -files %d and %d tee(2)", tc.name, c, p, f, ft)
			if p < 21000 {
				t.Errorf("%s, %s: the plain build made %d read(2) of the pipe, want >= 21000", tc.name, c, p)
			}
			switch {
			case tc.buffered && (f > 80 || ft > 10):
				// The 63 small reads before the decision, then
				// six fills of 4 KiB, each a read of the copy and
				// a read that consumes it, and the end: tee(2)
				// once per fill and at the end.
				t.Errorf("%s, %s: -files made %d read(2) of a pipe (want <= 80) and %d tee(2) (want <= 10)", tc.name, c, f, ft)
			case !tc.buffered && (f != p || ft != 0):
				t.Errorf("%s, %s: -files made %d read(2) of a pipe and %d tee(2), want the plain build's %d and none", tc.name, c, f, ft, p)
			}
		}
	}
}

// TestFilesPipeDecisionRace: a goroutine reading standard input, a pipe,
// in Reads of 4096 bytes while three others make the one-byte Reads
// whose 64th decides, reads every byte once: a plain read that waited
// for os's read lock while another goroutine decided and filled used to
// take bytes the fill had copied (about 1 run in 80 read too much).
func TestFilesPipeDecisionRace(t *testing.T) {
	_, files := filesPrograms(t)
	in := strings.Repeat("0123456789abcdef", 1<<17) // 2 MiB
	want := ran{Stdout: "read " + strconv.Itoa(len(in)) + "\n"}
	for i := range 300 {
		if got := runPipe(t, files, "stdinmixed", pipeExec, in); got != want {
			t.Fatalf("run %d: %+v, want %+v", i, got, want)
		}
	}
}

// heldPipe runs case c of bin with standard input a pipe the test holds
// open: it writes first, waits for the line signal on the program's
// standard error, writes then and closes the pipe. It reports what the
// program printed and whether the signal came within limit while the
// pipe was open.
func heldPipe(t *testing.T, bin, c, first, signal, then string, limit time.Duration) (out string, inTime bool) {
	t.Helper()
	cmd, _ := fileCmd(t, bin, c, nil)
	ownSession(cmd)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	er, ew, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer er.Close()
	var stdout bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = r, &stdout, ew
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.Close()
	ew.Close()
	if _, err := io.WriteString(w, first); err != nil {
		t.Fatal(err)
	}
	seen := make(chan bool, 1)
	go func() {
		b, _ := bufio.NewReader(er).ReadString('\n')
		seen <- b == signal+"\n"
		io.Copy(io.Discard, er)
	}()
	select {
	case ok := <-seen:
		inTime = ok
	case <-time.After(limit):
	}
	io.WriteString(w, then)
	w.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("%s %s: %v", bin, c, err)
	}
	return stdout.String(), inTime
}

// TestFilesPipeUnseenReader: after a reader -files cannot see (a raw
// read(2) of descriptor 0) takes bytes the program had used and not yet
// consumed, a give-back neither waits for the pipe's writer (it used to
// wait, lock held, until the writer closed the pipe) nor makes fmt.Scan
// spin (it used to loop for good), and the program ends as plainly.
func TestFilesPipeUnseenReader(t *testing.T) {
	plain, files := filesPrograms(t)
	var in strings.Builder
	for i := range 1000 {
		fmt.Fprintln(&in, i)
	}
	for _, bin := range []string{plain, files} {
		out, inTime := heldPipe(t, bin, "scanraw", in.String(), "drained", "", 5*time.Second)
		if !inTime {
			t.Errorf("%s: no line on standard error within 5 s while the pipe's writer held it open", bin)
		}
		if want := "drained\nscanned false\n"; out != want {
			t.Errorf("%s printed %q, want %q", bin, out, want)
		}
	}
}

// TestFilesPipeChildDuringRead: a child handed standard input while a
// Read of it waits for the writer leaves no descriptor of the buffer's
// private pipe open (both used to stay open for good).
func TestFilesPipeChildDuringRead(t *testing.T) {
	plain, files := filesPrograms(t)
	lookPath(t, "true")
	want, _ := heldPipe(t, plain, "directchild", strings.Repeat("x", 100), "child ran", strings.Repeat("y", 100), 10*time.Second)
	got, _ := heldPipe(t, files, "directchild", strings.Repeat("x", 100), "child ran", strings.Repeat("y", 100), 10*time.Second)
	if !strings.HasPrefix(want, "pipes beyond the standard three: ") || got != want {
		t.Errorf("-files printed %q, plain %q", got, want)
	}
}

// waitReaders waits, for up to 10 s, until n children of the process
// pid each have a thread blocked in a system call on descriptor 0
// (/proc/PID/task/TID/syscall: read, splice or tee of fd 0), and says so
// in the log if they do not; on other architectures than amd64 it does
// not wait.
func waitReaders(t *testing.T, pid, n int) {
	t.Helper()
	if runtime.GOARCH != "amd64" {
		return
	}
	onStdin := func(child string) bool {
		tasks, _ := filepath.Glob("/proc/" + child + "/task/*/syscall")
		for _, task := range tasks {
			b, err := os.ReadFile(task)
			if err != nil {
				continue
			}
			f := strings.Fields(string(b))
			// read 0, splice 275, tee 276 on amd64.
			if len(f) > 1 && (f[0] == "0" || f[0] == "275" || f[0] == "276") && f[1] == "0x0" {
				return true
			}
		}
		return false
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
		waiting := 0
		for _, child := range strings.Fields(string(b)) {
			if onStdin(child) {
				waiting++
			}
		}
		if waiting >= n {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Logf("after 10 s, fewer than %d readers of process %d wait on the pipe; writing anyway", n, pid)
}
