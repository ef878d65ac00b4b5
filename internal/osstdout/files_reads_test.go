//go:build linux

package osstdout_test

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The -files tests of reads: testdata/files's cases that read, run on a
// file of readLines integers of 6 digits (7-byte lines, about five 4 KiB
// buffers), built plainly and with -files, compared.

const readLines = 3000

// readInput is the file the read cases read.
func readInput() string {
	var b strings.Builder
	for i := 0; i < readLines; i++ {
		fmt.Fprintf(&b, "%d\n", 100000+i*7919%900000)
	}
	return b.String()
}

// withInput writes the input to the case's file and, with stdin, gives
// the program that file as its standard input; with group, the program
// runs in the shell group `{ prog ARGS; cat; } < file`.
func withInput(stdin, group bool) func(cmd *exec.Cmd, path string) {
	return func(cmd *exec.Cmd, path string) {
		if err := os.WriteFile(path, []byte(readInput()), 0o644); err != nil {
			panic(err)
		}
		if group {
			sh, err := exec.LookPath("sh")
			if err != nil {
				panic(err)
			}
			cmd.Path, cmd.Args = sh, append([]string{"sh", "-c", `"$0" "$@"; cat`}, cmd.Args...)
		}
		if stdin || group {
			f, err := os.Open(path)
			if err != nil {
				panic(err)
			}
			cmd.Stdin = f
		}
	}
}

// readCases are the read cases: name, arguments, whether the file is
// standard input, whether the program runs in a shell group with cat.
var readCases = []struct {
	name, c      string
	args         []string
	stdin, group bool
}{
	{"scan", "scan", nil, true, false},
	{"fscan", "fscan", nil, false, false},
	{"twofscan", "twofscan", nil, false, false},
	{"binread", "binread", nil, false, false},
	{"bytes", "bytes", nil, true, false},
	// Reads smaller than, as large as and larger than a 4 KiB buffer,
	// and one across it.
	{"sizes-1000", "sizes", []string{"1000"}, false, false},
	{"sizes-4096", "sizes", []string{"4096"}, false, false},
	{"sizes-5000", "sizes", []string{"5000"}, false, false},
	{"sizes-9000", "sizes", []string{"9000"}, false, false},
	// `{ prog; cat; } < file`: the program stops mid-file, at exit
	// (with standard output to write out, and with none), and after
	// Close of its standard input.
	{"group-exit", "scan", []string{"1000"}, false, true},
	{"group-quiet", "scanquiet", []string{"1000"}, false, true},
	{"group-close", "scanclose", []string{"700"}, false, true},
	{"group-panic", "scanpanic", []string{"800"}, false, true},
	{"child", "scanchild", []string{"1500"}, true, false},
	{"exec", "scanexec", []string{"1200"}, true, false},
	{"with-child", "scanwithchild", []string{"100"}, true, false},
	{"seek", "seek", nil, false, false},
	{"coherent", "coherent", nil, false, false},
	{"coherentlog", "coherentlog", nil, false, false},
	// A file open for reading and writing: read through a buffer
	// until its first write, which lands where the scan stopped.
	{"rdwr", "rdwr", nil, false, false},
	{"rdwr-append", "rdwr", []string{"append"}, false, false},
	{"rdwrscan", "rdwrscan", nil, false, false},
	{"rdwrfill", "rdwrfill", nil, false, false},
	{"concurrent", "concurrent", nil, false, false},
	// fmt's scans of every kind, runes of several bytes and bytes that
	// are not UTF-8 across buffers, a Scanner of the program's own, and
	// where each scan leaves the file.
	{"scanmix", "scanmix", []string{"2000"}, false, false},
	// A Read into the caller's stack leaves it there: no allocation.
	{"allocs", "allocs", nil, true, false},
}

// TestFilesReadsSameAsPlain: fmt.Scan and Fscan, binary.Read, one-byte
// reads, reads of other sizes, a program that stops mid-file (at exit,
// Close, a panic) before cat, a child that inherits standard input
// (after the program's reads, and while it reads), Exec, Seek, Stat,
// ReadAt, a kernel copy and Close mid-read, writes through other *Files
// between reads, four goroutines reading one *File, and fmt's scans of
// every kind over runes of several bytes give the plain build's output
// and files.
func TestFilesReadsSameAsPlain(t *testing.T) {
	plain, files := filesPrograms(t)
	compareReads(t, plain, files, "files", nil)
}

