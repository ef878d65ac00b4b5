//go:build stdiobuf_std && aix

// The platform seam for AIX inside the standard library: the twin of
// stream/sys_aix.go.

package bufio

import (
	"internal/syscall/unix"
	"syscall"
	"unsafe"
)

// tcgets is AIX's TCGETS, which package syscall does not name.
const tcgets = 0x5401

// isTerminal: TCGETS succeeds, as in stream/sys_aix.go.
func isTerminal(fd uintptr) bool {
	var t syscall.Termios
	return unix.Ioctl(int(fd), tcgets, unsafe.Pointer(&t)) == nil
}
