package stream

import (
	"syscall"
	"unsafe"
)

// fileStat is what a stream needs to know about its descriptor: what
// doallocate reads from fstat(2), and what the zero-copy code needs to
// choose a system call. The platform's fstat (sys_*.go) fills in the raw
// fields; statFile adds the derived ones.
type fileStat struct {
	blksize  int64 // st_blksize
	size     int64 // st_size
	regular  bool  // S_ISREG
	terminal bool  // a character device for which the terminal ioctl succeeds

	kind     fileKind // the file type bits of st_mode
	dev, ino uint64   // st_dev and st_ino: which file it is
}

// fileKind is the type of file a descriptor refers to, as far as
// buffering and the choice of a kernel copy go.
type fileKind uint8

const (
	kindOther   fileKind = iota // a block device, or a type this platform cannot tell
	kindRegular                 // S_IFREG
	kindDir                     // S_IFDIR
	kindChar                    // S_IFCHR: a terminal, /dev/null
	kindPipe                    // S_IFIFO
	kindSocket                  // S_IFSOCK
)

// statFile is fstat with what follows from it, into st; false if fstat
// failed or the platform has none. Only a character device can be a
// terminal, so only a character device pays the ioctl; /dev/null is one
// that is not a terminal, which the ioctl tells apart.
func statFile(fd uintptr, st *fileStat) bool {
	if !fstat(fd, st) {
		return false
	}
	st.regular = st.kind == kindRegular
	st.terminal = st.kind == kindChar && isTerminal(fd)
	return true
}

// A descriptor, in this package, is what a stream over a file wraps: an
// *os.File, or any value with an Fd method (a type embedding *os.File, a
// wrapper of a descriptor). A net.Conn is deliberately not one: it has no
// Fd method, and a socket stream gets exactly what bufio gives it.
//
// Being a descriptor decides buffering only: the size and mode come from
// fstat and the terminal test of the number behind the value. Bytes still
// go through the value's own Read and Write. A kernel copy, which moves
// bytes between descriptor numbers and so bypasses those methods, takes
// only concrete types whose methods are the descriptor's bytes (planCopy
// in zerocopy_linux.go), as package os's own copies do.
//
// The descriptor number is always reached the same way, by rawConn:
// through SyscallConn when the value has it, and only otherwise through Fd.
// os.File's Fd puts a non-blocking descriptor into blocking mode (its
// deadlines stop working and a read can hang for good), and so does it for
// every type that embeds *os.File; SyscallConn changes nothing.

// isDescriptor reports whether u is a stream over a file descriptor,
// without a system call: the decision itself waits for the first I/O.
//
// It names no type of package os (stdiobuf build -stdout compiles this
// package as the bufio that package os imports): an *os.File is a value
// with Fd and SyscallConn, and a nil one the value whose SyscallConn fails
// (only a nil *os.File's does; a closed file's fails later, in Control).
// sameValue reports whether a and b hold the same dynamic type and the
// same data word: for a pointer, the same pointer. Unlike ==, it never
// panics on a type that is not comparable; it may report false for equal
// values boxed apart, never true for different ones.
func sameValue(a, b any) bool {
	type eface struct{ typ, data unsafe.Pointer }
	return *(*eface)(unsafe.Pointer(&a)) == *(*eface)(unsafe.Pointer(&b))
}

func isDescriptor(u any) bool {
	if _, ok := u.(interface{ Fd() uintptr }); !ok {
		return false
	}
	if isOSFile(u) {
		return true // without SyscallConn, which allocates when called through an interface
	}
	if c, ok := u.(syscall.Conn); ok {
		_, err := c.SyscallConn()
		return err == nil
	}
	return true
}

