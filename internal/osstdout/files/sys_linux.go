//go:build stdiobuf_std

// This file is merged into package os's sys_linux.go by `stdiobuf build
// -files`: what only Linux tells of an open file, for
// zz_stdiobuf_files.go.

package os

import (
	"internal/syscall/unix"
	"syscall"
	_ "unsafe" // for go:linkname
)

func init() { stdioPlainKind = stdioLinuxPlainKind }

// stdioLinuxPlainKind is stdioPlainKind on Linux: fcntl(F_GETFL) says how
// f is open (O_SYNC's bits include O_DSYNC's on Linux), and fstatfs(2)
// whether its file system is one of stream's generated ones, whose
// files are made at each read.
func stdioLinuxPlainKind(f *File) bool {
	fd := f.pfd.Sysfd
	flags, err := unix.Fcntl(fd, syscall.F_GETFL, 0)
	if err != nil {
		return true
	}
	if flags&syscall.O_ACCMODE == syscall.O_RDONLY || flags&(syscall.O_SYNC|syscall.O_DIRECT) != 0 {
		return true
	}
	return stdioGeneratedFS(uintptr(fd))
}

// stdioGeneratedFS is stream's generatedFS, which the bufio package os
// imports pushes as generatedFile (internal/osstdout/bufio/osfile.go).
//
//go:linkname stdioGeneratedFS bufio.generatedFile
func stdioGeneratedFS(fd uintptr) bool
