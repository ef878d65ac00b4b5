//go:build linux

package winetest_test

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stdiobuf/stdiobuf/internal/winetest"
)

// The -files tests under wine: internal/osstdout's testdata/files built
// for windows/amd64 plainly and with `stdiobuf build -files`, its cases
// run under wine on a file of the test's and compared, and the system
// calls wine makes on that file counted under strace.

// filesInput is what the reading cases read: 3000 integers of 6 digits,
// one a line, as internal/osstdout's tests give them.
func filesInput() string {
	var b strings.Builder
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "%d\n", 100000+i*7919%900000)
	}
	return b.String()
}

// filesRun is what one case did: the file after it, its standard output
// (the file's Windows name as FILE) and its exit status.
type filesRun struct {
	File, Stdout string
	Status       int
}

// runFilesCase runs exe's case c on a file holding filesInput, which is
// also its standard input; with trace, under strace, tracing calls into
// the file trace.
func runFilesCase(t *testing.T, w *winetest.Wine, exe string, c []string, trace, calls string) filesRun {
	t.Helper()
	return runFilesCaseAgain(t, w, exe, c, trace, calls, false)
}

// wineFailed reports whether stderr, a run's standard error, says wine
// itself failed to run the program: nothing at all, or wine's client
// error.
func wineFailed(stderr string) bool {
	return stderr == "" || strings.HasPrefix(stderr, "wine client error")
}

// runFilesCaseAgain is runFilesCase; again: this is the run after one
// that wine failed silently.
func runFilesCaseAgain(t *testing.T, w *winetest.Wine, exe string, c []string, trace, calls string, again bool) filesRun {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "file")
	if err := os.WriteFile(path, []byte(filesInput()), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	name := winPath(path)
	cmd := w.Command(exe, append([]string{c[0], name}, c[1:]...)...)
	if trace != "" {
		strace, err := exec.LookPath("strace")
		if err != nil {
			t.Skip("needs strace to count system calls")
		}
		cmd.Args = append([]string{strace, "-f", "-qq", "-y", "-e", "trace=" + calls, "-o", trace}, cmd.Args...)
		cmd.Path = strace
	}
	cmd.Env = append(cmd.Env, "STDIOBUF_MAXDELAY=none")
	cmd.Stdin = in
	stdout, stderr := outFile(t, "stdout"), stderrFile(t)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	status, err := winetest.ExitCode(cmd.Run())
	if err != nil {
		t.Fatalf("%s: %v\nstderr: %s", strings.Join(cmd.Args, " "), err, readBack(t, stderr))
	}
	if status != 0 && wineFailed(readBack(t, stderr)) && trace == "" && !again {
		// The program did not run: wine lost its server ("wine client
		// error:0: recvmsg: Connection reset by peer", as a server that
		// exits as a client connects leaves it) or failed silently,
		// which no failure of the program does. Both have been seen on
		// a loaded machine; the case runs once more, on a new copy of
		// the input.
		t.Logf("%s: status %d, wine's failure (%q); running it again", strings.Join(cmd.Args, " "), status, readBack(t, stderr))
		return runFilesCaseAgain(t, w, exe, c, trace, calls, true)
	}
	if status != 0 {
		t.Logf("%s: status %d\nstderr: %s", strings.Join(cmd.Args, " "), status, readBack(t, stderr))
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return filesRun{File: string(b), Stdout: strings.ReplaceAll(readBack(t, stdout), name, "FILE"), Status: status}
}

// TestFilesSameAsPlain runs, under wine, the cases of testdata/files
// that Windows has (writes through fmt.Fprintf, log and encoders, to a
// file opened with O_SYNC too; Stat and a read back through another
// *File; a panic; a nil *File; Seek, ReadAt and a raw offset after small
// reads; files open for reading and writing; fmt.Scan, fmt.Fscan,
// binary.Read, one-byte reads and reads of other sizes; goroutines
// reading one *File; allocations of a Read and a Write) with the plain
// build and the -files build, and compares the file, the output and the
// exit status.
func TestFilesSameAsPlain(t *testing.T) {
	w := winetest.ForTest(t)
	programs(t)
	for _, c := range [][]string{
		{"fprintf"}, {"syncfill"}, {"log"}, {"gob"}, {"json"}, {"stat"},
		{"reread"}, {"panic"}, {"nilfile"}, {"coherent"}, {"seek"},
		{"rdwr"}, {"rdwrscan"}, {"rdwrfill"}, {"fscan"}, {"binread"},
		{"sizes", "1000"}, {"sizes", "5000"}, {"scan"}, {"bytes"},
		{"concurrent"}, {"allocs"},
	} {
		t.Run(strings.Join(c, "-"), func(t *testing.T) {
			want := runFilesCase(t, w, filesPlainExe, c, "", "")
			got := runFilesCase(t, w, filesFilesExe, c, "", "")
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("-files against the plain build (-plain +files):\n%s", diff)
			}
		})
	}
}

