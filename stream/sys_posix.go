//go:build unix || js

// The part of the platform seam (see sys_linux.go) that every unix system
// and js/wasm share: package syscall has fstat(2) on all of them (on js,
// Node's fs.fstat), so this file needs no twin in internal/stdseam.

package stream

import "syscall"

const errSeekPipe = syscall.ESPIPE

// sysErrno is the type of a system call's error number (std.go).
type sysErrno = syscall.Errno

// descriptor is fd itself: standard input, output and error are 0, 1
// and 2.
func descriptor(fd uintptr) int { return int(fd) }

// fstat fills st with fstat(2) of fd, and reports whether the call
// succeeded. It fills in the caller's fileStat rather than return one so
// that a stream's decision allocates nothing.
func fstat(fd uintptr, st *fileStat) bool {
	var sys syscall.Stat_t
	if err := syscall.Fstat(int(fd), &sys); err != nil {
		return false
	}
	// The conversions: the fields' types vary by system and architecture
	// (st_dev is uint32 on linux/mips*, st_blksize int32 on darwin).
	*st = fileStat{
		blksize: int64(sys.Blksize),
		size:    int64(sys.Size),
		dev:     uint64(sys.Dev),
		ino:     uint64(sys.Ino),
	}
	switch uint32(sys.Mode) & syscall.S_IFMT {
	case syscall.S_IFREG:
		st.kind = kindRegular
	case syscall.S_IFDIR:
		st.kind = kindDir
	case syscall.S_IFCHR:
		st.kind = kindChar
	case syscall.S_IFIFO:
		st.kind = kindPipe
	case syscall.S_IFSOCK:
		st.kind = kindSocket
	}
	return true
}
