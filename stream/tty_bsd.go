//go:build darwin || dragonfly || freebsd || netbsd || openbsd

package stream

import "golang.org/x/sys/unix"

// isTerminal reports whether fd is a terminal: TIOCGETA succeeds, as in
// the BSD libcs' isatty.
func isTerminal(fd int) bool {
	_, err := unix.IoctlGetTermios(fd, unix.TIOCGETA)
	return err == nil
}
