package stream

import "os"

// fileStat is what doallocate needs from fstat(2).
type fileStat struct {
	blksize  int64 // st_blksize
	size     int64 // st_size
	regular  bool  // S_ISREG
	terminal bool  // a character device for which the terminal ioctl succeeds
}

// descriptorOf finds the file descriptor behind u, if u is an *os.File or
// has an Fd method. For an *os.File it uses SyscallConn rather than Fd,
// because Fd switches a non-blocking descriptor to blocking mode and so
// would change the file's behaviour (deadlines stop working).
//
// A net.Conn is deliberately not a descriptor here: it has no Fd method,
// and a socket gets exactly what bufio gives it.
func descriptorOf(u any) (control func(func(fd uintptr)) error, ok bool) {
	switch f := u.(type) {
	case *os.File:
		if f == nil {
			return nil, false
		}
		rc, err := f.SyscallConn()
		if err != nil {
			// Closed: still a descriptor stream, whose fstat fails.
			return func(func(uintptr)) error { return err }, true
		}
		return rc.Control, true
	case interface{ Fd() uintptr }:
		fd := f.Fd()
		if fd == ^uintptr(0) {
			return nil, false
		}
		return func(fn func(uintptr)) error { fn(fd); return nil }, true
	}
	return nil, false
}

// statDescriptor returns the descriptor number behind u and its fstat
// result (nil if fstat failed); isFD is false when u is not a descriptor.
func statDescriptor(u any) (fd int, st *fileStat, isFD bool) {
	control, ok := descriptorOf(u)
	if !ok {
		return -1, nil, false
	}
	// Locals, not the results: the closure moves what it captures to the
	// heap where it is declared, and results are declared on entry, so
	// every stream that is not a descriptor paid two allocations.
	d, s := -1, (*fileStat)(nil)
	err := control(func(fd uintptr) {
		d = int(fd)
		s = fstat(fd)
	})
	if err != nil {
		return -1, nil, true
	}
	return d, s, true
}

// isDescriptor reports whether u is a stream over a file descriptor,
// without a system call: the decision itself waits for the first I/O.
func isDescriptor(u any) bool {
	switch f := u.(type) {
	case *os.File:
		return f != nil
	case interface{ Fd() uintptr }:
		return true
	}
	return false
}
