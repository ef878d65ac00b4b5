//go:build stdiobuf_std && (darwin || dragonfly || freebsd || netbsd || openbsd)

// The platform seam for the BSDs inside the standard library: the twin of
// stream/sys_bsd.go (see stream/sys_linux.go for each function).

package bufio

import (
	"syscall"
	"unsafe"
)

const errSeekPipe = syscall.ESPIPE

func fstat(fd uintptr) *fileStat {
	var st syscall.Stat_t
	if err := syscall.Fstat(int(fd), &st); err != nil {
		return nil
	}
	fs := &fileStat{
		blksize: int64(st.Blksize),
		size:    st.Size,
		dev:     uint64(st.Dev),
		ino:     uint64(st.Ino),
	}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
		fs.kind = kindRegular
	case syscall.S_IFDIR:
		fs.kind = kindDir
	case syscall.S_IFCHR:
		fs.kind = kindChar
	case syscall.S_IFIFO:
		fs.kind = kindPipe
	case syscall.S_IFSOCK:
		fs.kind = kindSocket
	}
	return fs
}

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
