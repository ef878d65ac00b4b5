// The platform seam for Plan 9: see sys_linux.go. It is the portable
// fallback of sys_other.go but for errSeekPipe, since Plan 9's errors are
// strings, not numbers.

package stream

import "syscall"

// errSeekPipe is the Plan 9 kernel's error for a seek on a pipe (Eisstream).
const errSeekPipe = syscall.ErrorString("seek on a stream")

// fstat is not wired up: every descriptor is treated as one whose fstat
// failed (BUFSIZ under the blksize and bufsiz policies).
func fstat(fd uintptr) *fileStat { return nil }

func isTerminal(fd uintptr) bool { return false }
