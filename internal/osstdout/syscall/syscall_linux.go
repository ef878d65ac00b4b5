//go:build stdiobuf_std

// This template is merged into package syscall's syscall_linux.go by
// `stdiobuf build -stdout`: the statement the generator inserts first in
// Syscall and Syscall6 (internal/osstdout's insertions) sends here the
// calls that change an advisory lock, what a descriptor leads to, or a
// mapping of a file, whether package syscall or golang.org/x/sys/unix
// (whose Syscall and Syscall6 jump to these) makes them, so that package
// os writes out and gives back its buffers first (stdioDescriptor there).

package syscall

import "unsafe"

// Values of runtime_stdioDescriptor's op; package os's
// zz_stdiobuf_descriptors.go declares the same.
const (
	stdioDescLock    = 1 // an advisory lock is about to change
	stdioDescDup     = 2 // a descriptor is about to be duplicated or replaced
	stdioDescMap     = 3 // descriptor fd is about to be mapped
	stdioDescChanged = 4 // a descriptor was duplicated, replaced or closed
)

// The fcntl commands that change a lock or duplicate a descriptor; the
// open file description locks' numbers are Linux's, which package
// syscall does not name.
const (
	stdioOFDSetlk  = 37 // F_OFD_SETLK
	stdioOFDSetlkw = 38 // F_OFD_SETLKW
)

// stdioSysDup2 is dup2's number where the architecture has one, and
// stdioSysMmap the number of the mmap package syscall's mmap calls (the
// target's templates set them); no trap has the default.
var (
	stdioSysDup2 = ^uintptr(0)
	stdioSysMmap = uintptr(SYS_MMAP)
)

// runtime_stdioDescriptor tells package os of op on descriptor fd, if
// the program links os. Implemented in runtime.
func runtime_stdioDescriptor(op int, fd uintptr)

// stdioTrapMask has the bit trap&63 set for each trap stdioTrapped may
// take: one test turns away almost every call (read, write, openat,
// fstat...) before stdioTrappedCall's compares. Numbers that share a
// bit cost only those compares.
var stdioTrapMask = stdioTrapBits(SYS_FLOCK, SYS_DUP, SYS_DUP3, SYS_CLOSE, SYS_MMAP, fcntl64Syscall, SYS_FCNTL)

// stdioTrapBits returns the bits of stdioTrapMask for the traps.
func stdioTrapBits(traps ...uintptr) uintptr {
	var m uintptr
	for _, t := range traps {
		m |= 1 << (t & 63)
	}
	return m
}

// stdioSetTraps sets the target's numbers of dup2 and of the mmap
// package syscall calls (the target's template calls it from init).
func stdioSetTraps(dup2, mmap uintptr) {
	stdioSysDup2, stdioSysMmap = dup2, mmap
	stdioTrapMask |= stdioTrapBits(dup2, mmap)
}

// stdioTrapped reports whether trap, with arguments a2 and a4, is one
// stdioTrap takes. It runs in every Syscall, inlined: one test of the
// mask for most calls.
//
//go:nosplit
func stdioTrapped(trap, a1, a2, a4 uintptr) bool {
	return stdioTrapMask&(1<<(trap&63)) != 0 && stdioTrappedCall(trap, a1, a2, a4)
}

// stdioTrappedCall is stdioTrapped's exact test: flock, an fcntl that
// sets a lock or duplicates, dup, dup2, dup3, a close of a standard
// descriptor (a1), a mapping of a file. The calls package os makes for
// every file it opens come first: its close, and the fcntl F_GETFL and
// F_SETFL that newFile makes.
//
//go:nosplit
func stdioTrappedCall(trap, a1, a2, a4 uintptr) bool {
	switch {
	case trap == SYS_CLOSE:
		return a1 <= 2
	case trap == fcntl64Syscall || trap == SYS_FCNTL:
		return a2 != F_GETFL && a2 != F_SETFL && (stdioLockCmd(a2) || a2 == F_DUPFD || a2 == F_DUPFD_CLOEXEC)
	case trap == SYS_FLOCK || trap == SYS_DUP || trap == SYS_DUP3 || trap == stdioSysDup2:
		return true
	case trap == stdioSysMmap:
		return a4&MAP_ANONYMOUS == 0
	}
	return false
}

// stdioLockCmd reports whether the fcntl command cmd sets or clears a
// lock (F_SETLK64 is F_SETLK on 64-bit targets).
//
//go:nosplit
func stdioLockCmd(cmd uintptr) bool {
	return cmd == F_SETLK || cmd == F_SETLKW || cmd == F_SETLK64 || cmd == F_SETLKW64 ||
		cmd == stdioOFDSetlk || cmd == stdioOFDSetlkw
}

// stdioTrap makes a call stdioTrapped took, telling package os before it
// and, for a descriptor's change, after it. Syscall's arguments may point
// into its caller's stack (uintptrkeepalive keeps the object alive, not
// in place), and the calls to os may grow and so move that stack: every
// argument stdioHooked passes on is a number, and fcntl's lock, whose
// third argument points to a Flock_t, is copied here, before anything
// that can grow the stack, and passed on by stdioLocked from its own
// frame. The kernel leaves a Flock_t of a set-lock command unchanged, so
// the copy needs no copying back.
//
//go:uintptrkeepalive
//go:nosplit
//go:norace
func stdioTrap(trap, a1, a2, a3, a4, a5, a6 uintptr) (r1, r2 uintptr, err Errno) {
	if (trap == fcntl64Syscall || trap == SYS_FCNTL) && stdioLockCmd(a2) {
		return stdioLocked(trap, a1, a2, *(*Flock_t)(unsafe.Pointer(a3)))
	}
	return stdioHooked(trap, a1, a2, a3, a4, a5, a6)
}

// stdioLocked sets or clears the lock lk with fcntl once os has written
// out its buffers.
func stdioLocked(trap, fd, cmd uintptr, lk Flock_t) (r1, r2 uintptr, err Errno) {
	runtime_stdioDescriptor(stdioDescLock, fd)
	return stdioSyscall6(trap, fd, cmd, uintptr(unsafe.Pointer(&lk)), 0, 0, 0)
}

// stdioHooked makes a call stdioTrapped took other than an fcntl lock.
func stdioHooked(trap, a1, a2, a3, a4, a5, a6 uintptr) (r1, r2 uintptr, err Errno) {
	switch trap {
	case SYS_FLOCK:
		runtime_stdioDescriptor(stdioDescLock, a1)
		return stdioSyscall6(trap, a1, a2, a3, a4, a5, a6)
	case stdioSysMmap:
		runtime_stdioDescriptor(stdioDescMap, a5)
		return stdioSyscall6(trap, a1, a2, a3, a4, a5, a6)
	case SYS_CLOSE:
		if a1 == 1 {
			runtime_stdioTryFlush()
		}
	default:
		runtime_stdioDescriptor(stdioDescDup, a1)
	}
	r1, r2, err = stdioSyscall6(trap, a1, a2, a3, a4, a5, a6)
	runtime_stdioDescriptor(stdioDescChanged, a1)
	return r1, r2, err
}

// stdioSyscall6 is Syscall6 without the trap check.
//
//go:uintptrkeepalive
//go:nosplit
func stdioSyscall6(trap, a1, a2, a3, a4, a5, a6 uintptr) (r1, r2 uintptr, err Errno) {
	runtime_entersyscall()
	r1, r2, err = RawSyscall6(trap, a1, a2, a3, a4, a5, a6)
	runtime_exitsyscall()
	return
}
