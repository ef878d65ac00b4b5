// The platform seam for AIX: see sys_linux.go; fstat is in sys_posix.go.

package stream

import "golang.org/x/sys/unix"

// isTerminal: TCGETS, the termios ioctl, succeeds, as golang.org/x/term
// tests a terminal on AIX (whose libc source is not public).
func isTerminal(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), unix.TCGETS)
	return err == nil
}
