package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

// TestStdoutPipeGrown checks that getdelim -c enlarges a pipe on its
// standard output to pipeSize for a copy of more than twice that from a
// regular file, leaves it alone for a small one (so that a reader that
// quits early still kills it with SIGPIPE, as it kills head), and that the
// bytes through it are the input's either way.
func TestStdoutPipeGrown(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("cannot build getdelim: %v", err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "getdelim")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, c := range []struct {
		name  string
		size  int
		grown bool
	}{
		{"small", 100000, false},
		{"over twice the pipe", 2*pipeSize + 1, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			input := bytes.Repeat([]byte("0123456789abcde\n"), c.size/16+1)[:c.size]
			path := filepath.Join(dir, "input")
			if err := os.WriteFile(path, input, 0o644); err != nil {
				t.Fatal(err)
			}
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			before, err := unix.FcntlInt(r.Fd(), unix.F_GETPIPE_SZ, 0)
			if err != nil {
				t.Skipf("F_GETPIPE_SZ: %v", err)
			}
			if before >= pipeSize {
				t.Skipf("pipes already hold %d bytes here", before)
			}
			cmd := exec.Command(bin, "-c", strconv.Itoa(c.size), path)
			cmd.Stdout = w
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			w.Close()
			got, err := io.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Wait(); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, input) {
				t.Errorf("output of %d bytes differs from the input of %d", len(got), len(input))
			}
			after, err := unix.FcntlInt(r.Fd(), unix.F_GETPIPE_SZ, 0)
			if err != nil {
				t.Fatal(err)
			}
			if want := map[bool]int{true: pipeSize, false: before}[c.grown]; after != want {
				t.Errorf("pipe size %d after getdelim ran (%d before), want %d", after, before, want)
			}
		})
	}
}
