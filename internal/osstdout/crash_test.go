//go:build linux

package osstdout_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/internal/ptytest"
)

// The tests of the runtime and syscall hooks build testdata/crash plainly
// and with `stdiobuf build -stdout`, and compare what each case shows: a
// panic, a fatal error, a signal, a descriptor handed on. With
// STDIOBUF_OTHER_GO set (go1.25.5, go1.27.3), that toolchain builds both,
// which GOTOOLCHAIN downloads: the hooks' patch must apply to its runtime.

var (
	crashOnce  sync.Once
	crashErr   error
	crashPlain string
	crashBuf   string
	crashDir   string
)

func crashPrograms(t *testing.T) (plain, buffered string) {
	t.Helper()
	skipShort(t)
	crashOnce.Do(func() { crashPlain, crashBuf, crashErr = buildCrash() })
	if crashErr != nil {
		t.Fatal(crashErr)
	}
	return crashPlain, crashBuf
}

// buildCrash builds testdata/crash in a module of its own (so that the
// toolchain can be older than this module's), plainly and with
// `stdiobuf build -stdout`.
func buildCrash() (plain, buffered string, err error) {
	if crashDir, err = os.MkdirTemp("", "osstdout-crash-"); err != nil {
		return "", "", err
	}
	tool, err := buildTool(crashDir)
	if err != nil {
		return "", "", err
	}
	src, err := os.ReadFile(filepath.Join("testdata", "crash", "main.go"))
	if err != nil {
		return "", "", err
	}
	mod := filepath.Join(crashDir, "crash")
	if err := os.Mkdir(mod, 0o755); err != nil {
		return "", "", err
	}
	env := os.Environ()
	goLine := "1.25" // the oldest release -stdout supports
	if v := os.Getenv("STDIOBUF_OTHER_GO"); v != "" {
		env = append(env, "GOTOOLCHAIN="+v)
		goLine = strings.Join(strings.Split(strings.TrimPrefix(v, "go"), ".")[:2], ".")
	}
	for name, b := range map[string][]byte{"main.go": src, "go.mod": []byte("module example.com/crash\n\ngo " + goLine + "\n")} {
		if err := os.WriteFile(filepath.Join(mod, name), b, 0o644); err != nil {
			return "", "", err
		}
	}
	plain, buffered = filepath.Join(crashDir, "crash-plain"), filepath.Join(crashDir, "crash-stdout")
	for _, args := range [][]string{{"go", "build", "-o", plain}, {tool, "build", "-stdout", "-o", buffered}} {
		cmd := exec.Command(args[0], append(args[1:], ".")...)
		cmd.Dir, cmd.Env = mod, env
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", "", fmt.Errorf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	return plain, buffered, nil
}

// crashed is what one run of the crash program showed.
type crashed struct {
	Stdout string
	Stderr string
	Status int    // exit status, -1 if killed
	Signal string // the signal that killed it
}

// launch starts bin with args, its standard output to s and its
// standard error to a pipe (or, merged, where standard output goes). It
// returns the command, started, and a function that waits for it and
// returns what it showed. The bound is off (STDIOBUF_MAXDELAY=none), so
// that what the hooks flush is not flushed by the bound's timer first.
func launch(t *testing.T, bin string, s sink, merged bool, args ...string) (*exec.Cmd, *bufio.Reader, func() crashed) {
	t.Helper()
	return launchEnv(t, bin, s, merged, nil, args...)
}

// launchEnv is launch with env added to the program's environment.
func launchEnv(t *testing.T, bin string, s sink, merged bool, env []string, args ...string) (*exec.Cmd, *bufio.Reader, func() crashed) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(append(os.Environ(), "STDIOBUF_MAXDELAY=none"), env...)
	var out *os.File // what the program writes to
	var collect func() []byte
	switch s {
	case toFile:
		name := filepath.Join(t.TempDir(), "out")
		f, err := os.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		out = f
		collect = func() []byte {
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
	case toPipe, toPty:
		var r *os.File
		if s == toPipe {
			var err error
			if r, out, err = os.Pipe(); err != nil {
				t.Fatal(err)
			}
		} else {
			r, out = ptytest.Open(t, 30*time.Second)
		}
		var got []byte
		var rerr error
		done := make(chan struct{})
		go func() {
			defer close(done)
			if s == toPty {
				got, rerr = ptytest.ReadAll(r)
				return
			}
			var b bytes.Buffer
			_, rerr = b.ReadFrom(r)
			got = b.Bytes()
		}()
		collect = func() []byte {
			<-done
			if rerr != nil {
				t.Fatalf("reading the program's output: %v", rerr)
			}
			return got
		}
	default:
		t.Fatalf("no sink %q", s)
	}
	cmd.Stdout = out
	var errBuf bytes.Buffer
	var errPipe *bufio.Reader
	if merged {
		cmd.Stderr = out
	} else {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = w
		defer w.Close()
		errPipe = bufio.NewReader(r)
		t.Cleanup(func() { r.Close() })
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out.Close()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	wait := func() crashed {
		if errPipe != nil {
			errBuf.ReadFrom(errPipe)
		}
		cmd.Wait()
		c := crashed{Stdout: string(collect()), Stderr: errBuf.String(), Status: cmd.ProcessState.ExitCode()}
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			c.Signal = ws.Signal().String()
		}
		return c
	}
	return cmd, errPipe, wait
}

// runCrash runs a case to its end.
func runCrash(t *testing.T, bin string, s sink, merged bool, args ...string) crashed {
	t.Helper()
	_, _, wait := launch(t, bin, s, merged, args...)
	return wait()
}

// awaitReady reads the program's standard error up to its "ready" line,
// which it writes once the output the test checks has been written, and
// returns what came before it.
func awaitReady(t *testing.T, errPipe *bufio.Reader) string {
	t.Helper()
	type line struct {
		s   string
		err error
	}
	c := make(chan line, 1)
	go func() {
		var before strings.Builder
		for {
			s, err := errPipe.ReadString('\n')
			if err != nil || s == "ready\n" {
				c <- line{before.String(), err}
				return
			}
			before.WriteString(s)
		}
	}()
	select {
	case l := <-c:
		if l.err != nil {
			t.Fatalf("the program ended before it was ready: %v; standard error:\n%s", l.err, l.s)
		}
		return l.s
	case <-time.After(60 * time.Second):
		// A guard against a hang, not a timing.
		t.Fatal("the program was not ready after a minute")
	}
	return ""
}

// variable matches what differs from run to run or build to build in a
// panic's or fatal error's report: code offsets, addresses, goroutine
// numbers, log's time stamps, and the GOROOT of a toolchain GOTOOLCHAIN
// downloaded, which stdiobuf builds with through a link of its own.
var variable = regexp.MustCompile(`\+0x[0-9a-f]+|0x[0-9a-f]+|goroutine \d+|\d{4}/\d\d/\d\d \d\d:\d\d:\d\d|\S*/src/`)

func normalized(c crashed) crashed {
	c.Stdout = variable.ReplaceAllString(c.Stdout, "X")
	c.Stderr = variable.ReplaceAllString(c.Stderr, "X")
	return c
}

// TestCrashSameOutput: a panic in main or another goroutine, a panic
// value whose Error method prints, log.Panic, main's Goexit, a child
// started with syscall.ForkExec or syscall.Exec, syscall.Exit, the
// runtime's println among standard output's lines and its report of a
// deadlock after them show what the plain build shows, in the same order, into a file, a pipe and a terminal,
// with standard error apart and merged (2>&1).
func TestCrashSameOutput(t *testing.T) {
	plain, buffered := crashPrograms(t)
	cases := []struct {
		name   string
		merged []bool
	}{
		{"panic", []bool{false, true}},
		{"goroutine-panic", []bool{false, true}},
		{"error-panic", []bool{false, true}},
		{"log.Panic", []bool{false, true}},
		{"goexit", []bool{false, true}},
		{"forkexec", []bool{false}},
		{"exec", []bool{false}},
		{"exit", []bool{false}},
		{"println", []bool{true}},
		{"deadlock", []bool{false, true}},
	}
	for _, c := range cases {
		for _, merged := range c.merged {
			for _, s := range []sink{toFile, toPipe, toPty} {
				name := c.name + "/" + string(s)
				if merged {
					name += "/2>&1"
				}
				t.Run(name, func(t *testing.T) {
					want := normalized(runCrash(t, plain, s, merged, c.name))
					got := normalized(runCrash(t, buffered, s, merged, c.name))
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("-stdout build differs from the plain build (-plain +stdout):\n%s", diff)
					}
				})
			}
		}
	}
}

