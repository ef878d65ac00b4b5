//go:build stdiobuf_std

package bufio

// Under `stdiobuf build -stdout` stream's standard streams (Stdin, Stdout,
// Stderr, Flush and Exit) are left out: they wrap os.Stdin and friends,
// and package os imports this package. They are not bufio's API, so no
// program built from `import "bufio"` uses them; the process's standard
// output is buffered by package os itself.

// flushStdoutBeforeRead is a no-op here: package os flushes standard
// output before a read of the original standard input that may wait
// (stdioStream.beforeRead in os).
func flushStdoutBeforeRead() {}