// TestFilesCallCount counts, under strace, the system calls wine makes
// on the case's file for the program's writes and reads: the Fprintf
// loop's 2000 lines and fmt.Fscan's 21000 one-byte reads go out in one
// call per buffer with -files, one per line or byte plainly; a file
// opened with O_SYNC (FILE_FLAG_WRITE_THROUGH) stays plain.
func TestFilesCallCount(t *testing.T) {
	w := winetest.ForTest(t)
	programs(t)
	for _, c := range []struct {
		name, calls string
		atLeast     int  // the plain build's calls, at least
		buffered    bool // -files makes at most 20
	}{
		{"fprintf", "write,pwrite64", 2000, true},
		{"fscan", "read,pread64", 21000, true},
		{"syncfill", "write,pwrite64", 2000, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			count := func(exe string) int {
				trace := filepath.Join(t.TempDir(), "trace")
				runFilesCase(t, w, exe, []string{c.name}, trace, c.calls)
				b, err := os.ReadFile(trace)
				if err != nil {
					t.Fatal(err)
				}
				// A call on the test's file: `pwrite64(5</tmp/.../file>, ...`.
				re := regexp.MustCompile(`(?m)^\d+ +(?:` + strings.ReplaceAll(c.calls, ",", "|") + `)\(\d+</[^>]*/file>`)
				return len(re.FindAllIndex(b, -1))
			}
			p, f := count(filesPlainExe), count(filesFilesExe)
			t.Logf("calls on the file: plain %d, -files %d", p, f)
			switch {
			case p < c.atLeast:
				t.Errorf("plain build: %d calls on the file, want at least %d", p, c.atLeast)
			case c.buffered && f > 20:
				t.Errorf("-files build: %d calls on the file, want at most 20 (plain: %d)", f, p)
			case !c.buffered && f != p:
				t.Errorf("-files build: %d calls on the file, want the plain build's %d", f, p)
			}
		})
	}
}

// TestFilesPeerSeesFile runs, under wine, the cases that write the file
// and then tell a peer "done" (on a TCP connection, and on standard
// error, a pipe) before they sleep: when the test hears "done", the
// file must hold what the plain build's holds then, every line.
func TestFilesPeerSeesFile(t *testing.T) {
	w := winetest.ForTest(t)
	programs(t)
	for _, c := range []string{"socket", "done"} {
		t.Run(c, func(t *testing.T) {
			want := fileAtDone(t, w, filesPlainExe, c)
			if want == "" {
				t.Fatal("the plain build's file is empty at done")
			}
			if got := fileAtDone(t, w, filesFilesExe, c); got != want {
				t.Errorf("-files build's file at done: %d bytes, want the plain build's %d", len(got), len(want))
			}
		})
	}
}

// fileAtDone runs exe's case c, waits for its "done" (on a connection
// to a listener of the test for "socket", else on standard error), and
// returns the file as it is then; the program is killed after.
func fileAtDone(t *testing.T, w *winetest.Wine, exe, c string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "file")
	args := []string{c, winPath(path)}
	var ln net.Listener
	if c == "socket" {
		var err error
		if ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		args = append(args, ln.Addr().String())
	}
	cmd := w.Command(exe, args...)
	cmd.Env = append(cmd.Env, "STDIOBUF_MAXDELAY=none")
	errR, errW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer errR.Close()
	cmd.Stderr = errW
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	errW.Close()
	defer cmd.Wait()
	defer cmd.Process.Kill()
	errR.SetDeadline(time.Now().Add(3 * time.Minute))
	if ln != nil {
		defer acceptDone(t, ln, nil).Close()
	} else if line, err := bufio.NewReader(errR).ReadString('\n'); err != nil || line != "done\n" {
		t.Fatalf("the program said %q, %v", line, err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
