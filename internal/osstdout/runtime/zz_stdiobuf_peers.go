//go:build stdiobuf_std

// This file is added to package runtime by `stdiobuf build -stdout`: the
// channel by which package os hands internal/poll what must happen
// before a socket's reads and writes, and package syscall what must
// happen around a change of a lock, a descriptor or a mapping (neither
// can import os).

package runtime

import _ "unsafe" // for go:linkname

// stdioPeerHooks are os's stdioBeforePeerWrite and stdioBeforePeerRead,
// set once by os's init; nil in a program without package os.
var stdioPeerHooks struct {
	write, read func()
	heard       func()                   // os's stdioHeard of no file, after a socket's read and syscall.Wait4
	descriptor  func(op int, fd uintptr) // os's stdioDescriptor
}

//go:linkname os_stdioRegisterPeers os.runtime_stdioRegisterPeers
func os_stdioRegisterPeers(write, read, heard func()) {
	stdioPeerHooks.write, stdioPeerHooks.read, stdioPeerHooks.heard = write, read, heard
}

//go:linkname syscall_stdioHeard syscall.runtime_stdioHeard
func syscall_stdioHeard() {
	if f := stdioPeerHooks.heard; f != nil {
		f()
	}
}

//go:linkname poll_stdioAfterPeerRead internal/poll.runtime_stdioAfterPeerRead
func poll_stdioAfterPeerRead() {
	if f := stdioPeerHooks.heard; f != nil {
		f()
	}
}

//go:linkname poll_stdioBeforePeerWrite internal/poll.runtime_stdioBeforePeerWrite
func poll_stdioBeforePeerWrite() {
	if f := stdioPeerHooks.write; f != nil {
		f()
	}
}

//go:linkname poll_stdioBeforePeerRead internal/poll.runtime_stdioBeforePeerRead
func poll_stdioBeforePeerRead() {
	if f := stdioPeerHooks.read; f != nil {
		f()
	}
}

//go:linkname os_stdioRegisterDescriptor os.runtime_stdioRegisterDescriptor
func os_stdioRegisterDescriptor(f func(op int, fd uintptr)) { stdioPeerHooks.descriptor = f }

//go:linkname syscall_stdioDescriptor syscall.runtime_stdioDescriptor
func syscall_stdioDescriptor(op int, fd uintptr) {
	if f := stdioPeerHooks.descriptor; f != nil {
		f(op, fd)
	}
}
