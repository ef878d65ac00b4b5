// The report's Windows side (report.go): which character device is NUL,
// and where a handle leads.
//
// Windows has no /dev/null to compare a path with, and a handle's name is
// often not the one the program gave: a parent may redirect standard
// output to NUL, which package os still calls /dev/stdout. What tells NUL
// apart from a serial port or another character device that is no
// console is the device type of the handle, FILE_DEVICE_NULL, which
// NtQueryVolumeInformationFile(FileFsDeviceInformation) returns however
// NUL was opened. Where a disk file leads is what GetFinalPathNameByHandle
// says, as /proc/self/fd says it on Linux.
//
// Both calls are reached through package syscall's lazy procedures, so
// that this file builds unchanged as the standard library's bufio (which
// may not import golang.org/x/sys) and needs no twin in internal/stdseam.
// ntdll.dll and kernel32.dll are in every process before its first
// instruction runs: loading them by name finds those, not a file on the
// search path. They are looked up only while the report is on, once per
// stream listed.

package stream

import (
	"strings"
	"syscall"
	"unsafe"
)

// Windows' constants for the two calls.
const (
	fileFsDeviceInformation = 4    // FS_INFORMATION_CLASS FileFsDeviceInformation
	fileDeviceNull          = 0x15 // DEVICE_TYPE FILE_DEVICE_NULL
	volumeNameDOS           = 0    // GetFinalPathNameByHandle: a drive letter path
)

// fileFsDeviceInfo is FILE_FS_DEVICE_INFORMATION.
type fileFsDeviceInfo struct {
	deviceType      uint32
	characteristics uint32
}

// ioStatusBlock is IO_STATUS_BLOCK.
type ioStatusBlock struct {
	status      uintptr
	information uintptr
}

// reportWhat gives the report's kind and path for u, a stream's handle,
// from the kind its fstat gave and the path its Name gave: kind null and
// path NUL for the null device, and a disk file's or directory's final
// path.
func reportWhat(u any, kind, path string) (string, string) {
	if kind != "device" && kind != "file" && kind != "directory" {
		return kind, path
	}
	rc, ok := rawConn(u)
	if !ok {
		return kind, path
	}
	rc.Control(func(h uintptr) {
		if kind == "device" {
			if nullDevice(h) {
				kind, path = "null", "NUL" // os.DevNull, which this file may not import
			}
			return
		}
		if p := finalPath(h); p != "" {
			path = p
		}
	})
	return kind, path
}

// nullDevice reports whether handle h is NUL's.
func nullDevice(h uintptr) bool {
	proc := syscall.NewLazyDLL("ntdll.dll").NewProc("NtQueryVolumeInformationFile")
	if proc.Find() != nil {
		return false
	}
	var iosb ioStatusBlock
	var info fileFsDeviceInfo
	status, _, _ := syscall.SyscallN(proc.Addr(), h, uintptr(unsafe.Pointer(&iosb)),
		uintptr(unsafe.Pointer(&info)), unsafe.Sizeof(info), fileFsDeviceInformation)
	return status == 0 && info.deviceType == fileDeviceNull
}

// finalPath returns the path of the file handle h leads to, with a drive
// letter (C:\Users\me\out.txt) or as a UNC path (\\server\share\out.txt),
// or "" if Windows does not say.
func finalPath(h uintptr) string {
	proc := syscall.NewLazyDLL("kernel32.dll").NewProc("GetFinalPathNameByHandleW")
	if proc.Find() != nil {
		return ""
	}
	buf := make([]uint16, syscall.MAX_PATH)
	for {
		n, _, _ := syscall.SyscallN(proc.Addr(), h, uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)), volumeNameDOS)
		switch {
		case n == 0:
			return ""
		case n >= uintptr(len(buf)):
			// Too small: n is the size it needs, its final NUL included.
			buf = make([]uint16, n)
			continue
		}
		return dosPath(syscall.UTF16ToString(buf[:n]))
	}
}

// dosPath turns the final path Windows gives (\\?\C:\out.txt,
// \\?\UNC\server\share\out.txt) into the form a program would write.
func dosPath(p string) string {
	if rest, ok := strings.CutPrefix(p, `\\?\UNC\`); ok {
		return `\\` + rest
	}
	return strings.TrimPrefix(p, `\\?\`)
}
