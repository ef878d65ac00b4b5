// The platform seam for wasip1: see sys_linux.go. fstat is WASI's
// fd_filestat_get through package syscall: the file type and size, no
// block size (the policies give BUFSIZ).

package stream

import "syscall"

const errSeekPipe = syscall.ESPIPE

// sysErrno is the type of a system call's error number (std.go).
type sysErrno = syscall.Errno

// descriptor is fd itself: standard input, output and error are 0, 1
// and 2.
func descriptor(fd uintptr) int { return int(fd) }

func fstat(fd uintptr, fs *fileStat) bool {
	var st syscall.Stat_t
	if err := syscall.Fstat(int(fd), &st); err != nil {
		return false
	}
	*fs = fileStat{size: int64(st.Size), dev: st.Dev, ino: st.Ino}
	switch st.Filetype {
	case syscall.FILETYPE_REGULAR_FILE:
		fs.kind = kindRegular
	case syscall.FILETYPE_DIRECTORY:
		fs.kind = kindDir
	case syscall.FILETYPE_CHARACTER_DEVICE:
		fs.kind = kindChar
	case syscall.FILETYPE_SOCKET_STREAM, syscall.FILETYPE_SOCKET_DGRAM:
		fs.kind = kindSocket
	}
	return true
}

// isTerminal is true for every character device, as on js (sys_js.go):
// package syscall has no terminal test on wasip1. WASI runtimes give a
// standard stream the character-device type when it is a terminal
// (wasmtime's is "unknown" otherwise), so the guess is seldom wrong.
func isTerminal(fd uintptr) bool { return true }
