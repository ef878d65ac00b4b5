// The platform seam for illumos and solaris (a file named _solaris is
// built for both): see sys_linux.go; fstat is in sys_posix.go.

package stream

import "golang.org/x/sys/unix"

// isTerminal: TCGETA succeeds, as in illumos' libc isatty.
func isTerminal(fd uintptr) bool {
	_, err := unix.IoctlGetTermio(int(fd), unix.TCGETA)
	return err == nil
}
