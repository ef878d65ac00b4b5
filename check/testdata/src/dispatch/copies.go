package dispatch

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
)

// io.Copy from a buffer filled per record writes it in one call: a
// write per record.
func copyRecords(ids []int) {
	for _, id := range ids {
		b := &bytes.Buffer{}
		fmt.Fprintf(b, "%d\n", id)
		io.Copy(os.Stdout, b) // want `^per-record write to os.Stdout: io.Copy \(copies.go:18\) .*-stdout$`
	}
}

// From a file (a kernel copy or 32 KiB at a time), to a bufio.Writer, or
// once: silent.
func copyQuiet(files []*os.File, s string) {
	for _, f := range files {
		io.Copy(os.Stdout, f)
	}
	bw := bufio.NewWriter(os.Stdout)
	for range files {
		io.Copy(bw, strings.NewReader(s))
	}
	bw.Flush()
	io.Copy(os.Stdout, strings.NewReader(s))
}
