//go:build stdiobuf_std && windows

// The platform seam for Windows inside the standard library: the twin of
// stream/sys_windows.go, which says what each call tells.

package bufio

import (
	"internal/syscall/windows"
	"syscall"
	"unsafe"
)

const errSeekPipe = syscall.ESPIPE

// sysErrno is the type of a system call's error number (std.go).
type sysErrno = syscall.Errno

// fileStandardInfo is FILE_STANDARD_INFO.
type fileStandardInfo struct {
	allocationSize int64
	endOfFile      int64
	numberOfLinks  uint32
	deletePending  bool
	directory      bool
}

func fstat(fd uintptr, st *fileStat) bool {
	h := syscall.Handle(fd)
	typ, err := syscall.GetFileType(h)
	if err != nil {
		return false
	}
	*st = fileStat{}
	switch typ {
	case syscall.FILE_TYPE_CHAR:
		st.kind = kindChar
	case syscall.FILE_TYPE_PIPE:
		st.kind = kindPipe
	case syscall.FILE_TYPE_DISK:
		var info fileStandardInfo
		err := windows.GetFileInformationByHandleEx(h, windows.FileStandardInfo, (*byte)(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)))
		switch {
		case err != nil:
		case info.directory:
			st.kind = kindDir
		default:
			st.kind, st.size = kindRegular, info.endOfFile
		}
	}
	return true
}

// isTerminal: GetConsoleMode succeeds.
func isTerminal(fd uintptr) bool {
	var mode uint32
	return syscall.GetConsoleMode(syscall.Handle(fd), &mode) == nil
}

// descriptor: 0, 1 and 2 for the standard handles, standard error first.
func descriptor(fd uintptr) int {
	switch syscall.Handle(fd) {
	case syscall.Stderr:
		return 2
	case syscall.Stdout:
		return 1
	case syscall.Stdin:
		return 0
	}
	return int(fd)
}
