//go:build stdiobuf_std

// This file is merged into package os's file_windows.go by `stdiobuf
// build -files`: what only Windows tells of an open file, for
// zz_stdiobuf_files.go and zz_stdiobuf_reads.go. A pipe as standard
// input stays plain (stdioPipeSys is nil: Windows has no tee(2)), and
// no file is a block device.

package os

import (
	"internal/syscall/windows"
	"unsafe"
)

func init() {
	stdioPlainKind = stdioWindowsPlainKind
	stdioReadPlainKind = stdioWindowsReadPlainKind
}

// stdioFileAccessInformation is NtQueryInformationFile's class that
// gives the access the handle was opened with (ntifs.h's
// FILE_INFORMATION_CLASS).
const stdioFileAccessInformation = 8

// stdioWindowsPlainKind is stdioPlainKind on Windows: f's handle was not
// opened for writing, or was opened to write through to the device
// (O_SYNC gives FILE_FLAG_WRITE_THROUGH) or around the cache, or cannot
// be asked.
func stdioWindowsPlainKind(f *File) bool {
	access, mode, ok := stdioWindowsAccess(f)
	return !ok || access&(windows.FILE_WRITE_DATA|windows.FILE_APPEND_DATA) == 0 ||
		mode&(windows.FILE_WRITE_THROUGH|windows.FILE_NO_INTERMEDIATE_BUFFERING) != 0
}

// stdioWindowsReadPlainKind is stdioReadPlainKind on Windows: f's handle
// was not opened for reading, or was opened around the cache, or cannot
// be asked.
func stdioWindowsReadPlainKind(f *File) bool {
	access, mode, ok := stdioWindowsAccess(f)
	return !ok || access&windows.FILE_READ_DATA == 0 || mode&windows.FILE_NO_INTERMEDIATE_BUFFERING != 0
}

// stdioWindowsAccess returns the access f's handle was opened with and
// its mode (FILE_WRITE_THROUGH, FILE_NO_INTERMEDIATE_BUFFERING, ...);
// ok is false where NtQueryInformationFile fails.
func stdioWindowsAccess(f *File) (access, mode uint32, ok bool) {
	h := f.pfd.Sysfd
	var iosb windows.IO_STATUS_BLOCK
	if err := windows.NtQueryInformationFile(h, &iosb, unsafe.Pointer(&access), uint32(unsafe.Sizeof(access)), stdioFileAccessInformation); err != nil {
		return 0, 0, false
	}
	if err := windows.NtQueryInformationFile(h, &iosb, unsafe.Pointer(&mode), uint32(unsafe.Sizeof(mode)), windows.FileModeInformation); err != nil {
		return 0, 0, false
	}
	return access, mode, true
}
