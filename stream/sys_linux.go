//go:build linux

// The platform seam.
//
// Every system call package stream makes beyond package syscall's
// portable names goes through the unexported functions and constants
// below, defined once per platform family by the files stream/sys_*.go:
//
//	sys_posix.go   every unix system and js/wasm: fstat, errSeekPipe and
//	               descriptor, with syscall
//	sys_linux.go   linux (and android)
//	sys_bsd.go     darwin (and ios), dragonfly, freebsd, netbsd, openbsd
//	sys_solaris.go illumos and solaris
//	sys_aix.go     aix
//	sys_js.go      js/wasm: no terminal test, a character device is one
//	sys_wasip1.go  wasip1: fstat from WASI's file type, and as js
//	sys_windows.go windows: handles, GetFileType, GetConsoleMode
//	sys_plan9.go   plan9: fstat is not wired up, no stream is a terminal
//
// A new GOOS fails to build until it has its file. Only these files import
// golang.org/x/sys (sys_linux.go, sys_bsd.go, sys_solaris.go, sys_aix.go,
// sys_windows.go). Each one that does has a twin of the same name in
// internal/stdseam, built on syscall and internal/syscall/* only, which
// replaces it when stream is compiled as the standard library's bufio. The
// rest of the package uses the seam and package syscall's names that exist
// on every platform it builds for (syscall.EINTR and friends in the
// Linux-only files).
//
// Every platform:
//
//	fstat(fd, *fileStat) bool       fstat(2): blksize, size, kind, dev, ino;
//	                                false if it fails or the platform has none
//	isTerminal(fd uintptr) bool     the terminal ioctl succeeds (isatty);
//	                                asked only of a character device
//	descriptor(fd uintptr) int      the number Info.Fd shows and the standard
//	                                stream rules test: fd, but on Windows 0,
//	                                1 and 2 for the standard handles
//	errSeekPipe                     the error of a seek on a pipe (ESPIPE)
//	sysErrno                        the type of an error number (syscall.Errno)
//
// Linux only, for the kernel copies (zerocopy_linux.go):
//
//	fileFlags(fd uintptr) (nonblock, appendMode, direct bool, err error)
//	                                fcntl(F_GETFL): O_NONBLOCK, O_APPEND, O_DIRECT
//	streamSocket(fd uintptr) bool   getsockopt(SO_TYPE) is SOCK_STREAM
//	copyFileRange(dst, src, n int) (int, error)
//	sendfile(dst, src, n int) (int, error)
//	splice(dst, src, n, flags int) (int, error)
//	spliceMove, spliceNonblock      SPLICE_F_MOVE, SPLICE_F_NONBLOCK
//	newPipe(size int) (r, w int, err error)
//	                                pipe2(O_NONBLOCK|O_CLOEXEC), then
//	                                F_SETPIPE_SZ size where allowed
//	pollReady(fd int, write, wait bool) (ready bool, err error)
//	                                poll(2) one descriptor for POLLIN or
//	                                POLLOUT, at once or until it is ready
//
// Linux only, for read-ahead (readahead.go); sys_notlinux.go answers
// false elsewhere:
//
//	generatedFS(fd uintptr) bool    fstatfs(2) names a file system whose
//	                                files' contents are made at each read
//	                                or by another process (proc, sysfs,
//	                                debugfs, tracefs, FUSE, ...), or fails
//
// The copies and pipe calls use the kernel's own offsets (nil offset
// arguments) and return what the system call did: a byte count, or a
// syscall.Errno with a count of zero or less.

package stream

import "golang.org/x/sys/unix"

// isTerminal: TCGETS succeeds, as in glibc's isatty.
func isTerminal(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), unix.TCGETS)
	return err == nil
}

func fileFlags(fd uintptr) (nonblock, appendMode, direct bool, err error) {
	flags, err := unix.FcntlInt(fd, unix.F_GETFL, 0)
	if err != nil {
		return false, false, false, err
	}
	return flags&unix.O_NONBLOCK != 0, flags&unix.O_APPEND != 0, flags&unix.O_DIRECT != 0, nil
}

func streamSocket(fd uintptr) bool {
	typ, err := unix.GetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_TYPE)
	return err == nil && typ == unix.SOCK_STREAM
}

func copyFileRange(dst, src, n int) (int, error) {
	return unix.CopyFileRange(src, nil, dst, nil, n, 0)
}

func sendfile(dst, src, n int) (int, error) {
	return unix.Sendfile(dst, src, nil, n)
}

const (
	spliceMove     = unix.SPLICE_F_MOVE
	spliceNonblock = unix.SPLICE_F_NONBLOCK
)

func splice(dst, src, n, flags int) (int, error) {
	m, err := unix.Splice(src, nil, dst, nil, n, flags)
	return int(m), err
}

func newPipe(size int) (r, w int, err error) {
	var p [2]int
	if err := unix.Pipe2(p[:], unix.O_NONBLOCK|unix.O_CLOEXEC); err != nil {
		return -1, -1, err
	}
	// The call fails past /proc/sys/fs/pipe-max-size for an unprivileged
	// process; the default 64 KiB pipe then still works.
	unix.FcntlInt(uintptr(p[0]), unix.F_SETPIPE_SZ, size)
	return p[0], p[1], nil
}

func pollReady(fd int, write, wait bool) (ready bool, err error) {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	if write {
		fds[0].Events = unix.POLLOUT
	}
	timeout := 0
	if wait {
		timeout = -1
	}
	_, err = unix.Poll(fds, timeout)
	return fds[0].Revents != 0, err
}

// generatedFS: f_type is one of these, whose magic numbers are the
// kernel's (include/uapi/linux/magic.h).
func generatedFS(fd uintptr) bool {
	var st unix.Statfs_t
	if err := unix.Fstatfs(int(fd), &st); err != nil {
		return true
	}
	switch uint32(st.Type) { // int32 on some architectures, uint32 on s390x
	case unix.PROC_SUPER_MAGIC, unix.SYSFS_MAGIC, unix.DEBUGFS_MAGIC, unix.TRACEFS_MAGIC,
		unix.SECURITYFS_MAGIC, unix.CGROUP_SUPER_MAGIC, unix.CGROUP2_SUPER_MAGIC,
		unix.BPF_FS_MAGIC, unix.EFIVARFS_MAGIC, unix.PSTOREFS_MAGIC, unix.FUSE_SUPER_MAGIC:
		return true
	}
	return false
}
