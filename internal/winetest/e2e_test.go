//go:build linux

package winetest_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/internal/ptytest"
	"github.com/stdiobuf/stdiobuf/internal/winetest"
)

// The tests build testdata/lines for windows/amd64, plainly and with
// `stdiobuf build -stdout`, and run it under wine with standard output to
// a console (a pseudo-terminal), a file, a pipe and /dev/null (NUL to the
// program: a character device that is not a console); files_test.go does
// the same with internal/osstdout's testdata/files and -files.

var (
	buildOnce sync.Once
	buildErr  error
	binDir    string
	plainExe  string // testdata/lines built plainly
	stdoutExe string // the same with the -stdout overlay
	// internal/osstdout's testdata/files built plainly and with the
	// -files overlay.
	filesPlainExe, filesFilesExe string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// windowsEnv is the environment of a cross build for windows/amd64.
func windowsEnv() []string {
	return append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
}

func run(name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Env = windowsEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return nil
}

// programs returns the two builds of testdata/lines, built once.
func programs(t *testing.T) (plain, stdout string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the standard library for windows with an overlay: skipped with -short")
	}
	buildOnce.Do(func() {
		if binDir, buildErr = os.MkdirTemp("", "winetest-"); buildErr != nil {
			return
		}
		tool := filepath.Join(binDir, "stdiobuf")
		if out, err := exec.Command("go", "build", "-o", tool, "../../cmd/stdiobuf").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("building cmd/stdiobuf: %v\n%s", err, out)
			return
		}
		if plainExe, buildErr = buildWindows(tool, "lines.exe", "./testdata/lines"); buildErr != nil {
			return
		}
		if stdoutExe, buildErr = buildWindows(tool, "lines-stdout.exe", "./testdata/lines", "-stdout"); buildErr != nil {
			return
		}
		if filesPlainExe, buildErr = buildWindows(tool, "files.exe", "../osstdout/testdata/files"); buildErr != nil {
			return
		}
		filesFilesExe, buildErr = buildWindows(tool, "files-files.exe", "../osstdout/testdata/files", "-files")
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return plainExe, stdoutExe
}

// buildWindows builds pkg for windows/amd64 as binDir/name, plainly or,
// with flags, with the overlay `stdiobuf overlay FLAGS` (tool) makes.
func buildWindows(tool, name, pkg string, flags ...string) (string, error) {
	exe := filepath.Join(binDir, name)
	if len(flags) == 0 {
		return exe, run("go", "build", "-o", exe, pkg)
	}
	cmd := exec.Command(tool, append([]string{"overlay"}, flags...)...)
	cmd.Env = windowsEnv()
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			err = fmt.Errorf("%v\n%s", err, ee.Stderr)
		}
		return "", fmt.Errorf("stdiobuf overlay %s for windows: %v", strings.Join(flags, " "), err)
	}
	return exe, run("go", "build", "-overlay="+strings.TrimSpace(string(out)), "-o", exe, pkg)
}

// stderrFile returns a file for a wine process's standard error: a file,
// not a pipe, so that waiting for the process never waits for a wine
// helper that may hold a copy of it.
func stderrFile(t *testing.T) *os.File { return outFile(t, "stderr") }

