//go:build stdiobuf_std

// This file is added to package os by `stdiobuf build -stdout`: what
// comes around the system calls through which a program reaches a
// descriptor without its *File (package syscall, golang.org/x/sys/unix):
// an advisory lock, a duplicated, replaced or closed descriptor, a
// mapping. Package syscall's template (internal/osstdout/syscall) sends
// them here through the runtime; a *File whose descriptor is handed out
// (Fd, SyscallConn) becomes plain for good, since the program may then
// write, lock, map or read it raw.

package os

// Values of stdioDescriptor's op; package syscall's template declares
// the same.
const (
	stdioDescLock    = 1 // an advisory lock is about to change
	stdioDescDup     = 2 // a descriptor is about to be duplicated or replaced
	stdioDescMap     = 3 // descriptor fd is about to be mapped
	stdioDescChanged = 4 // a descriptor was duplicated, replaced or closed
)

// runtime_stdioRegisterDescriptor hands the runtime stdioDescriptor, which
// package syscall calls through it. Implemented in runtime.
func runtime_stdioRegisterDescriptor(func(op int, fd uintptr))

func init() { runtime_stdioRegisterDescriptor(stdioDescriptor) }

// stdioFDIdentity is the identity of the file descriptor fd leads to,
// and whether it is trusted; ok is false where the target gives none
// (set by the target's file, with stdioIDOf).
var stdioFDIdentity func(fd int) (id stdioFileID, ok bool)

// stdioDescriptor does what must come before (or, for stdioDescChanged,
// after) op on descriptor fd:
//   - a lock: another process that takes it next reads the files, and
//     may have changed them while the program did not hold it: every
//     buffer is written out, standard output's too, and every read
//     buffer, also of a file only the program opened, is given back;
//   - a dup, dup2, dup3 or F_DUPFD: the new descriptor may go anywhere,
//     as Fd's (everything written out), and afterwards, as after a
//     close of 0, 1 or 2, a descriptor may lead to another file: every
//     *File's identity, and standard output's, is decided again;
//   - a mapping: the map shows the file's bytes from now on, so the
//     file is written out and plain for every *File on it
//     (stdioFileSet.mapID).
func stdioDescriptor(op int, fd uintptr) {
	switch op {
	case stdioDescLock:
		stdioBeforePeerWrite()
		stdioHeard(nil)
	case stdioDescDup:
		stdioBeforePeerWrite()
	case stdioDescChanged:
		stdioIdentitiesChanged()
	case stdioDescMap:
		stdioMapping(int(fd))
	}
}

// stdioMapping comes before a mapping of fd. A file of unknown or
// untrusted identity cannot be found among the buffers: everything is
// written out, which the map sees, but a later buffered write to it is
// not (docs/files.md).
func stdioMapping(fd int) {
	if stdioFilesOn && stdioFDIdentity != nil {
		if id, ok := stdioFDIdentity(fd); ok {
			stdioFiles.mapID(id)
			return
		}
	}
	stdioBeforePeerWrite()
}

// mapID makes the file id plain: its buffered bytes are written out (and
// standard output's, where it is that file), the read buffer over it
// gives back what it holds, and neither it nor a later *File on the
// file gets a buffer (holds).
func (r *stdioFileSet) mapID(id stdioFileID) {
	r.idmu.Lock()
	if r.mapped == nil {
		r.mapped = make(map[stdioFileID]struct{})
	}
	r.mapped[id] = struct{}{}
	r.idmu.Unlock()
	r.writeOutID(id)
	o := r.owners(id)
	if o.w != nil {
		r.plain(o.w)
	}
	for _, b := range o.r {
		stdioReads.retire(b.f)
	}
}

// isMapped reports whether the file id was mapped.
func (x *stdioIDIndex) isMapped(id stdioFileID) bool {
	x.idmu.Lock()
	_, ok := x.mapped[id]
	x.idmu.Unlock()
	return ok
}

// plain writes out b and leaves its file unbuffered for good, as at
// exit; a write error no call can return now is reported (unseen).
func (r *stdioFileSet) plain(b *stdioFileBuf) {
	if ok, err := b.finishOut(stdioExitWait); ok && err != nil {
		b.unseen(err)
	}
	r.remove(b)
}

// stdioHandOutWhy is the report's reason for a file read or written
// plainly since stdioHandOut.
const stdioHandOutWhy = "descriptor handed out (Fd, SyscallConn; a bufio stream's decision takes it): plain from then on"

// stdioHandOut makes f plain for good before its descriptor is handed
// out by Fd or SyscallConn: whatever the program does with the number
// (write, lock, map, seek, pass it to a child or on a socket) then meets
// the file as plainly. Its write buffer is written out and its read
// buffer gives back its unread bytes. The standard files keep theirs
// (a terminal test of os.Stdin.Fd() is common; what comes of it is in
// docs/files.md).
func stdioHandOut(f *File) {
	if !stdioFilesOn || f == nil {
		return
	}
	if s := stdioOut; f == s.out || f == s.in || f == s.errf {
		return
	}
	stdioReads.retire(f)
	stdioReads.plain(f, stdioHandOutWhy)
	st := &f.stdioFile
	stdioFiles.mu.Lock()
	v := st.v.Load()
	if v != stdioFileBuffered {
		if v != stdioFilePlain {
			stdioPlainWhy(f, true, stdioHandOutWhy)
		}
		st.v.Store(stdioFilePlain)
	}
	stdioFiles.mu.Unlock()
	if v == stdioFileBuffered {
		stdioFiles.plain(f.stdioNotes.get().wbuf)
	}
}
