//go:build unix && !linux && !darwin && !dragonfly && !freebsd && !netbsd && !openbsd

// The platform seam for the other unix systems (aix, illumos, solaris):
// see sys_linux.go. Package syscall has all it needs, so this file needs
// no twin in internal/stdseam.

package stream

import "syscall"

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

// isTerminal is false where no terminal ioctl is wired up: such streams
// are fully buffered.
func isTerminal(fd uintptr) bool { return false }
