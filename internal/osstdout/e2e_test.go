//go:build linux

package osstdout_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/internal/ptytest"
)

// The tests build testdata/prog twice, plainly and with the -stdout
// overlay, run each case with standard output to a file, a pipe, /dev/null
// and a pseudo-terminal, and compare.

var (
	buildOnce sync.Once
	buildErr  error
	plainBin  string // testdata/prog built plainly
	stdoutBin string // testdata/prog built with `stdiobuf build -stdout`
	raceBin   string // the same with -race
	plainOv   string // `stdiobuf overlay`, without -stdout
	stdoutOv  string // `stdiobuf overlay -stdout`
	binDir    string
)

// buildTool builds cmd/stdiobuf from this module's source into dir and
// returns its path.
func buildTool(dir string) (string, error) {
	tool := filepath.Join(dir, "stdiobuf")
	if out, err := exec.Command("go", "build", "-o", tool, "../../cmd/stdiobuf").CombinedOutput(); err != nil {
		return "", fmt.Errorf("building cmd/stdiobuf: %v\n%s", err, out)
	}
	return tool, nil
}

// skipShort skips a test that builds the standard library with an
// overlay under -short.
func skipShort(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the standard library with an overlay: skipped with -short")
	}
}

// overlayPaths are `stdiobuf overlay -stdout` and `stdiobuf overlay`, run
// from this module's source.
func overlayPaths(dir string) (stdout, plain string, err error) {
	tool, err := buildTool(dir)
	if err != nil {
		return "", "", err
	}
	var paths []string
	for _, args := range [][]string{{"overlay", "-stdout"}, {"overlay"}} {
		out, err := exec.Command(tool, args...).Output()
		if err != nil {
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				return "", "", fmt.Errorf("stdiobuf %s: %v\n%s", strings.Join(args, " "), err, ee.Stderr)
			}
			return "", "", err
		}
		paths = append(paths, strings.TrimSpace(string(out)))
	}
	return paths[0], paths[1], nil
}

