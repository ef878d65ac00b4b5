//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCLoop checks the C peer in bench/c: the same records out as in, in
// every buffering mode, and status 2 for a bad command line.
func TestCLoop(t *testing.T) {
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skipf("no C compiler (%s): the C peer cannot be built", cc)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "getdelim_loop")
	if out, err := exec.Command(cc, "-O2", "-Wall", "-Werror", "-o", bin, "../../bench/c/getdelim_loop.c").CombinedOutput(); err != nil {
		t.Fatalf("cc: %v\n%s", err, out)
	}
	long := strings.Repeat("y", 300000) // longer than any buffer below
	input := "a\n" + long + "\n\nccc\nlast"
	in := filepath.Join(dir, "in")
	if err := os.WriteFile(in, []byte(input), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args   []string
		out    string
		status int
	}{
		{nil, input, 0},
		{[]string{"-i", "rule", "-o", "rule"}, input, 0},
		{[]string{"-i", "default", "-o", "4096", "-n", "2"}, "a\n" + long + "\n", 0},
		{[]string{"-i", "1", "-o", "1", "-n", "4"}, "a\n" + long + "\n\nccc\n", 0},
		{[]string{"-n", "0"}, "", 0},
		{[]string{"-n", "99", "-i", "131072"}, input, 0},
		{[]string{"-d", "c", "-n", "1"}, "a\n" + long + "\n\nc", 0},
		{[]string{"-n", "x"}, "", 2},
		{[]string{"-i", "0"}, "", 2},
		{[]string{"-i", "fast"}, "", 2},
		{[]string{"-d", "ab"}, "", 2},
		{[]string{"extra"}, "", 2},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			f, err := os.Open(in)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var out, stderr bytes.Buffer
			cmd := exec.Command(bin, tc.args...)
			cmd.Stdin, cmd.Stdout, cmd.Stderr = f, &out, &stderr
			err = cmd.Run()
			status := 0
			if ee, ok := err.(*exec.ExitError); ok {
				status = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if status != tc.status {
				t.Errorf("status %d, want %d; stderr %q", status, tc.status, stderr.String())
			}
			if diff := cmp.Diff(tc.out, out.String()); diff != "" && len(diff) < 2000 {
				t.Errorf("output (-want +got):\n%s", diff)
			} else if diff != "" {
				t.Errorf("output: %d bytes, want %d", out.Len(), len(tc.out))
			}
		})
	}
}

func TestFigureShell(t *testing.T) {
	tl := &tools{getdelim: "/tmp/x/getdelim", cloop: "/tmp/x/getdelim_loop", bufioloop: "/tmp/x/bufioloop",
		head: "/usr/bin/head", cat: "/bin/cat", missing: map[string]string{}}
	o := &options{paths: pathNames, policies: []string{"blksize"}, sweep: []int64{65536}, peers: peerNames()}
	figs, notes := planFigures(o, tl)
	if len(notes) > 0 {
		t.Fatalf("notes: %q", notes)
	}
	var got []string
	for _, f := range figs {
		got = append(got, f.Key+": "+f.shell(290955))
	}
	want := []string{
		"policy=blksize: getdelim --loop --policy blksize -n 290955 < input > /dev/null",
		"path=copy/policy=blksize: getdelim --policy blksize -n 290955 < input > /dev/null",
		"policy=65536: getdelim --loop --policy 65536 -n 290955 < input > /dev/null",
		"peer=head: head -n 290955 < input > /dev/null",
		"peer=c-default: getdelim_loop -i default -o default -n 290955 < input > /dev/null",
		"peer=c-rule: getdelim_loop -i rule -o rule -n 290955 < input > /dev/null",
		"peer=go-bufio: bufioloop -n 290955 < input > /dev/null",
		"peer=cat: cat input > /dev/null",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestPlanFiguresLeavesOutMissing(t *testing.T) {
	tl := &tools{head: "/usr/bin/head", missing: map[string]string{
		"getdelim": "go build ./cmd/getdelim: exit status 1", "cloop": "no C compiler: cc not found on PATH",
		"bufioloop": "not inside the module", "cat": "cat not found on PATH",
	}}
	o := &options{paths: pathNames, policies: policyNames(), sweep: []int64{4096}, peers: peerNames()}
	figs, notes := planFigures(o, tl)
	var keys []string
	for _, f := range figs {
		keys = append(keys, f.Key)
	}
	if diff := cmp.Diff([]string{"peer=head"}, keys); diff != "" {
		t.Errorf("figures (-want +got):\n%s", diff)
	}
	wantNotes := []string{
		"getdelim: left out, with every policy and sweep figure: go build ./cmd/getdelim: exit status 1",
		"peer c-default: left out: no C compiler: cc not found on PATH",
		"peer c-rule: left out: no C compiler: cc not found on PATH",
		"peer go-bufio: left out: not inside the module",
		"peer cat: left out: cat not found on PATH",
	}
	if diff := cmp.Diff(wantNotes, notes); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
}