// TestCrashDeadlockBound: with the bound on, a program whose goroutines
// all sleep while standard output holds lines shows them before the
// runtime's deadlock report, as the plain build does: the bound's
// clock, a thread of its own on Linux and no runtime timer, neither
// hides the deadlock nor loses the lines.
func TestCrashDeadlockBound(t *testing.T) {
	plain, buffered := crashPrograms(t)
	for _, s := range []sink{toFile, toPipe} {
		t.Run(string(s), func(t *testing.T) {
			bound := []string{"STDIOBUF_MAXDELAY=50ms"}
			_, _, wait := launchEnv(t, plain, s, false, bound, "deadlock")
			want := normalized(wait())
			_, _, wait = launchEnv(t, buffered, s, false, bound, "deadlock")
			got := normalized(wait())
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("-stdout build differs from the plain build (-plain +stdout):\n%s", diff)
			}
		})
	}
}

// TestCrashTwoPanics: when two goroutines panic at once, the second
// waits for the first's flush before it prints and exits. The race is
// narrow: run many times.
func TestCrashTwoPanics(t *testing.T) {
	_, buffered := crashPrograms(t)
	var want strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&want, "two %d\n", i)
	}
	for i := range 30 {
		if got := runCrash(t, buffered, toFile, false, "two-panics"); got.Stdout != want.String() || got.Status != 2 {
			t.Fatalf("run %d: status %d, %d of 1000 lines before the panics", i, got.Status, strings.Count(got.Stdout, "\n"))
		}
	}
}