func programs(t *testing.T) (plain, buffered string) {
	t.Helper()
	skipShort(t)
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "osstdout-e2e-")
		if buildErr != nil {
			return
		}
		var ov string
		ov, plainOv, buildErr = overlayPaths(binDir)
		if buildErr != nil {
			return
		}
		stdoutOv = ov
		plainBin = filepath.Join(binDir, "prog-plain")
		stdoutBin = filepath.Join(binDir, "prog-stdout")
		raceBin = filepath.Join(binDir, "prog-race")
		builds := []struct {
			out, overlay string
			race         bool
		}{{plainBin, "", false}, {stdoutBin, ov, false}, {raceBin, ov, true}}
		for _, b := range builds {
			var flags []string
			if b.race {
				flags = append(flags, "-race")
			}
			if buildErr = goBuild("build", b.out, b.overlay, "./testdata/prog", flags...); buildErr != nil {
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return plainBin, stdoutBin
}

// goBuild runs `go verb -o out [-overlay=overlay] flags pkg` (verb build,
// or test with flag -c) and returns its output in the error if it fails.
func goBuild(verb, out, overlay, pkg string, flags ...string) error {
	args := append([]string{verb, "-o", out}, flags...)
	if overlay != "" {
		args = append(args, "-overlay="+overlay)
	}
	args = append(args, pkg)
	if b, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		return fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	return nil
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, dir := range []string{binDir, crashDir, filesBuild.dir, reportBuild.dir, pathsBuild.dir, zoneBuild.dir} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	os.Exit(code)
}

// result is what one run of a program showed.
type result struct {
	Stdout string
	Stderr string
	Status int
}

// sink is where a run's standard output goes.
type sink string

const (
	toFile    sink = "file"
	toPipe    sink = "pipe"
	toDevNull sink = "devnull"
	toPty     sink = "pty"
)

// run runs bin with args, standard output to s (standard error to a pipe
// unless merged, when it goes where standard output goes), and returns
// what came out.
func run(t *testing.T, bin string, s sink, merged bool, args ...string) result {
	t.Helper()
	return runEnv(t, bin, s, merged, nil, args...)
}

// runEnv is run with env ("NAME=value") added to the environment.
func runEnv(t *testing.T, bin string, s sink, merged bool, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var errBuf bytes.Buffer
	cmd.Stderr = &errBuf
	var read func() []byte
	switch s {
	case toFile, toDevNull:
		name := os.DevNull
		if s == toFile {
			name = filepath.Join(t.TempDir(), "out")
		}
		f, err := os.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdout = f
		read = func() []byte {
			if s == toDevNull {
				return nil
			}
			b, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
	case toPipe:
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		cmd.Stdout = w
		var got []byte
		done := make(chan struct{})
		go func() {
			defer close(done)
			var b bytes.Buffer
			b.ReadFrom(r)
			got = b.Bytes()
		}()
		defer w.Close()
		read = func() []byte { w.Close(); <-done; return got }
	case toPty:
		master, slave := ptytest.Open(t, 30*time.Second)
		cmd.Stdout = slave
		var got []byte
		var rerr error
		done := make(chan struct{})
		go func() { defer close(done); got, rerr = ptytest.ReadAll(master) }()
		read = func() []byte {
			slave.Close()
			<-done
			if rerr != nil {
				t.Fatalf("reading the terminal: %v", rerr)
			}
			return got
		}
	}
	if merged {
		cmd.Stderr = cmd.Stdout
	}
	status := exitStatus(t, cmd.Run())
	return result{Stdout: string(read()), Stderr: errBuf.String(), Status: status}
}

// exitStatus is the exit status of a program that ran with err, -1 if a
// signal ended it; it fails the test if the program did not run.
func exitStatus(t *testing.T, err error) int {
	t.Helper()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}

// TestSameOutput: every exit path that runs exit hooks, a child writing
// to the same descriptor, a raw write after Fd, io.Copy into os.Stdout, a
// bufio.Reader's WriteTo into a bufio.Writer over it (a kernel copy),
// standard error merged into standard output, Close, Stat and Seek (which
// see the bytes printed before them), a log.Logger on os.Stdout, and
// writes through another *File on the same file (os.NewFile(1, ...),
// /dev/stdout, /proc/self/fd/1) deliver every byte in the order of the
// plain build, wherever standard output goes.
func TestSameOutput(t *testing.T) {
	plain, buffered := programs(t)
	data := filepath.Join(t.TempDir(), "data")
	if err := os.WriteFile(data, bytes.Repeat([]byte("copied line\n"), 50000), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		args   []string
		merged bool // 2>&1
	}{
		{"return", []string{"return"}, false},
		{"exit0", []string{"exit0"}, false},
		{"exit3", []string{"exit3"}, false},
		{"log.Fatal", []string{"fatal"}, true},
		{"child", []string{"child"}, false},
		{"fd", []string{"fd"}, false},
		{"copy", []string{"copy", data}, false},
		{"bufio copy", []string{"bufiocopy", data}, false},
		{"stderr 2>&1", []string{"stderr"}, true},
		{"close", []string{"close"}, false},
		{"Stat and Seek", []string{"stat"}, false},
		{"log.Logger", []string{"log"}, false},
		{"io.Copy into stderr 2>&1", []string{"copyerr", data}, true},
		{"os.NewFile(1)", []string{"newfile"}, false},
		{"dev-stdout after Flush", []string{"devstdout"}, false},
		{"proc-self-fd-1 after Flush", []string{"procfd1"}, false},
	}
	for _, c := range cases {
		for _, s := range []sink{toFile, toPipe, toDevNull, toPty} {
			t.Run(c.name+"/"+string(s), func(t *testing.T) {
				want := run(t, plain, s, c.merged, c.args...)
				got := run(t, buffered, s, c.merged, c.args...)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("-stdout build differs from the plain build (-plain +stdout):\n%s", diff)
				}
			})
		}
	}
}

// TestGoroutines: Writes from many goroutines are never mixed inside one
// Write call.
func TestGoroutines(t *testing.T) {
	_, buffered := programs(t)
	for _, s := range []sink{toFile, toPipe} {
		got := run(t, buffered, s, false, "goroutines")
		counts := map[string]int{}
		for _, line := range strings.SplitAfter(got.Stdout, "\n") {
			if line == "" {
				continue
			}
			if !regexp.MustCompile(`^(a+|b+|c+|d+|e+|f+|g+|h+)\n$`).MatchString(line) || len(line) != 51+int(line[0]-'a') {
				t.Fatalf("%s: a line was mixed: %q", s, line)
			}
			counts[line[:1]]++
		}
		want := map[string]int{"a": 500, "b": 500, "c": 500, "d": 500, "e": 500, "f": 500, "g": 500, "h": 500}
		if diff := cmp.Diff(want, counts); diff != "" {
			t.Errorf("%s: lines per goroutine (-want +got):\n%s", s, diff)
		}
	}
}

// TestRace: the race detector finds nothing in a -stdout program writing
// from many goroutines (it exits 66 when it does).
func TestRace(t *testing.T) {
	programs(t)
	for _, s := range []sink{toFile, toPipe} {
		got := run(t, raceBin, s, false, "goroutines")
		if got.Status != 0 || got.Stderr != "" || len(got.Stdout) != 8*500*51+500*(0+1+2+3+4+5+6+7) {
			t.Errorf("%s: status %d, %d bytes out, stderr:\n%s", s, got.Status, len(got.Stdout), got.Stderr)
		}
	}
}

// TestWithoutStdout: the overlay made without -stdout changes bufio alone;
// package os is the toolchain's.
func TestWithoutStdout(t *testing.T) {
	programs(t)
	b, err := os.ReadFile(plainOv)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), string(filepath.Separator)+filepath.Join("src", "os")+string(filepath.Separator)) {
		t.Errorf("the overlay without -stdout replaces files of package os:\n%s", b)
	}
}

