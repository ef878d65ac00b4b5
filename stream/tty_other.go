//go:build unix && !linux && !darwin && !dragonfly && !freebsd && !netbsd && !openbsd

package stream

// isTerminal is false where no terminal ioctl is known: such streams are
// fully buffered.
func isTerminal(fd int) bool { return false }
