//go:build stdiobuf_std && solaris

// The platform seam for illumos and solaris inside the standard library:
// the twin of stream/sys_solaris.go.

package bufio

import (
	"syscall"
	"unsafe"
)

// sysvicall6 calls a libc function as package syscall's system calls do:
// the runtime's own, which it offers by linkname (package syscall's
// ioctl wrappers are not open to a linkname from another package).
//
//go:linkname sysvicall6 runtime.syscall_sysvicall6
func sysvicall6(fn, nargs, a1, a2, a3, a4, a5, a6 uintptr) (r1, r2, err uintptr)

//go:cgo_import_dynamic libc_ioctl ioctl "libc.so"
//go:linkname libcIoctl libc_ioctl
var libcIoctl uintptr

// tcgeta is TCGETA, ('T'<<8)|1, which package syscall does not name.
const tcgeta = 0x5401

// isTerminal: TCGETA succeeds, as in illumos' libc isatty. The ioctl
// fills a struct termio; syscall.Termios is larger.
func isTerminal(fd uintptr) bool {
	var t syscall.Termios
	_, _, errno := sysvicall6(uintptr(unsafe.Pointer(&libcIoctl)), 3, fd, tcgeta, uintptr(unsafe.Pointer(&t)), 0, 0, 0)
	return errno == 0
}