// TestReplacedStdout: a program that assigns another file to os.Stdout
// writes to it unbuffered, and the original standard output keeps its
// order around it.
func TestReplacedStdout(t *testing.T) {
	plain, buffered := programs(t)
	for _, bin := range []string{plain, buffered} {
		side := filepath.Join(t.TempDir(), "side")
		got := run(t, bin, toPipe, false, "replace", side)
		b, err := os.ReadFile(side)
		if err != nil {
			t.Fatal(err)
		}
		want := result{Stdout: "original 0\noriginal 1\noriginal 2\noriginal 3\noriginal 4\nrestored 0\nrestored 1\nrestored 2\nrestored 3\nrestored 4\n"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: standard output (-want +got):\n%s", filepath.Base(bin), diff)
		}
		if want := "replaced 0\nreplaced 1\nreplaced 2\nreplaced 3\nreplaced 4\n"; string(b) != want {
			t.Errorf("%s: the replacement file has %q, want %q", filepath.Base(bin), b, want)
		}
	}
}

// TestPrompt: on a terminal, a prompt without a newline shows before the
// program waits for its answer, as glibc flushes a line-buffered stdout
// before a read of stdin.
func TestPrompt(t *testing.T) {
	_, buffered := programs(t)
	master, slave := ptytest.Open(t, 30*time.Second)
	cmd := exec.Command(buffered, "prompt")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// If the prompt never comes, the program is still waiting for its
	// answer: end it with the test.
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	// The program blocks in its read until the answer is typed, so
	// the prompt can only arrive here if it was flushed first.
	ptytest.Expect(t, master, "name? ")
	if _, err := master.Write([]byte("gopher\n")); err != nil {
		t.Fatal(err)
	}
	ptytest.Expect(t, master, "hello, gopher\n")
}

