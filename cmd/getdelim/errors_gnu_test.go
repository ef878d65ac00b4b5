//go:build linux

package main

import (
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWriteErrors runs both programs with standard output on /dev/full.
// head reports a failure met in the middle of the run as
// "error writing 'standard output'" and stops at once, and one met only
// when stdout is flushed at exit as "write error".
func TestWriteErrors(t *testing.T) {
	progs := findPrograms(t)
	dir, _ := fixtures(t)
	cases := []string{
		"-n 1 three",         // small: at exit
		"-n 100000000 lines", // large: in the middle
		"-c 4095 lines",
		"-c 4096 lines", // glibc writes a first full buffer at once
		"-c 4097 lines",
		"-v -c 4084 lines", // header and data together fill the buffer: at exit
		"-v -c 4085 lines",
		"-c 3000 lines lines",
		"-n 1 three missing three", // the flush before the message fails
		"-n -1 three",
		"-c -1 lines",
		"-n -1 lines",
		"-c -700000 lines",
		"-v -n 0 three",
		"-n 0 three",
		"--help",
		"--version",
	}
	for _, mode := range [][]string{nil, {"--loop"}} {
		for _, args := range cases {
			t.Run(strings.Join(mode, " ")+args, func(t *testing.T) {
				var got [2]result
				for i, p := range []struct{ path, name string }{{progs.head, "head"}, {progs.getdelim, "getdelim"}} {
					full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
					if err != nil {
						t.Skipf("no /dev/full: %v", err)
					}
					defer full.Close()
					inv := invocation{args: strings.Split(args, " "), dir: dir}
					if p.name == "getdelim" {
						inv.args = withOptions(inv.args, mode)
					}
					status, stderr := inv.run(t, p.path, p.name, full)
					got[i] = result{Status: status, Stderr: stderr}
				}
				got[0].Stderr = renameHead(got[0].Stderr)
				if diff := cmp.Diff(got[0], got[1]); diff != "" {
					t.Errorf("GNU head (-) and getdelim (+) differ on /dev/full:\n%s", diff)
				}
			})
		}
	}
}

// TestBrokenPipe checks that a reader that goes away kills the program
// with SIGPIPE, as it kills head: status 141 in a shell.
func TestBrokenPipe(t *testing.T) {
	progs := findPrograms(t)
	dir, _ := fixtures(t)
	cases := []struct{ args, stdin string }{
		{"-n 100000000 lines", ""},
		{"-c 100000000 huge-line", ""}, // a kernel copy after the first buffer
		{"-n -1 lines", ""},
		{"-c -1 huge-line", ""},
		{"-n 100000000", "lines"},
		{"-c 100000000", "huge-line"},
	}
	for _, mode := range [][]string{nil, {"--loop"}} {
		for _, c := range cases {
			t.Run(strings.Join(mode, " ")+c.args, func(t *testing.T) {
				var got [2]int
				for i, p := range []struct{ path, name string }{{progs.head, "head"}, {progs.getdelim, "getdelim"}} {
					args := strings.Split(c.args, " ")
					if p.name == "getdelim" {
						args = withOptions(args, mode)
					}
					got[i] = readOneByte(t, p.path, p.name, args, dir, c.stdin)
				}
				if got[0] != 128+int(syscall.SIGPIPE) {
					t.Fatalf("head's status is %d, not death by SIGPIPE: the case tests nothing", got[0])
				}
				if got[0] != got[1] {
					t.Errorf("after the reader closed the pipe: head's status %d, getdelim's %d", got[0], got[1])
				}
			})
		}
	}
}

// readOneByte runs a program whose standard output is a pipe, reads one
// byte of it, closes the pipe and returns the program's status.
func readOneByte(t *testing.T, path, name string, args []string, dir, stdin string) int {
	t.Helper()
	cmd := exec.Command(path, args...)
	cmd.Args[0] = name
	cmd.Dir = dir
	if stdin != "" {
		cmd.Stdin = open(t, dir, stdin)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(out, make([]byte, 1)); err != nil {
		t.Errorf("%s: reading its output: %v", name, err)
	}
	out.Close()
	return exitStatus(t, cmd, cmd.Wait())
}
