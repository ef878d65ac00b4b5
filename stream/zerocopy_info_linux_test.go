package stream_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestInfoCountsKernelCopies: after a line is read and the rest of a file
// is copied to /dev/null (sendfile), Info's Reads and Writes are the
// read(2) and write(2) calls strace saw on descriptors 0 and 1, and Kernel
// is, on both streams, the number of kernel copy calls, each counted once.
func TestInfoCountsKernelCopies(t *testing.T) {
	const size = 3<<20 + 12345
	name := filepath.Join(t.TempDir(), "input")
	data := append([]byte("first line\n"), bytes.Repeat([]byte("0123456789abcde\n"), size/16)...)
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	null := openDevNull(t)
	res := helperRun{
		ops:   []string{"readline", "copy=100000000"},
		stdin: in, stdout: null, trace: true, traceKernel: true,
	}.run(t)
	if len(res.report.Errs) > 0 {
		t.Fatalf("helper: %q", res.report.Errs)
	}
	stdin, stdout := res.report.Stdin, res.report.Stdout
	if stdin.Reads != 1 || stdin.Kernel == 0 || stdin.Kernel != stdout.Kernel {
		t.Errorf("Info: stdin %v, stdout %v; want one read, and the same kernel calls, at least one, on both", stdin, stdout)
	}
	t.Run("strace", func(t *testing.T) {
		if !res.traced {
			t.Skip("strace is not installed: only the counts in Info are checked, not the system calls")
		}
		type counts struct{ StdinReads, StdoutWrites, StdinKernel, StdoutKernel int64 }
		var kernel int64
		for _, c := range res.calls {
			if c.Name == "kernel" {
				kernel++
			}
		}
		want := counts{
			StdinReads:   int64(len(sizesOf(res.calls, "read", 0))),
			StdoutWrites: int64(len(sizesOf(res.calls, "write", 1))),
			StdinKernel:  kernel,
			StdoutKernel: kernel,
		}
		got := counts{stdin.Reads, stdout.Writes, stdin.Kernel, stdout.Kernel}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Info against strace (-strace +Info):\n%s", diff)
		}
	})
}