// TestCoprocess: a program answering questions over two pipes shows each
// answer before it waits for the next question, where glibc's rule (flush
// only a line-buffered stdout) would leave both sides waiting.
func TestCoprocess(t *testing.T) {
	_, buffered := programs(t)
	cmd := exec.Command(buffered, "echo")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd.Stdout = w
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	// A deadline, so that an answer left in the buffer fails the test
	// instead of hanging it.
	r.SetReadDeadline(time.Now().Add(30 * time.Second))
	br := bufio.NewReader(r)
	for _, q := range []string{"one", "two", "three"} {
		if _, err := io.WriteString(in, q+"\n"); err != nil {
			t.Fatal(err)
		}
		got, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("waiting for the answer to %q: %v", q, err)
		}
		if want := "got " + q + "\n"; got != want {
			t.Fatalf("answer %q, want %q", got, want)
		}
	}
	in.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
}

// TestRawPrompt: on a terminal, a prompt shows before a raw read of
// standard input's descriptor (Fd, as term.ReadPassword reads).
func TestRawPrompt(t *testing.T) {
	_, buffered := programs(t)
	master, slave := ptytest.Open(t, 30*time.Second)
	cmd := exec.Command(buffered, "rawprompt")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	ptytest.Expect(t, master, "Password: ")
	if _, err := master.Write([]byte("secret\n")); err != nil {
		t.Fatal(err)
	}
	ptytest.Expect(t, master, "read \"secret\\n\"\n")
}

// TestExitWhileWriterStuck: os.Exit returns to the system even while
// another goroutine is blocked writing to a pipe nobody reads, as in the
// plain build; what is buffered then is lost.
func TestExitWhileWriterStuck(t *testing.T) {
	plain, buffered := programs(t)
	for _, bin := range []string{plain, buffered} {
		// A guard against a hang, not a timing: exit takes about a
		// second at most.
		_, err, hung := runUnread(t, bin, "exithang", 60*time.Second)
		var ee *exec.ExitError
		if hung {
			t.Errorf("%s: os.Exit did not return to the system while a writer was stuck", filepath.Base(bin))
		} else if !errors.As(err, &ee) || ee.ExitCode() != 3 {
			t.Errorf("%s: %v, want exit status 3", filepath.Base(bin), err)
		}
	}
}

// runUnread runs bin with arg, its standard output a pipe nobody reads,
// for d at most, and returns what it wrote to standard error, how it
// ended, and whether it was killed at d instead.
func runUnread(t *testing.T, bin, arg string, d time.Duration) (stderr string, err error, hung bool) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command(bin, arg)
	var errBuf bytes.Buffer
	cmd.Stdout, cmd.Stderr = w, &errBuf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(d):
		cmd.Process.Kill()
		err, hung = <-done, true
	}
	return errBuf.String(), err, hung
}

// TestPanic: an unrecovered panic runs no exit hooks, but the runtime's
// hook flushes standard output before the panic's message (crash_test.go
// checks the other ways a program ends).
func TestPanic(t *testing.T) {
	plain, buffered := programs(t)
	var lines strings.Builder
	for i := range 10 {
		fmt.Fprintf(&lines, "panic %d\n", i)
	}
	for _, s := range []sink{toFile, toPipe, toPty} {
		p := run(t, plain, s, false, "panic")
		b := run(t, buffered, s, false, "panic")
		if p.Stdout != lines.String() {
			t.Errorf("%s: the plain build printed %q", s, p.Stdout)
		}
		if b.Stdout != lines.String() {
			t.Errorf("%s: the -stdout build printed %q before its panic, want %q", s, b.Stdout, lines.String())
		}
		if b.Status != 2 || !strings.Contains(b.Stderr, "panic: boom") {
			t.Errorf("%s: status %d, stderr %q; want 2 and the panic message", s, b.Status, b.Stderr)
		}
	}
}

// writeCalls counts write(2) calls on descriptor 1 in an strace log.
func writeCalls(log string) int {
	return len(regexp.MustCompile(`(?m)\bwrite\(1,`).FindAllString(log, -1))
}

