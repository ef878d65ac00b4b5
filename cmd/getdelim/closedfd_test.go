//go:build linux

package main

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestClosedDescriptors pins the documented difference from GNU head
// when the program starts with standard input or output closed
// (`getdelim FILE >&-`): the Go runtime opens /dev/null on a closed
// descriptor 0, 1 or 2 before any code of the program runs, so getdelim
// writes to /dev/null, or reads it, where head fails with EBADF. If this
// test fails for getdelim, the runtime has changed and so must the
// documentation (main.go, docs/getdelim.md).
func TestClosedDescriptors(t *testing.T) {
	progs := findPrograms(t)
	dir, _ := fixtures(t)
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skipf("no shell to close descriptors with: %v", err)
	}
	tests := []struct {
		args, redirect string
		head, getdelim result // head's prefix is renamed getdelim
	}{
		{args: "three", redirect: ">&-",
			head:     result{Status: 1, Stderr: "getdelim: write error: Bad file descriptor\n"},
			getdelim: result{Status: 0}},
		{args: "--help", redirect: ">&-",
			head:     result{Status: 1, Stderr: "getdelim: write error: Bad file descriptor\n"},
			getdelim: result{Status: 0}},
		{args: "-n 1", redirect: "<&-",
			head: result{Status: 1, Stderr: "getdelim: error reading 'standard input': Bad file descriptor\n" +
				"getdelim: -: Bad file descriptor\n"},
			getdelim: result{Status: 0}},
		// Where nothing is written, or only to standard error, the two agree.
		{args: "-n 0 three", redirect: ">&-"},
		{args: "missing", redirect: ">&-",
			head:     result{Status: 1, Stderr: "getdelim: cannot open 'missing' for reading: No such file or directory\n"},
			getdelim: result{Status: 1, Stderr: "getdelim: cannot open 'missing' for reading: No such file or directory\n"}},
		{args: "three missing", redirect: "2>&-",
			head:     result{Status: 1, Stdout: "==> three <==\n1\n2\n3\n"},
			getdelim: result{Status: 1, Stdout: "==> three <==\n1\n2\n3\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.args+" "+tt.redirect, func(t *testing.T) {
			var got [2]result
			for i, p := range []struct{ path, name string }{{progs.head, "head"}, {progs.getdelim, "getdelim"}} {
				script := `exec "$0" "$@" ` + tt.redirect
				cmd := exec.Command(sh, append([]string{"-c", script, p.path}, strings.Split(tt.args, " ")...)...)
				cmd.Dir = dir
				cmd.Env = []string{"LC_ALL=C"}
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				err := cmd.Run()
				// head names itself by the path it was run as.
				stderr := strings.ReplaceAll(errb.String(), p.path+": ", "getdelim: ")
				got[i] = result{Status: exitStatus(t, cmd, err), Stdout: out.String(), Stderr: stderr}
			}
			want := [2]result{tt.head, tt.getdelim}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("head [0] and getdelim [1] (-want +got):\n%s", diff)
			}
		})
	}
}