// TestCrashFatalError: a fatal error found in a user goroutine
// (concurrent map writes) comes after every line printed before it. The
// racing writes may instead break the map before the runtime sees them,
// and the program dies of the fault ("unexpected fault address"), as a
// plain build may: the lines come first all the same.
func TestCrashFatalError(t *testing.T) {
	_, buffered := crashPrograms(t)
	for _, s := range []sink{toFile, toPipe} {
		got := runCrash(t, buffered, s, true, "map")
		lines := ""
		for i := range 10 {
			lines += fmt.Sprintf("map %d\n", i)
		}
		rest, ok := strings.CutPrefix(got.Stdout, lines)
		if !ok || got.Status != 2 ||
			!strings.HasPrefix(rest, "fatal error: concurrent map writes") && !strings.HasPrefix(rest, "unexpected fault address") {
			t.Errorf("%s: status %d, the lines first: %v, then %q; want status 2, the lines, then the fatal error", s, got.Status, ok, rest[:min(len(rest), 300)])
		}
	}
}

// TestCrashSignal: a program killed by SIGTERM or SIGINT, which it does
// not catch, after writing lines, keeps them and dies of the signal; one
// that catches or ignores it keeps its own behaviour; one that sends the
// signal to itself dies before its next line. One that sends it and
// returns from main keeps its lines; whether it then dies of the signal
// or exits 0 is a race in the plain build too (another thread may take
// the signal while main returns), so either end is accepted there. One
// that sends it and then calls syscall.Exec, ForkExec or Exit dies of it
// before the call, without running the new program or the child.
func TestCrashSignal(t *testing.T) {
	plain, buffered := crashPrograms(t)
	defaultActions(t, syscall.SIGHUP, syscall.SIGINT)
	cases := []struct {
		name   string
		sig    syscall.Signal // sent once the program is ready; 0: none
		either bool           // death by SIGTERM and status 0 are both right
	}{
		{"wait", syscall.SIGTERM, false},
		{"wait", syscall.SIGINT, false},
		{"wait", syscall.SIGHUP, false},
		{"notify", syscall.SIGTERM, false},
		{"ignore", syscall.SIGTERM, false},
		{"kill-self", 0, false},
		{"kill-self-return", 0, true},
		{"kill-self-exec", 0, false},
		{"kill-self-forkexec", 0, false},
		{"kill-self-exit", 0, false},
	}
	for _, c := range cases {
		for _, s := range []sink{toFile, toPipe, toPty} {
			t.Run(fmt.Sprintf("%s/%v/%s", c.name, c.sig, s), func(t *testing.T) {
				var res [2]crashed
				for i, bin := range []string{plain, buffered} {
					cmd, errPipe, wait := launch(t, bin, s, false, c.name)
					if c.sig != 0 {
						awaitReady(t, errPipe)
						if err := cmd.Process.Signal(c.sig); err != nil {
							t.Fatal(err)
						}
					}
					res[i] = wait()
					if c.either {
						res[i] = raceEnd(t, res[i])
					}
				}
				if diff := cmp.Diff(res[0], res[1]); diff != "" {
					t.Errorf("-stdout build differs from the plain build (-plain +stdout):\n%s", diff)
				}
			})
		}
	}
}