// TestStdbufWriteCount: under coreutils' stdbuf the program makes as many
// write(2) calls on standard output as a C program printing the same
// lines (libstdbuf's setvbuf), counted with strace.
func TestStdbufWriteCount(t *testing.T) {
	_, buffered := programs(t)
	for _, tool := range []string{"strace", "stdbuf", "cc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s: %v", tool, err)
		}
	}
	dir := t.TempDir()
	csrc := filepath.Join(dir, "lines.c")
	cbin := filepath.Join(dir, "lines")
	// The same output as the program's "many" case: the numbers below
	// 100000, one a line.
	if err := os.WriteFile(csrc, []byte("#include <stdio.h>\nint main(void){for(int i=0;i<100000;i++)printf(\"%d\\n\",i);return 0;}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cc", "-O2", "-o", cbin, csrc).CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	count := func(args ...string) int {
		t.Helper()
		log := filepath.Join(dir, "strace.log")
		full := append([]string{"-f", "-o", log, "-e", "trace=write"}, args...)
		cmd := exec.Command("strace", full...)
		null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer null.Close()
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = null, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("strace %v: %v\n%s", args, err, stderr.Bytes())
		}
		b, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		return writeCalls(string(b))
	}
	for _, opt := range []string{"-o0", "-oL", "-o65536"} {
		c := count("stdbuf", opt, cbin)
		g := count("stdbuf", opt, buffered, "many")
		if c != g {
			t.Errorf("stdbuf %s: the C program made %d write calls, the -stdout build %d", opt, c, g)
		}
	}
	// Without stdbuf, into /dev/null (st_blksize 4096): a buffer's worth a
	// call, at least 100 times fewer calls than one a line.
	if g := count(buffered, "many"); g*100 > 100000 {
		t.Errorf("into /dev/null: %d write calls for 100000 lines", g)
	}
}

// TestEmbeddedRead: with read-ahead on, a type that embeds *os.File and
// overrides Read is read through its Read, as bufio reads it: read-ahead
// reads only a concrete *os.File, as in a build without -stdout.
func TestEmbeddedRead(t *testing.T) {
	plain, buffered := programs(t)
	data := filepath.Join(t.TempDir(), "data")
	if err := os.WriteFile(data, bytes.Repeat([]byte("a line in lower case\n"), 50000), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"STDIOBUF_POLICY=readahead:131072"}
	want := result{Stdout: "50000 lines, 50000 read through the embedding type's Read\n"}
	for _, bin := range []string{plain, buffered} {
		got := runEnv(t, bin, toFile, false, env, "embedread", data)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", filepath.Base(bin), diff)
		}
	}
}

// TestReadaheadFromFile: with read-ahead on, a concrete *os.File is read
// ahead under -stdout too (pread64 calls, seen with strace): package os
// tells the generated bufio which values are its files.
func TestReadaheadFromFile(t *testing.T) {
	_, buffered := programs(t)
	if _, err := exec.LookPath("strace"); err != nil {
		t.Skipf("needs strace: %v", err)
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if err := os.WriteFile(data, bytes.Repeat([]byte("a line in lower case\n"), 50000), 0o644); err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(dir, "strace.log")
	cmd := exec.Command("strace", "-f", "-o", log, "-e", "trace=pread64", buffered, "embedread", data, "concrete")
	cmd.Env = append(os.Environ(), "STDIOBUF_POLICY=readahead:131072")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("strace: %v", err)
	}
	if want := "50000 lines, 0 read through the embedding type's Read\n"; string(out) != want {
		t.Errorf("printed %q, want %q", out, want)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	// The runtime makes pread64 calls of its own: look for one of data.
	if !regexp.MustCompile(`pread64\(\d+, "[^"]*lower case`).Match(b) {
		t.Errorf("no pread64 call read the data: the *os.File was not read ahead\n%s", b)
	}
}