// rawConn returns the access to the descriptor behind u: SyscallConn's
// RawConn if u is a syscall.Conn, else one built on u's Fd method. ok is
// false if u has neither, or is (or embeds) a nil *os.File, whose
// SyscallConn fails. A closed file's RawConn fails every call, so its
// fstat fails.
func rawConn(u any) (rc syscall.RawConn, ok bool) {
	switch f := u.(type) {
	case syscall.Conn:
		rc, err := f.SyscallConn()
		if err != nil {
			return nil, false
		}
		return rc, true
	case interface{ Fd() uintptr }:
		fd := f.Fd()
		if fd == ^uintptr(0) {
			return nil, false
		}
		return fdConn(fd), true
	}
	return nil, false
}

// fdConn is the RawConn of a value that offers only its descriptor
// number, for the buffering decision's fstat (Control). No poller waits
// for it, so Read and Write call f until it says it is done; no kernel
// copy uses them, since it takes only values with SyscallConn.
type fdConn uintptr

func (c fdConn) Control(f func(fd uintptr)) error { f(uintptr(c)); return nil }

func (c fdConn) Read(f func(fd uintptr) (done bool)) error {
	for !f(uintptr(c)) {
	}
	return nil
}

func (c fdConn) Write(f func(fd uintptr) (done bool)) error {
	for !f(uintptr(c)) {
	}
	return nil
}

// statDescriptor returns the descriptor number behind u and fills st
// from its fstat; statted is false if fstat failed, isFD false when u is
// not a descriptor. It allocates nothing over an *os.File
// (controlOSFile) or a value that is not a descriptor; over another
// descriptor, statConn may.
func statDescriptor(u any, st *fileStat) (fd int, statted, isFD bool) {
	if fd, ok := statKnown(u, st); ok {
		return fd, true, true
	}
	d, ok := -1, false
	isFile, err := controlOSFile(u, func(n uintptr) {
		d, ok = descriptor(n), statFile(n, st)
	})
	switch {
	case isFile && err != nil:
		return -1, false, true
	case isFile:
		return d, ok, true
	case !isDescriptor(u):
		return -1, false, false
	}
	rc, isConn := rawConn(u)
	if !isConn {
		return -1, false, false
	}
	if d, ok, err = statConn(rc, st); err != nil {
		return -1, false, true
	}
	return d, ok, true
}

// A knownStat is a descriptor whose owner made its fstat already and
// hands it on, so that the decision makes none of its own: package os
// under `stdiobuf build -files`, whose buffer of a regular file or a
// block device is decided from an fstat of the file, as standard
// output's is from the fstat that identifies it. StdiobufStat returns
// the descriptor and that fstat's fields, typ the file's type as ls -l
// shows it ('-' regular, 'b' block device, 'c' character device, 'p'
// FIFO, 's' socket), or ok false where it has none, and the decision
// fstats as for any descriptor. Only a character device may be a
// terminal: the decision still asks the descriptor that.
type knownStat interface {
	StdiobufStat() (fd uintptr, typ byte, size, blksize int64, dev, ino uint64, ok bool)
}

// statKnown fills st from u's own fstat, if u is a knownStat that has
// one.
func statKnown(u any, st *fileStat) (fd int, ok bool) {
	k, is := u.(knownStat)
	if !is {
		return -1, false
	}
	n, typ, size, blksize, dev, ino, ok := k.StdiobufStat()
	if !ok {
		return -1, false
	}
	*st = fileStat{blksize: blksize, size: size, dev: dev, ino: ino}
	switch typ {
	case '-':
		st.kind, st.regular = kindRegular, true
	case 'b':
		st.kind = kindOther
	case 'c':
		st.kind = kindChar
		st.terminal = isTerminal(n)
	case 'p':
		st.kind = kindPipe
	case 's':
		st.kind = kindSocket
	default:
		return -1, false
	}
	return descriptor(n), true
}

// statConn is statDescriptor through rc's Control. The closure and what it
// captures escape through the interface call, so they are statConn's own,
// and only st's copy reaches the caller's.
func statConn(rc syscall.RawConn, st *fileStat) (fd int, statted bool, err error) {
	d, ok := -1, false
	var s fileStat
	err = rc.Control(func(n uintptr) {
		d, ok = descriptor(n), statFile(n, &s)
	})
	*st = s
	return d, ok, err
}