// outFile returns a new file called name, closed when the test ends, for
// a wine process's standard output or error.
func outFile(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.Create(filepath.Join(t.TempDir(), name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// winPath is path, a file of this system, as a wine program names it:
// on drive Z:, wine's view of /.
func winPath(path string) string { return "Z:" + strings.ReplaceAll(path, "/", `\`) }

// acceptDone waits for the program's connection to ln and for the line
// "done" on it, and returns the connection; it fails the test, with the
// text of the file stderr if not nil, if either does not come.
func acceptDone(t *testing.T, ln net.Listener, stderr *os.File) net.Conn {
	t.Helper()
	ln.(*net.TCPListener).SetDeadline(time.Now().Add(3 * time.Minute))
	c, err := ln.Accept()
	if err != nil {
		said := ""
		if stderr != nil {
			said = readBack(t, stderr)
		}
		t.Fatalf("no connection from the program: %v\nstderr: %s", err, said)
	}
	c.SetDeadline(time.Now().Add(time.Minute))
	if line, err := bufio.NewReader(c).ReadString('\n'); err != nil || line != "done\n" {
		c.Close()
		t.Fatalf("the program said %q, %v", line, err)
	}
	return c
}

func readBack(t *testing.T, f *os.File) string {
	t.Helper()
	b, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// lines is the output of `lines MODE n`.
func lines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// infoRE picks the mode and size out of the program's "info:" line.
var infoRE = regexp.MustCompile(`info: fd=(-?\d+) mode=(\w+) size=(\d+)`)

// decision is what the program reported of standard output's buffering:
// "fd=1 mode=full size=8192", or "no Info" for a plain build's os.Stdout.
func decision(stderr string) string {
	if strings.Contains(stderr, "info: no Info") {
		return "no Info"
	}
	m := infoRE.FindStringSubmatch(stderr)
	if m == nil {
		return "no info line in " + strconv.Quote(stderr)
	}
	return "fd=" + m[1] + " mode=" + m[2] + " size=" + m[3]
}

// TestConsoleLines runs the program with standard output on a console and
// answers each line as it shows: a line held in a buffer never shows, the
// program waits for its answer for good, and the test fails at its
// deadline. Through a stream Writer and through the -stdout build's
// os.Stdout, a console is line buffered; the plain build's unbuffered
// os.Stdout is the reference.
func TestConsoleLines(t *testing.T) {
	w := winetest.ForTest(t)
	plain, stdout := programs(t)
	const n = 5
	tests := []struct {
		name, exe, mode string
		want            string
	}{
		{"plain build, os.Stdout", plain, "os", "no Info"},
		{"stream Writer over os.Stdout", plain, "stream", "fd=1 mode=line size=8192"},
		{"-stdout build, os.Stdout", stdout, "os", "fd=1 mode=line size=8192"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			master, slave := ptytest.Open(t, 3*time.Minute)
			acks := t.TempDir()
			stderr := stderrFile(t)
			cmd := w.Command(tt.exe, tt.mode, strconv.Itoa(n), acks)
			cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			slave.Close()
			var shown bytes.Buffer
			buf := make([]byte, 4096)
			for i := 1; i <= n; i++ {
				want := fmt.Sprintf("line %d\r", i)
				for !bytes.Contains(shown.Bytes(), []byte(want)) {
					m, err := master.Read(buf)
					shown.Write(buf[:m])
					if err != nil {
						cmd.Process.Kill()
						cmd.Wait()
						t.Fatalf("line %d never reached the console, where the program waits for an answer to it: %v\nthe console showed %q\nstandard error: %q", i, err, shown.String(), readBack(t, stderr))
					}
				}
				if err := os.WriteFile(filepath.Join(acks, "ack-"+strconv.Itoa(i)), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			rest, err := ptytest.ReadAll(master)
			shown.Write(rest)
			if err != nil {
				t.Errorf("reading the console after the last line: %v", err)
			}
			if err := cmd.Wait(); err != nil {
				t.Fatalf("%v\nstandard error: %q", err, readBack(t, stderr))
			}
			if got := decision(readBack(t, stderr)); got != tt.want {
				t.Errorf("standard output's buffering: %s, want %s", got, tt.want)
			}
		})
	}
}

// TestFilePipeNull runs the program with standard output to a file, a
// pipe and /dev/null: each is fully buffered with BUFSIZ (Windows gives no
// block size) and gets every line; /dev/null, a character device to the
// program as NUL is, is not taken for a console.
func TestFilePipeNull(t *testing.T) {
	w := winetest.ForTest(t)
	plain, stdout := programs(t)
	const n = 5
	builds := []struct {
		name, exe, mode string
		want            string
	}{
		{"plain build, os.Stdout", plain, "os", "no Info"},
		{"stream Writer over os.Stdout", plain, "stream", "fd=1 mode=full size=8192"},
		{"-stdout build, os.Stdout", stdout, "os", "fd=1 mode=full size=8192"},
	}
	sinks := []struct {
		name string
		run  func(t *testing.T, cmd *exec.Cmd) (stdout string)
	}{
		{"file", func(t *testing.T, cmd *exec.Cmd) string {
			f, err := os.Create(filepath.Join(t.TempDir(), "stdout"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cmd.Stdout = f
			if err := cmd.Run(); err != nil {
				t.Fatal(err)
			}
			return readBack(t, f)
		}},
		{"pipe", func(t *testing.T, cmd *exec.Cmd) string {
			r, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			cmd.Stdout = pw
			err = cmd.Start()
			pw.Close()
			if err != nil {
				t.Fatal(err)
			}
			r.SetDeadline(time.Now().Add(3 * time.Minute))
			var got bytes.Buffer
			_, rerr := got.ReadFrom(r)
			if err := cmd.Wait(); err != nil {
				t.Fatal(err)
			}
			if rerr != nil {
				t.Fatalf("reading the pipe: %v", rerr)
			}
			return got.String()
		}},
		{"/dev/null", func(t *testing.T, cmd *exec.Cmd) string {
			null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer null.Close()
			cmd.Stdout = null
			if err := cmd.Run(); err != nil {
				t.Fatal(err)
			}
			return lines(n) // what it wrote is gone; the decision is what counts
		}},
	}
	for _, b := range builds {
		for _, s := range sinks {
			t.Run(b.name+" to "+s.name, func(t *testing.T) {
				stderr := stderrFile(t)
				cmd := w.Command(b.exe, b.mode, strconv.Itoa(n), "-")
				cmd.Stderr = stderr
				got := s.run(t, cmd)
				if diff := cmp.Diff(lines(n), got); diff != "" {
					t.Errorf("standard output -want +got:\n%s", diff)
				}
				if got := decision(readBack(t, stderr)); got != b.want {
					t.Errorf("standard output's buffering: %s, want %s", got, b.want)
				}
			})
		}
	}
}

// TestPeerHearsAfterOutput runs the program with standard output to a
// file, which -stdout buffers fully: it prints lines, then says "done"
// on a TCP connection to the test. When "done" arrives the lines must be
// in the file, as in the plain build: a write to a socket is a point
// where the program tells a peer, before which standard output is
// written out (internal/poll's Windows FD methods carry the hook).
func TestPeerHearsAfterOutput(t *testing.T) {
	w := winetest.ForTest(t)
	plain, stdout := programs(t)
	const n = 5
	for _, b := range []struct{ name, exe string }{{"plain build", plain}, {"-stdout build", stdout}} {
		t.Run(b.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			out, stderr := outFile(t, "stdout"), stderrFile(t)
			cmd := w.Command(b.exe, "socket", strconv.Itoa(n), ln.Addr().String())
			cmd.Stdout, cmd.Stderr = out, stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Wait()
			c := acceptDone(t, ln, stderr)
			got := readBack(t, out)
			c.Close()
			if diff := cmp.Diff(lines(n), got); diff != "" {
				t.Errorf("standard output when the peer heard \"done\" (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCtrlCWritesOut runs the program with a pseudo-terminal as its
// console and standard output a file, which -stdout buffers fully: it
// prints lines, then sends its console a Ctrl-C it does not handle, and
// Windows' default handler ends it. The lines must be in the file, as in
// the plain build: the runtime's console control handler writes out
// what os buffers before it declines the event.
func TestCtrlCWritesOut(t *testing.T) {
	w := winetest.ForTest(t)
	plain, stdout := programs(t)
	const n = 5
	for _, b := range []struct{ name, exe string }{{"plain build", plain}, {"-stdout build", stdout}} {
		t.Run(b.name, func(t *testing.T) {
			// A run in which wine did not bring the program as far as its
			// Ctrl-C says nothing of the build; it is tried once more.
			r := runCtrlC(t, w, b.exe, n)
			if !strings.Contains(r.stderr, ctrlCMark) {
				t.Logf("the program did not reach its Ctrl-C; running it again\n%s", r)
				r = runCtrlC(t, w, b.exe, n)
			}
			if !strings.Contains(r.stderr, ctrlCMark) {
				t.Fatalf("the program did not reach its Ctrl-C\n%s", r)
			}
			if strings.Contains(r.stderr, "still running") {
				t.Fatalf("the program was not ended by its Ctrl-C\n%s", r)
			}
			if diff := cmp.Diff(lines(n), r.stdout); diff != "" {
				t.Errorf("standard output after the Ctrl-C (-want +got):\n%s\n%s", diff, r)
			}
		})
	}
}

// ctrlCMark is what the program says on standard error just before it
// sends its Ctrl-C (testdata/lines).
const ctrlCMark = "lines: sending Ctrl-C"

// ctrlCRun is what one run of `lines ctrlc` left.
type ctrlCRun struct {
	stdout, stderr, console string
	err                     error
}

func (r ctrlCRun) String() string {
	return fmt.Sprintf("exit: %v\nstderr: %q\nconsole: %q", r.err, r.stderr, r.console)
}

// runCtrlC runs `lines ctrlc n -` with a new pseudo-terminal as its
// controlling terminal, as a shell's is (wine makes it the console the
// event goes to), and standard output and error files.
func runCtrlC(t *testing.T, w *winetest.Wine, exe string, n int) ctrlCRun {
	t.Helper()
	master, slave := ptytest.Open(t, 3*time.Minute)
	out, stderr := outFile(t, "stdout"), stderrFile(t)
	cmd := w.Command(exe, "ctrlc", strconv.Itoa(n), "-")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, out, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	shown := make(chan []byte, 1)
	go func() {
		b, _ := ptytest.ReadAll(master)
		shown <- b
	}()
	werr := cmd.Wait()
	master.Close()
	console := <-shown
	return ctrlCRun{stdout: readBack(t, out), stderr: readBack(t, stderr), console: string(console), err: werr}
}