// TestFilesReadsRace: fmt.Scan from a file on standard input, a child
// reading the rest, the writes between reads, four goroutines reading
// one *File and fmt's scans of every kind, under -race, give the plain
// output.
func TestFilesReadsRace(t *testing.T) {
	plain, _ := filesPrograms(t)
	compareReads(t, plain, filesRace(t), "race", []string{"scan", "child", "coherent", "twofscan", "concurrent", "scanmix", "rdwr"})
}

// compareReads runs the read cases named in only (all if nil) with the
// plain build and with bin, the build called name, and compares.
func compareReads(t *testing.T, plain, bin, name string, only []string) {
	compareBuilds(t, readCases, only, plain, bin, name, func(t *testing.T, bin string, i int) ran {
		rc := readCases[i]
		return runFileWith(t, bin, rc.c, withInput(rc.stdin, rc.group), rc.args...)
	})
}

// compareBuilds runs each case of cases (a table whose rows have a
// field name) that only names (all if only is nil) with the plain build
// and with bin, the build called name, through run (given the row's
// index), and compares what they did.
func compareBuilds[C any](t *testing.T, cases []C, only []string, plain, bin, name string, run func(t *testing.T, bin string, i int) ran) {
	for i, c := range cases {
		n := reflect.ValueOf(c).FieldByName("name").String()
		if only != nil && !slices.Contains(only, n) {
			continue
		}
		t.Run(n, func(t *testing.T) {
			want := run(t, plain, i)
			if want.Stdout == "" {
				t.Fatalf("the plain build printed nothing: %+v", want)
			}
			got := run(t, bin, i)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s against the plain build (-plain +%s):\n%s", name, name, diff)
			}
		})
	}
}

// TestFilesReadsSigterm: a program killed by SIGTERM after fmt.Scan
// leaves standard input's offset, which the test shares, where the
// plain build leaves it.
func TestFilesReadsSigterm(t *testing.T) {
	plain, files := filesPrograms(t)
	offset := func(bin string) int64 {
		cmd, path := fileCmd(t, bin, "scanwait", nil, "500")
		withInput(true, false)(cmd, path)
		in := cmd.Stdin.(*os.File)
		defer in.Close()
		killReady(t, bin, cmd)
		at, err := in.Seek(0, io.SeekCurrent)
		if err != nil {
			t.Fatal(err)
		}
		return at
	}
	if want, got := offset(plain), offset(files); got != want {
		t.Errorf("standard input's offset after SIGTERM: -files %d, plain %d", got, want)
	}
}

// killReady starts cmd, bin running case scanwait, waits for its ready,
// and kills it with SIGTERM while it holds a read buffer.
func killReady(t *testing.T, bin string, cmd *exec.Cmd) {
	t.Helper()
	startReady(t, cmd)
	// The integer after ready is read meanwhile: its read buffer holds
	// the rest of a buffer when the signal comes.
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("%s ended with %v, want death by SIGTERM", bin, err)
	}
}

// TestFilesReadCount: fmt.Scan, fmt.Fscan, binary.Read and one-byte
// reads make one read(2) per buffer (strace), the plain build one per
// byte or record.
func TestFilesReadCount(t *testing.T) {
	plain, files := filesPrograms(t)
	if _, err := exec.LookPath("strace"); err != nil {
		t.Skip("needs strace to count read(2) calls")
	}
	count := func(bin, c string, stdin bool) int {
		path := filepath.Join(t.TempDir(), "in")
		if err := os.WriteFile(path, []byte(readInput()), 0o644); err != nil {
			t.Fatal(err)
		}
		var in *os.File
		if stdin {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			in = f
		}
		return len(regexp.MustCompile(`(?m)\bread\(`).FindAllString(straceLog(t, "read", bin, c, path, in), -1))
	}
	// 21000 bytes: 3000 integers of 7 bytes, 1312 records of 16.
	// Six buffers of 4 KiB a file read, the read at the end, the
	// decision's first small read, and the runtime's own.
	for _, c := range []struct {
		name     string
		stdin    bool
		minPlain int
		maxFiles int
	}{
		{"scan", true, 21000, 20},
		{"fscan", false, 21000, 20},
		{"binread", false, 1312, 20},
		{"bytes", true, 21000, 20},
		{"rdwrscan", false, 21000, 20},
		// Two *Files on the file, each with a buffer, both given
		// back once: twice fscan's, and two refills.
		{"twofscan", false, 42000, 40},
	} {
		p, f := count(plain, c.name, c.stdin), count(files, c.name, c.stdin)
		if p < c.minPlain || f > c.maxFiles {
			t.Errorf("%s: read(2) calls: plain %d (want >= %d), -files %d (want <= %d)", c.name, p, c.minPlain, f, c.maxFiles)
		}
	}
}
