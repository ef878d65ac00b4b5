// The platform seam for js/wasm: see sys_linux.go; fstat is in
// sys_posix.go (Node's fs.fstat; in a browser it fails, and every stream
// gets BUFSIZ, fully buffered).

package stream

// isTerminal is true for every character device: package syscall has no
// terminal test on js, and the character devices a program's standard
// streams meet are a terminal or /dev/null. Taking /dev/null for a
// terminal costs speed into /dev/null; taking a terminal for a file would
// hold back prompts and progress lines until the buffer fills.
func isTerminal(fd uintptr) bool { return true }
