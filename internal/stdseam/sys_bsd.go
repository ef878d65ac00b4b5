//go:build stdiobuf_std && (darwin || dragonfly || freebsd || netbsd || openbsd)

// The platform seam for the BSDs inside the standard library: the twin of
// stream/sys_bsd.go (see stream/sys_linux.go for each function).

package bufio

import (
	"syscall"
	"unsafe"
)

// ioctlPtr is package syscall's ioctl, which goes through libc where the
// system wants it (darwin, openbsd); internal/syscall/unix reaches it the
// same way.
//
//go:linkname ioctlPtr syscall.ioctlPtr
func ioctlPtr(fd int, req uint, arg unsafe.Pointer) (err error)

// isTerminal: TIOCGETA succeeds, as in the BSD libcs' isatty.
func isTerminal(fd uintptr) bool {
	var t syscall.Termios
	return ioctlPtr(int(fd), syscall.TIOCGETA, unsafe.Pointer(&t)) == nil
}
