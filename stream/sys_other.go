//go:build !unix && !plan9

// The portable fallback of the platform seam (windows, js/wasm, wasip1):
// see sys_linux.go.

package stream

import "syscall"

const errSeekPipe = syscall.ESPIPE

// fstat is not wired up: every descriptor is treated as one whose fstat
// failed (BUFSIZ under the blksize and bufsiz policies).
// sysErrno is the type of a system call's error number (std.go).
type sysErrno = syscall.Errno

func fstat(fd uintptr, st *fileStat) bool { return false }

func isTerminal(fd uintptr) bool { return false }
