//go:build darwin || dragonfly || freebsd || netbsd || openbsd

// The platform seam for the BSDs: see sys_linux.go; fstat is in
// sys_posix.go.

package stream

import "golang.org/x/sys/unix"

// isTerminal: TIOCGETA succeeds, as in the BSD libcs' isatty.
func isTerminal(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), unix.TIOCGETA)
	return err == nil
}
