//go:build linux

package osstdout_test

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"
)

// fileCalls are the system calls on files an strace count compares:
// the runtime's own (futex, nanosleep, the preemption signals, pread64
// of the cgroup's CPU limit) vary from run to run.
var fileCalls = []string{"read", "write", "pwrite64", "openat", "close", "fstat", "newfstatat", "statx", "fcntl", "fstatfs", "statfs", "lseek", "ioctl", "tee", "pipe2", "getdents64", "ftruncate"}

// straceFileCalls runs bin with args under strace -f -c, standard input
// stdin (/dev/null if nil), and returns the count of each of fileCalls.
func straceFileCalls(t *testing.T, stdin *os.File, bin string, args ...string) map[string]int {
	t.Helper()
	all := straceCounts(t, stdin, nil, bin, args...)
	calls := map[string]int{}
	for _, name := range fileCalls {
		if all[name] > 0 {
			calls[name] = all[name]
		}
	}
	return calls
}

// fullPipe returns the read end of a pipe that holds input whole, its
// write end closed: every read(2) of it returns what was asked for until
// the end, whatever the timing, so that two runs make the same calls.
func fullPipe(t *testing.T, input []byte) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	if _, err := unix.FcntlInt(w.Fd(), unix.F_SETPIPE_SZ, len(input)); err != nil {
		t.Skipf("cannot make a pipe of %d bytes: %v", len(input), err)
	}
	if _, err := w.Write(input); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestFilesPipeBlocksCalls: a program that reads standard input, a pipe,
// in blocks of a buffer's size or more makes exactly the plain build's
// system calls on files under -files: no fstat, fcntl or tee(2) of a
// decision its Reads never ask for.
func TestFilesPipeBlocksCalls(t *testing.T) {
	plain, files := pathsPrograms(t)
	input := []byte(strings.Repeat("a line of the pipe's input, 40 bytes..\n", 512<<10/40))
	for _, size := range []int{64 << 10, 128 << 10} {
		t.Run(strconv.Itoa(size), func(t *testing.T) {
			var calls [2]map[string]int
			for i, bin := range []string{plain, files} {
				calls[i] = straceFileCalls(t, fullPipe(t, input), bin, "pipeblocks", "-", strconv.Itoa(size))
			}
			if calls[0]["read"] < len(input)/size {
				t.Fatalf("plain: %d read(2) calls, want >= %d (a call per block)", calls[0]["read"], len(input)/size)
			}
			if d := cmp.Diff(calls[0], calls[1]); d != "" {
				t.Errorf("system calls on files (-plain +files):\n%s", d)
			}
		})
	}
}

// TestFilesDecideCalls: a file whose buffer is decided (two small
// Writes, then a large one) costs at most one fstat-family call more
// than plainly, the decision's, whose FileInfo also gives stream's
// decision of the buffer's size; the process pays once more, the fstat
// of standard output, which a buffered file must not be. No fcntl: the
// flags are the ones the program opened the file with.
func TestFilesDecideCalls(t *testing.T) {
	plain, files := pathsPrograms(t)
	stats := func(m map[string]int) int {
		return m["fstat"] + m["newfstatat"] + m["statx"] + m["fstatfs"] + m["statfs"]
	}
	for _, n := range []int{1, 4} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			var calls [2]map[string]int
			for i, bin := range []string{plain, files} {
				dir := t.TempDir()
				args := []string{"smallbig"}
				for j := 0; j < n; j++ {
					args = append(args, filepath.Join(dir, "out"+strconv.Itoa(j)))
				}
				calls[i] = straceFileCalls(t, nil, bin, args...)
			}
			if p, f := stats(calls[0]), stats(calls[1]); f > p+n+1 {
				t.Errorf("-files: %d fstat-family calls for %d files, plain %d: want at most %d more\nplain: %v\n-files: %v", f, n, p, n+1, calls[0], calls[1])
			}
			if p, f := calls[0]["fcntl"], calls[1]["fcntl"]; f != p {
				t.Errorf("-files: %d fcntl calls, plain %d\nplain: %v\n-files: %v", f, p, calls[0], calls[1])
			}
		})
	}
}

// TestFilesStdoutFstat: a walker whose standard output is a regular file
// (`prog > out.txt`) or a pipe fstats it once, as -stdout does for its
// buffer's decision: the same fstat serves the decision, the relation of
// other files to it and its identity for the path operations.
func TestFilesStdoutFstat(t *testing.T) {
	_, files := pathsPrograms(t)
	lookPath(t, "strace")
	tree := pathTree(t, 50)
	for _, to := range []string{"file", "pipe"} {
		t.Run(to, func(t *testing.T) {
			dir := t.TempDir()
			log := filepath.Join(dir, "strace")
			cmd := exec.Command("strace", "-f", "-y", "-e", "trace=fstat,newfstatat,statx", "-o", log, files, "walk", "-", tree)
			cmd.Env = append(os.Environ(), "STDIOBUF_MAXDELAY=none")
			var errb bytes.Buffer
			cmd.Stderr = &errb
			if to == "file" {
				out, err := os.Create(filepath.Join(dir, "stdout"))
				if err != nil {
					t.Fatal(err)
				}
				defer out.Close()
				cmd.Stdout = out
			} else {
				cmd.Stdout = io.Discard // a pipe, copied by os/exec
			}
			if err := cmd.Run(); err != nil {
				t.Fatalf("strace: %v\n%s", err, errb.String())
			}
			b, err := os.ReadFile(log)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(regexp.MustCompile(`(?m)\b(fstat|newfstatat|statx)\(1<`).FindAll(b, -1)); n != 1 {
				t.Errorf("-files fstat'd standard output (a %s) %d times, want 1 (its buffer's decision)", to, n)
			}
		})
	}
}