// defaultActions makes the programs the test starts get the default
// action of each of sigs that the test inherited ignored (SIGHUP under
// nohup, SIGINT in a background job of a shell), which a program
// inherits in turn: a signal the test catches is reset to its default in
// a child.
func defaultActions(t *testing.T, sigs ...os.Signal) {
	for _, sig := range sigs {
		if !signal.Ignored(sig) {
			continue
		}
		c := make(chan os.Signal, 1)
		signal.Notify(c, sig)
		t.Cleanup(func() { signal.Stop(c) })
	}
}

// TestCrashSignalBusy: killed while it prints as fast as it can, the
// program keeps every line written before it said it was ready and dies
// of the signal, its output ending with a whole line.
func TestCrashSignalBusy(t *testing.T) {
	_, buffered := crashPrograms(t)
	for _, s := range []sink{toFile, toPipe} {
		cmd, errPipe, wait := launch(t, buffered, s, false, "busy")
		awaitReady(t, errPipe)
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		got := wait()
		if got.Signal != syscall.SIGTERM.String() {
			t.Errorf("%s: status %d, signal %q, want death by SIGTERM", s, got.Status, got.Signal)
		}
		if !strings.HasSuffix(got.Stdout, "\n") {
			t.Errorf("%s: the output ends with a part of a line: %q", s, got.Stdout[max(0, len(got.Stdout)-40):])
		}
		for i := range 1000 {
			if line := fmt.Sprintf("busy %d\n", i); !strings.Contains(got.Stdout, line) {
				t.Errorf("%s: %q, written before the signal, is lost", s, line)
				break
			}
		}
	}
}

// TestCrashAbort: a SIGABRT sent by another process (systemd's
// watchdog), which the program does not catch, keeps the lines written
// before it and then shows the goroutine dump and the status 2 of the
// plain build.
func TestCrashAbort(t *testing.T) {
	plain, buffered := crashPrograms(t)
	for _, s := range []sink{toFile, toPipe, toPty} {
		t.Run(string(s), func(t *testing.T) {
			var res [2]crashed
			for i, bin := range []string{plain, buffered} {
				cmd, errPipe, wait := launch(t, bin, s, false, "wait")
				awaitReady(t, errPipe)
				if err := cmd.Process.Signal(syscall.SIGABRT); err != nil {
					t.Fatal(err)
				}
				res[i] = wait()
				// The dump's registers, threads and the goroutine the
				// signal interrupted differ from run to run; its head
				// and main's place do not.
				for _, want := range []string{"SIGABRT: abort\nPC=", "main.main()"} {
					if !strings.Contains(res[i].Stderr, want) {
						t.Errorf("%s: standard error lacks %q:\n%s", bin, want, res[i].Stderr)
					}
				}
				res[i].Stderr = ""
			}
			if diff := cmp.Diff(res[0], res[1]); diff != "" {
				t.Errorf("-stdout build differs from the plain build (-plain +stdout):\n%s", diff)
			}
		})
	}
}

