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

func fstat(fd uintptr) *fileStat {
	var st syscall.Stat_t
	if err := syscall.Fstat(int(fd), &st); err != nil {
		return nil
	}
	// The conversions: the fields' types vary by system and architecture
	// (st_dev is uint32 on linux/mips*, st_blksize int32 on darwin).
	fs := &fileStat{
		blksize: int64(st.Blksize),
		size:    int64(st.Size),
		dev:     uint64(st.Dev),
		ino:     uint64(st.Ino),
	}
	switch uint32(st.Mode) & syscall.S_IFMT {
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
