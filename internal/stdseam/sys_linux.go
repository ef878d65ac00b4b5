//go:build stdiobuf_std && linux

// The platform seam for Linux inside the standard library: the twin of
// stream/sys_linux.go, which documents each function.

package bufio

import (
	"internal/syscall/unix"
	"syscall"
	"unsafe"
)

// isTerminal: TCGETS succeeds, as in glibc's isatty.
func isTerminal(fd uintptr) bool {
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCGETS, uintptr(unsafe.Pointer(&t)))
	return errno == 0
}

func fileFlags(fd uintptr) (nonblock, appendMode, direct bool, err error) {
	flags, err := unix.Fcntl(int(fd), syscall.F_GETFL, 0)
	if err != nil {
		return false, false, false, err
	}
	return flags&syscall.O_NONBLOCK != 0, flags&syscall.O_APPEND != 0, flags&syscall.O_DIRECT != 0, nil
}

func streamSocket(fd uintptr) bool {
	typ, err := syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_TYPE)
	return err == nil && typ == syscall.SOCK_STREAM
}

func copyFileRange(dst, src, n int) (int, error) {
	return unix.CopyFileRange(src, nil, dst, nil, n, 0)
}

func sendfile(dst, src, n int) (int, error) {
	return syscall.Sendfile(dst, src, nil, n)
}

// Package syscall lacks the SPLICE_F_ names; these are the kernel's.
const (
	spliceMove     = 0x1
	spliceNonblock = 0x2
)

func splice(dst, src, n, flags int) (int, error) {
	m, err := syscall.Splice(src, nil, dst, nil, n, flags)
	return int(m), err // int64 on 64-bit systems, int on the others
}

func newPipe(size int) (r, w int, err error) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_NONBLOCK|syscall.O_CLOEXEC); err != nil {
		return -1, -1, err
	}
	// The call fails past /proc/sys/fs/pipe-max-size for an unprivileged
	// process; the default 64 KiB pipe then still works.
	unix.Fcntl(p[0], syscall.F_SETPIPE_SZ, size)
	return p[0], p[1], nil
}

// pollFd is struct pollfd; package syscall has no poll on Linux.
type pollFd struct {
	fd      int32
	events  int16
	revents int16
}

const (
	pollIn  = 0x1 // POLLIN
	pollOut = 0x4 // POLLOUT
)

// pollReady polls with ppoll(2), which every Linux architecture has (the
// newer ones lack poll).
func pollReady(fd int, write, wait bool) (ready bool, err error) {
	p := pollFd{fd: int32(fd), events: pollIn}
	if write {
		p.events = pollOut
	}
	timeout := new(syscall.Timespec) // zero: return at once
	if wait {
		timeout = nil // no time limit
	}
	_, _, errno := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&p)), 1, uintptr(unsafe.Pointer(timeout)), 0, 0, 0)
	if errno != 0 {
		return false, errno
	}
	return p.revents != 0, nil
}

// The file systems of generatedFS, by the kernel's magic numbers
// (include/uapi/linux/magic.h); package syscall has none of them.
const (
	procMagic       = 0x9fa0
	sysfsMagic      = 0x62656572
	debugfsMagic    = 0x64626720
	tracefsMagic    = 0x74726163
	securityfsMagic = 0x73636673
	cgroupMagic     = 0x27e0eb
	cgroup2Magic    = 0x63677270
	bpfMagic        = 0xcafe4a11
	efivarfsMagic   = 0xde5e81e4
	pstoreMagic     = 0x6165676c
	fuseMagic       = 0x65735546
)

func generatedFS(fd uintptr) bool {
	var st syscall.Statfs_t
	if err := syscall.Fstatfs(int(fd), &st); err != nil {
		return true
	}
	switch uint32(st.Type) { // int32 on some architectures, uint32 on s390x
	case procMagic, sysfsMagic, debugfsMagic, tracefsMagic, securityfsMagic, cgroupMagic,
		cgroup2Magic, bpfMagic, efivarfsMagic, pstoreMagic, fuseMagic:
		return true
	}
	return false
}
