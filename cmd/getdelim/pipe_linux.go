package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// pipeSize is what growPipe asks for: Linux's default pipe-max-size, the
// most an unprivileged process may set.
const pipeSize = 1 << 20

// growPipe enlarges the pipe behind f, if f is one, to pipeSize bytes. A
// pipe holds 64 KiB by default, so a writer that moves hundreds of
// megabytes with sendfile or splice (getdelim -c) blocks and is woken
// every 64 KiB, and waking up is most of what the copy then costs it
// (bench/zerocopy.sh measures it; its results are in bench/results). The
// bytes that come out are the same. The caller grows the pipe only for
// a copy known to be over twice its new size, so that a reader that goes
// away early still makes the copy fail with EPIPE and SIGPIPE, as head's
// does with the pipe as it was. Failure (not a pipe, or a limit lower
// than 1 MiB) leaves the pipe as it was.
func growPipe(f *os.File) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	rc.Control(func(fd uintptr) {
		var st unix.Stat_t
		if unix.Fstat(int(fd), &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFIFO {
			return
		}
		if size, err := unix.FcntlInt(fd, unix.F_GETPIPE_SZ, 0); err == nil && size < pipeSize {
			unix.FcntlInt(fd, unix.F_SETPIPE_SZ, pipeSize)
		}
	})
}
