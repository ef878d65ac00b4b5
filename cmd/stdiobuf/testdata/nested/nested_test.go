// Package nested is a module whose tests, like goawk's, build a program
// of their own with `go build` in TestMain and run it: under `stdiobuf
// test` that program must be built with the overlay too.
package nested

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var helper string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "nested-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	helper = filepath.Join(dir, "helper")
	if out, err := exec.Command("go", "build", "-o", helper, "./helper").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build ./helper: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// TestHelperIsStream: the helper's bufio is stream, which honours
// stdbuf's _STDBUF_I.
func TestHelperIsStream(t *testing.T) {
	cmd := exec.Command(helper)
	cmd.Stdin = strings.NewReader("x\n")
	cmd.Env = append(os.Environ(), "_STDBUF_I=65536")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != "65536" {
		t.Errorf("helper's Reader.Size() under _STDBUF_I=65536: %s, want 65536 (stream's bufio)", got)
	}
}

// TestOwnBufioIsStream: the test binary's own bufio is stream, which has
// Setvbuf.
func TestOwnBufioIsStream(t *testing.T) {
	if _, ok := reflect.TypeOf(bufio.NewWriter(nil)).MethodByName("Setvbuf"); !ok {
		t.Error("the test binary's bufio has no Setvbuf: it is not stream")
	}
}
