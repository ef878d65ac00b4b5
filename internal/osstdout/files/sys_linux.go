//go:build stdiobuf_std

// This file is merged into package os's sys_linux.go by `stdiobuf build
// -files`: what only Linux tells of an open file, for
// zz_stdiobuf_files.go and zz_stdiobuf_reads.go.

package os

import (
	"internal/syscall/unix"
	"syscall"
	_ "unsafe" // for go:linkname
)

func init() {
	stdioPlainKind = stdioLinuxPlainKind
	stdioReadPlainKind = stdioLinuxReadPlainKind
	stdioRdev = stdioLinuxRdev
}

// stdioLinuxPlainKind is stdioPlainKind on Linux: f is not open for
// writing, or open with O_SYNC, O_DSYNC or O_DIRECT (O_SYNC's bits
// include O_DSYNC's on Linux), or on a generated file system.
func stdioLinuxPlainKind(f *File) bool {
	return stdioLinuxKind(f, func(flags int) bool {
		return flags&syscall.O_ACCMODE == syscall.O_RDONLY || flags&(syscall.O_SYNC|syscall.O_DIRECT) != 0
	})
}

// stdioLinuxReadPlainKind is stdioReadPlainKind on Linux: f is not open
// read-only, or open with O_DIRECT, or on a generated file system.
func stdioLinuxReadPlainKind(f *File) bool {
	return stdioLinuxKind(f, func(flags int) bool {
		return flags&syscall.O_ACCMODE != syscall.O_RDONLY || flags&syscall.O_DIRECT != 0
	})
}

// stdioLinuxKind reports whether f must stay plain: fcntl(F_GETFL) fails
// or gives flags that plain rejects, or fstatfs(2) says its file system
// is one of stream's generated ones, whose files are made at each read.
func stdioLinuxKind(f *File, plain func(flags int) bool) bool {
	fd := f.pfd.Sysfd
	flags, err := unix.Fcntl(fd, syscall.F_GETFL, 0)
	if err != nil || plain(flags) {
		return true
	}
	return stdioGeneratedFS(uintptr(fd))
}

// stdioGeneratedFS is stream's generatedFS, which the bufio package os
// imports pushes as generatedFile (internal/osstdout/bufio/osfile.go).
//
//go:linkname stdioGeneratedFS bufio.generatedFile
func stdioGeneratedFS(fd uintptr) bool

// stdioLinuxRdev is stdioRdev on Linux: st_rdev of a block device.
func stdioLinuxRdev(fi FileInfo) (uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || fi.Mode()&ModeType != ModeDevice {
		return 0, false
	}
	return uint64(st.Rdev), true
}
