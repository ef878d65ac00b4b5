// The platform seam for Windows: see sys_linux.go.
//
// A stream's "descriptor" here is a handle. Windows has no fstat; what a
// stream needs to know of a handle comes from three calls:
//
//	GetFileType                 FILE_TYPE_CHAR: a console, NUL or a serial
//	                            port (kindChar); FILE_TYPE_PIPE: a pipe or a
//	                            socket (kindPipe); FILE_TYPE_DISK: a file or
//	                            a directory
//	GetFileInformationByHandleEx(FileStandardInfo), disk handles only:
//	                            the size, and whether it is a directory
//	GetConsoleMode              succeeds on a console handle only: the
//	                            terminal test (NUL is a character device on
//	                            which it fails, as /dev/null on unix)
//
// Windows gives no preferred I/O size for a handle (the sector sizes of
// FileStorageInfo are no such hint, and the cluster size needs the volume's
// root path), so blksize is 0 and the policies give BUFSIZ, as glibc does
// when st_blksize is unknown. dev and ino stay 0: nothing on Windows
// compares them.

package stream

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// errSeekPipe is what package os returns for a seek on a pipe: its poller
// refuses the seek itself with syscall.ESPIPE, a number package syscall
// invents on Windows.
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
	h := windows.Handle(fd)
	typ, err := windows.GetFileType(h)
	if err != nil {
		return false
	}
	*st = fileStat{}
	switch typ {
	case windows.FILE_TYPE_CHAR:
		st.kind = kindChar
	case windows.FILE_TYPE_PIPE:
		st.kind = kindPipe
	case windows.FILE_TYPE_DISK:
		var info fileStandardInfo
		err := windows.GetFileInformationByHandleEx(h, windows.FileStandardInfo, (*byte)(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)))
		switch {
		case err != nil:
			// A disk handle whose size cannot be read stays kindOther:
			// a regular file of unknown size would cap a Reader's buffer.
		case info.directory:
			st.kind = kindDir
		default:
			st.kind, st.size = kindRegular, info.endOfFile
		}
	}
	return true
}

// isTerminal: GetConsoleMode succeeds, as in golang.org/x/term. (The C
// runtime's _isatty tests only for a character device, and so calls NUL
// a terminal.)
func isTerminal(fd uintptr) bool {
	var mode uint32
	return windows.GetConsoleMode(windows.Handle(fd), &mode) == nil
}

// descriptor: the C runtime's 0, 1 and 2 for the handles of standard
// input, output and error (package syscall's Stdin, Stdout and Stderr,
// which os.Stdin, os.Stdout and os.Stderr hold), the handle's value for
// any other. A parent may give one handle as two standard streams
// (Python's stderr=STDOUT does): standard error is tested first, so such a
// stream is unbuffered, as a plain Go program's output is.
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
