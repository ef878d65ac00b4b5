//go:build unix

package stream

import "golang.org/x/sys/unix"

// fstat describes descriptor fd, or returns nil if fstat(2) fails.
func fstat(fd uintptr) *fileStat {
	var st unix.Stat_t
	if err := unix.Fstat(int(fd), &st); err != nil {
		return nil
	}
	fs := &fileStat{
		blksize: int64(st.Blksize),
		size:    st.Size,
		regular: st.Mode&unix.S_IFMT == unix.S_IFREG,
	}
	// Only a character device can be a terminal; /dev/null is one that
	// is not, which the ioctl tells apart.
	if st.Mode&unix.S_IFMT == unix.S_IFCHR {
		fs.terminal = isTerminal(int(fd))
	}
	return fs
}
