// The platform seam for Plan 9: see sys_linux.go. fstat is not wired up
// and no stream is a terminal; Plan 9's errors are strings, not numbers.

package stream

import "syscall"

// errSeekPipe is the Plan 9 kernel's error for a seek on a pipe (Eisstream).
const errSeekPipe = syscall.ErrorString("seek on a stream")

// sysErrno stands for an error number, which Plan 9 has none of: its
// errors are strings (syscall.ErrorString), so no error is ever one.
type sysErrno struct{}

func (sysErrno) Error() string { return "" }

// descriptor is fd itself: standard input, output and error are 0, 1
// and 2.
func descriptor(fd uintptr) int { return int(fd) }

// fstat is not wired up: every descriptor is treated as one whose fstat
// failed (BUFSIZ under the blksize and bufsiz policies).
func fstat(fd uintptr, st *fileStat) bool { return false }

func isTerminal(fd uintptr) bool { return false }
