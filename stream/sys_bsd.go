//go:build darwin || dragonfly || freebsd || netbsd || openbsd

// The platform seam for the BSDs: see sys_linux.go.

package stream

import (
	"syscall"

	"golang.org/x/sys/unix"
)

const errSeekPipe = syscall.ESPIPE

func fstat(fd uintptr) *fileStat {
	var st unix.Stat_t
	if err := unix.Fstat(int(fd), &st); err != nil {
		return nil
	}
	fs := &fileStat{
		blksize: int64(st.Blksize),
		size:    st.Size,
		dev:     uint64(st.Dev),
		ino:     uint64(st.Ino),
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		fs.kind = kindRegular
	case unix.S_IFDIR:
		fs.kind = kindDir
	case unix.S_IFCHR:
		fs.kind = kindChar
	case unix.S_IFIFO:
		fs.kind = kindPipe
	case unix.S_IFSOCK:
		fs.kind = kindSocket
	}
	return fs
}

// isTerminal: TIOCGETA succeeds, as in the BSD libcs' isatty.
func isTerminal(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), unix.TIOCGETA)
	return err == nil
}
