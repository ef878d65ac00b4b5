package main

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestErrorText(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{syscall.ENOENT, "No such file or directory"},
		{syscall.ENOSPC, "No space left on device"},
		{syscall.EISDIR, "Is a directory"},
		{syscall.EBADF, "Bad file descriptor"},
		{syscall.EIO, "Input/output error"},
		{syscall.EOVERFLOW, "Value too large for defined data type"},
		{syscall.ESTALE, "Stale file handle"},
		{ehwpoison, "Memory page has hardware error"},
		{syscall.Errno(41), "Unknown error 41"},
		{syscall.Errno(4000), "Unknown error 4000"},
		{&fs.PathError{Op: "open", Path: "x", Err: syscall.EACCES}, "Permission denied"},
		{fmt.Errorf("wrapped: %w", syscall.EPIPE), "Broken pipe"},
		{errors.New("not a system error"), "not a system error"},
	}
	for _, tt := range tests {
		if got := errorText(tt.err); got != tt.want {
			t.Errorf("errorText(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

// TestErrorTextAgainstStrerror compares errorText with the C library's
// strerror for every errno Linux defines and a few past them.
func TestErrorTextAgainstStrerror(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Skipf("no C compiler to ask strerror: %v", err)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "strerror.c")
	prog := `#include <stdio.h>
#include <string.h>
int main(void) { for (int i = 1; i < 140; i++) printf("%d\t%s\n", i, strerror(i)); return 0; }
`
	if err := os.WriteFile(src, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "strerror")
	if out, err := exec.Command(cc, "-o", bin, src).CombinedOutput(); err != nil {
		t.Skipf("cannot build the strerror program: %v\n%s", err, out)
	}
	out, err := exec.Command(bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	want, got := map[int]string{}, map[int]string{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		num, text, _ := strings.Cut(sc.Text(), "\t")
		n, err := strconv.Atoi(num)
		if err != nil {
			t.Fatalf("strerror program printed %q", sc.Text())
		}
		want[n], got[n] = text, errorText(syscall.Errno(n))
	}
	if len(want) == 0 {
		t.Fatal("the strerror program printed nothing")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("strerror (-) and errorText (+) differ:\n%s", diff)
	}
}