// TestCrashSignalStuck: SIGTERM while the only P runs a loop without a
// preemption point (GOMAXPROCS=1, GODEBUG=asyncpreemptoff=1), where the
// goroutine that flushes cannot run until the death's wait preempts the
// loop: the program keeps its lines and dies of the signal, without
// waiting for the flush's one-second limit. Without the buffer it dies in
// a few milliseconds; the limit is a floor of one second when the wait
// is not cut short, so a death under half a second in one of three runs
// tells them apart on a loaded machine.
func TestCrashSignalStuck(t *testing.T) {
	plain, buffered := crashPrograms(t)
	env := []string{"GOMAXPROCS=1", "GODEBUG=asyncpreemptoff=1"}
	run := func(bin string) (crashed, time.Duration) {
		cmd, errPipe, wait := launchEnv(t, bin, toFile, false, env, "spin")
		awaitReady(t, errPipe)
		start := time.Now()
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		c := wait()
		return c, time.Since(start)
	}
	want, _ := run(plain)
	var took []time.Duration
	for range 3 {
		got, d := run(buffered)
		took = append(took, d)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("-stdout build differs from the plain build (-plain +stdout):\n%s", diff)
		}
		if d < 500*time.Millisecond {
			return
		}
	}
	t.Errorf("the -stdout build took %v from SIGTERM to its death, want under 500ms once", took)
}

// TestCrashRawFork: a fork made with a raw system call, which the
// syscall package's hooks do not see, copies the buffer into the child,
// which writes its bytes again when it exits through Go, as docs/stdout.md
// says (C's fork copies a FILE's buffer alike). With the bound off, the
// lines before the fork come out twice.
func TestCrashRawFork(t *testing.T) {
	plain, buffered := crashPrograms(t)
	want := runCrash(t, plain, toFile, false, "raw-fork")
	before, after, ok := strings.Cut(want.Stdout, "parent after")
	if !ok {
		t.Fatalf("the plain build's output lacks the parent's last line: %+v", want)
	}
	want.Stdout = before + before + "parent after" + after
	got := runCrash(t, buffered, toFile, false, "raw-fork")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-stdout build (-want +got):\n%s", diff)
	}
}

// raceEnd checks that c ended in one of a self-signalled return's two
// ends, death by SIGTERM or status 0, and returns it with the end left out.
func raceEnd(t *testing.T, c crashed) crashed {
	t.Helper()
	if !(c.Status == 0 && c.Signal == "" || c.Signal == syscall.SIGTERM.String()) {
		t.Errorf("status %d, signal %q: want status 0 or death by SIGTERM", c.Status, c.Signal)
	}
	c.Status, c.Signal = 0, ""
	return c
}

// TestCrashDescriptors: standard output replaced with syscall.Dup2, Dup3
// or Close and Dup keeps what was printed before; the rest goes to the
// new file, as in the plain build.
func TestCrashDescriptors(t *testing.T) {
	plain, buffered := crashPrograms(t)
	for _, c := range []string{"dup2", "dup3", "close-dup"} {
		for _, s := range []sink{toFile, toPipe, toPty} {
			t.Run(c+"/"+string(s), func(t *testing.T) {
				var res [2]crashed
				for i, bin := range []string{plain, buffered} {
					side := filepath.Join(t.TempDir(), "side")
					res[i] = runCrash(t, bin, s, false, c, side)
					b, err := os.ReadFile(side)
					if err != nil {
						t.Fatal(err)
					}
					res[i].Stdout += "--- side file:\n" + string(b)
				}
				if diff := cmp.Diff(res[0], res[1]); diff != "" {
					t.Errorf("-stdout build differs from the plain build (-plain +stdout):\n%s", diff)
				}
			})
		}
	}
}

// TestCrashHelpers: awaitReady returns what came before the ready line,
// and normalized takes out what differs between two runs.
func TestCrashHelpers(t *testing.T) {
	r := bufio.NewReader(strings.NewReader("something\nready\nafter\n"))
	if got := awaitReady(t, r); got != "something\n" {
		t.Errorf("awaitReady returned %q, want the line before ready", got)
	}
	c := normalized(crashed{Stderr: "goroutine 17 [running]:\n\tmain.go:3 +0x1f\n\t/go/src/log/log.go:451\n2026/12/01 10:00:00 x"})
	if diff := cmp.Diff("X [running]:\n\tmain.go:3 X\n\tXlog/log.go:451\nX x", c.Stderr); diff != "" {
		t.Errorf("normalized (-want +got):\n%s", diff)
	}
}
