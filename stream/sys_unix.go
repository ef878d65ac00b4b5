//go:build unix && !linux && !darwin && !dragonfly && !freebsd && !netbsd && !openbsd

// The platform seam for the other unix systems (aix, illumos, solaris):
// see sys_linux.go; fstat is in sys_posix.go.

package stream

// isTerminal is false where no terminal ioctl is wired up: such streams
// are fully buffered.
func isTerminal(fd uintptr) bool { return false }
