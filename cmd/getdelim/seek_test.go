//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// afterward runs a program on standard input f (a fixture), then cat on
// the same open file, as `{ PROG ARGS; cat; } < file` does, and returns
// the bytes of both and the program's status.
func afterward(t *testing.T, path, name string, args []string, dir, fixture string) result {
	t.Helper()
	f := open(t, dir, fixture)
	var out bytes.Buffer
	cmd := exec.Command(path, args...)
	cmd.Args[0] = name
	cmd.Dir, cmd.Stdin, cmd.Stdout = dir, f, &out
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cmd.Env = []string{"LC_ALL=C"}
	status := exitStatus(t, cmd, cmd.Run())
	cat := exec.Command("cat")
	cat.Stdin, cat.Stdout = f, &out
	if err := cat.Run(); err != nil {
		t.Fatalf("cat: %v", err)
	}
	return result{Status: status, Stdout: summarize(out.Bytes()), Stderr: stderr.String()}
}

// TestSeekBack checks that the program leaves a seekable standard input
// where GNU head leaves it: just after the last byte printed.
func TestSeekBack(t *testing.T) {
	progs := findPrograms(t)
	dir, _ := fixtures(t)
	cases := []struct{ args, stdin string }{
		{"-n 2", "lines"}, {"-n 0", "lines"}, {"-n 100000000", "lines"}, {"-n 2", "nofinal"},
		{"-c 5", "lines"}, {"-c 0", "lines"}, {"-c 10000", "lines"}, {"-c 100000000", "lines"},
		{"-n -2", "lines"}, {"-n -0", "lines"}, {"-n -39999", "lines"}, {"-n -2", "three"}, {"-n -1", "nofinal"},
		{"-c -5", "lines"}, {"-c -0", "lines"}, {"-c -100000000", "lines"}, {"-c -2", "three"},
		{"-n 1 - -", "lines"}, {"-c 3 - -", "three"}, {"-c -1 - -", "lines"},
		{"-n 1", "huge-line"}, {"-n -1", "huge-line"}, {"-c -3", "huge-line"},
		{"-z -n 1", "nul"}, {"-z -n -1", "nul"},
		{"---presume-input-pipe -n -2", "lines"}, {"---presume-input-pipe -c -2", "lines"},
	}
	// Read-ahead reads a second buffer ahead: none of it may be lost.
	ahead := [][]string{{"--policy", "readahead:16K"}, {"--loop", "--policy", "readahead:5000"}}
	for _, mode := range append([][]string{nil, {"--loop"}}, ahead...) {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%v%q<%s", mode, c.args, c.stdin), func(t *testing.T) {
				args := strings.Split(c.args, " ")
				head := afterward(t, progs.head, "head", args, dir, c.stdin)
				own := afterward(t, progs.getdelim, "getdelim", withOptions(args, mode), dir, c.stdin)
				if diff := cmp.Diff(head, own); diff != "" {
					t.Errorf("{ head; cat; } (-) and { getdelim; cat; } (+) differ:\n%s", diff)
				}
			})
		}
	}
}

// TestSeekBackAllElided documents where getdelim deliberately differs:
// when "-n -N" elides every line left in a regular file larger than a
// block, head leaves the offset where its backward search stopped (up to
// 8 KiB further on); getdelim leaves it after the last byte printed, so
// that the file is printed once in all.
func TestSeekBackAllElided(t *testing.T) {
	progs := findPrograms(t)
	dir, files := fixtures(t)
	for _, args := range [][]string{{"-n", "-40000"}, {"--loop", "-n", "-100000000"}, {"-q", "-n", "-1", "-", "-"}} {
		got := afterward(t, progs.getdelim, "getdelim", args, dir, "lines")
		want := result{Stdout: summarize(files["lines"])}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("{ getdelim %q; cat; } (-want +got):\n%s", args, diff)
		}
	}
}
