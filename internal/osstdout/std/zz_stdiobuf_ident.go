//go:build stdiobuf_std

// This file is added to package os by `stdiobuf build -stdout`; it does
// something only in a build with -files (stdioFilesOn). It decides what
// an operation can see, so that the operation writes out only that: a
// file is named by its identity (device and inode; for a block device
// its device number), and an operation on a regular file or by a path
// writes out the buffer of the file it reaches, and standard output
// where that is the file, not every buffer.
//
// An identity is trusted where the file system gives one file one
// identity: a file system on a block device (ext4, XFS), tmpfs, btrfs.
// Where it may give one file two (overlayfs seen through its merged
// directory and through a layer, network and FUSE file systems), or the
// target cannot tell, an operation writes out every buffer, as
// stdioFilesFlush: a miss would break the causal rule, an extra write
// only costs a call.
//
// What still writes out everything: an operation on a pipe, a socket, a
// terminal or any file whose identity is not trusted or not known (a
// peer may be told through it), Fd and SyscallConn (the descriptor may
// go anywhere), the kernel copies, a signal, a child, exit.

package os

import (
	"sync"
	"sync/atomic"
)

// stdioFileID is a file's identity: st_dev and st_ino; for a block
// device, its st_rdev and ino stdioDeviceIno, whichever node names it.
type stdioFileID struct{ dev, ino uint64 }

// stdioDeviceIno is the ino of a block device's identity.
const stdioDeviceIno = ^uint64(0)

// stdioIDOf, where the target's own file sets it (Linux: its
// sys_linux.go), returns the identity of fi, a regular file or a block
// device, and its file system's device (st_dev); false where fi carries
// none. Where it is nil, no identity is known and every operation
// writes out everything.
var stdioIDOf func(fi FileInfo) (id stdioFileID, fsdev uint64, ok bool)

// stdioFSTrusted, set with stdioIDOf, reports whether the file system
// of device fsdev gives each file one identity; statfs tells its type
// where the device number does not. It may make a system call the first
// time it sees a device.
var stdioFSTrusted func(fsdev uint64, statfs stdioStatfsFrom) bool

// stdioFSKnown, set with stdioIDOf, reports whether stdioFSTrusted
// answers for device fsdev without a system call.
var stdioFSKnown func(fsdev uint64) bool

// stdioIdentOf, set with stdioIDOf, is stdioIDOf and as much of
// stdioFSTrusted as needs no system call, in one call, for the stat per
// record: fi's identity and file system device, and whether the identity
// is trusted (stdioIdentTrusted), not known (stdioIdentNone: fi is no
// regular file or block device, or carries no identity), or to be asked
// of stdioFSTrusted (stdioIdentAsk).
var stdioIdentOf func(fi FileInfo) (id stdioFileID, fsdev uint64, how uint8)

// Values of stdioIdentOf's how.
const (
	stdioIdentNone uint8 = iota
	stdioIdentAsk
	stdioIdentTrusted
)

// stdioStatfsFrom is where a file system's type can be asked: an open
// file (f), a descriptor (fd, where byFD), a path name (name), or
// nowhere (none of them). A value, not a func, so that a path operation
// that never asks allocates nothing.
type stdioStatfsFrom struct {
	f    *File
	name string
	fd   int
	byFD bool
}

// statfs sets *fstype to the file system's f_type.
func (a stdioStatfsFrom) statfs(fstype *int64) error {
	switch {
	case a.f != nil && stdioFstatfsType != nil:
		return stdioFstatfsType(a.f, fstype)
	case a.byFD && stdioFDStatfsType != nil:
		return stdioFDStatfsType(a.fd, fstype)
	case a.f == nil && !a.byFD && a.name != "" && stdioStatfsType != nil:
		return stdioStatfsType(a.name, fstype)
	}
	return ErrInvalid
}

// Values of stdioKindInfo's kind: what an operation on a *File can see.
const (
	stdioKindFile = iota + 1 // a regular file or a block device of trusted identity id: its own bytes
	stdioKindNone            // a directory: no buffered byte
	stdioKindAll             // a pipe, a socket, a terminal, an untrusted or unknown identity: anything
)

// stdioKindState is in every *File's notes (stdioFileNotes): what an
// operation on the file can see, decided once per *File (and again after
// a descriptor change, stdioIdentitiesChanged), by the first fstat any
// of the decisions makes or by one of its own while a buffer holds
// bytes.
//
// The first decision is kept in the notes themselves (first), so that a
// *File decided once (os.ReadFile of each file of a tree while a report
// holds bytes) costs one allocation, the notes'; a later one, after a
// descriptor change, is allocated (p).
type stdioKindState struct {
	first  stdioKindInfo                 // the first decision, once filled is stdioKindFilled; never changed after, but for its free
	filled atomic.Uint32                 // stdioKindEmpty, stdioKindFilling or stdioKindFilled: how far first is
	p      atomic.Pointer[stdioKindInfo] // a later decision; nil until one is made
}

// Values of stdioKindState's filled.
const (
	stdioKindEmpty = iota
	stdioKindFilling
	stdioKindFilled
)

// stdioKindInfo is a decision of stdioKindState.
type stdioKindInfo struct {
	kind uint32        // stdioKindFile, stdioKindNone or stdioKindAll
	id   stdioFileID   // with stdioKindFile
	info FileInfo      // the fstat that decided, which a buffer's decision takes instead of its own
	gen  uint32        // stdioKindGen when decided
	free atomic.Uint64 // with stdioKindFile: the index's gen+1 when id was found to have no buffer; 0 for not known
}

// stdioKindGen counts the changes of what descriptors lead to (a Dup2
// onto one, a Close of one): a decision of an earlier count is stale.
var stdioKindGen atomic.Uint32

// stdioIdentitiesChanged makes every *File's decision stale: a
// descriptor may lead to another file now. It also makes the index's
// notes stale (stdioIDIndex.gen): a file found to have no buffer may be
// standard output's now.
func stdioIdentitiesChanged() {
	stdioKindGen.Add(1)
	stdioFiles.gen.Add(1)
	stdioFiles.masks.Add(1)
}

// stdioKindGet returns f's decision, nil if there is none or it is
// stale.
func stdioKindGet(f *File) *stdioKindInfo {
	if f == nil {
		return nil
	}
	if n := f.stdioNotes.get(); n != nil {
		return n.kind.get()
	}
	return nil
}

// stat returns the fstat that decided, nil for no decision.
func (d *stdioKindInfo) stat() FileInfo {
	if d == nil {
		return nil
	}
	return d.info
}

// get returns the decision, nil if there is none or it is stale.
func (st *stdioKindState) get() *stdioKindInfo {
	gen := stdioKindGen.Load()
	if st.filled.Load() == stdioKindFilled && st.first.gen == gen {
		return &st.first
	}
	d := st.p.Load()
	if d == nil || d.gen != gen {
		return nil
	}
	return d
}

// decided stores d, a decision in storage from alloc, as the file's.
func (st *stdioKindState) decided(d *stdioKindInfo) {
	if d == &st.first {
		st.filled.Store(stdioKindFilled)
	} else {
		st.p.Store(d)
	}
}

// alloc returns the storage for a decision: first, once, then allocated.
func (st *stdioKindState) alloc() *stdioKindInfo {
	if st.filled.Load() == stdioKindEmpty && st.filled.CompareAndSwap(stdioKindEmpty, stdioKindFilling) {
		return &st.first
	}
	return new(stdioKindInfo)
}

// stdioKindOf returns what an operation on f can see, and f's identity
// with stdioKindFile, deciding with an fstat if no decision made one;
// where the target gives no identity, anything, with no fstat.
func stdioKindOf(f *File) (uint32, stdioFileID) {
	d := stdioKindInfoOf(f)
	if d == nil {
		return stdioKindAll, stdioFileID{}
	}
	return d.kind, d.id
}

// stdioKindInfoOf is stdioKindOf's decision itself; nil where it is
// anything (no identity on the target, or the fstat failed).
func stdioKindInfoOf(f *File) *stdioKindInfo {
	if f == nil || stdioIDOf == nil {
		return nil
	}
	if d := stdioKindGet(f); d != nil {
		return d
	}
	if f == stdioOut.out {
		// Standard output's fstat is outState's; its decision may wait
		// for the first operation that needs it (outState).
		if fi := stdioOut.outStat(); fi != nil {
			return stdioIdentify(f, fi)
		}
		return nil
	}
	fi, err := f.stdioRawStat()
	if err != nil {
		return nil
	}
	return stdioIdentify(f, fi)
}

// stdioIdentify records what an operation on f can see, from fi, f's
// fstat, unless it is decided, and returns the decision. A file whose
// file system may show it through another identity (stdioIdentTrust)
// counts as a peer.
func stdioIdentify(f *File, fi FileInfo) *stdioKindInfo {
	st := &f.stdioNotes.need().kind
	if d := st.get(); d != nil {
		return d
	}
	d := st.alloc()
	d.kind, d.info, d.gen = stdioKindAll, fi, stdioKindGen.Load()
	id, how := stdioIdentTrust(fi, stdioFstatfsOf(f))
	switch {
	case how == stdioIdentTrusted:
		d.kind, d.id = stdioKindFile, id
	case how == stdioIdentNone && fi.Mode().IsDir():
		d.kind = stdioKindNone
	}
	st.decided(d)
	return d
}

// stdioIdentTrust is stdioIdentOf where the target has one, with the
// file system asked (stdioFSTrusted, through statfs) where it must be:
// fi's identity and stdioIdentTrusted, or stdioIdentAsk for one not
// trusted, or stdioIdentNone for none known.
func stdioIdentTrust(fi FileInfo, statfs stdioStatfsFrom) (stdioFileID, uint8) {
	if stdioIdentOf == nil {
		return stdioFileID{}, stdioIdentNone
	}
	id, fsdev, how := stdioIdentOf(fi)
	if how == stdioIdentAsk && stdioFSTrusted(fsdev, statfs) {
		how = stdioIdentTrusted
	}
	return id, how
}

// stdioIDOfFile is stdioIDOf where the target has one.
func stdioIDOfFile(fi FileInfo) (stdioFileID, uint64, bool) {
	if stdioIDOf == nil || fi == nil {
		return stdioFileID{}, 0, false
	}
	return stdioIDOf(fi)
}

// stdioFstatfsType, set by the target's file, is fstatfs(2)'s f_type of
// f's file system.
var stdioFstatfsType func(f *File, fstype *int64) error

// stdioStatfsType, set by the target's file, is statfs(2)'s f_type of
// the file system of the path name.
var stdioStatfsType func(name string, fstype *int64) error

// stdioFDStatfsType, set by the target's file, is fstatfs(2)'s f_type
// of the file system of the descriptor fd.
var stdioFDStatfsType func(fd int, fstype *int64) error

// stdioFilesBefore comes before an operation on f that sees its offset
// or its bytes, or changes them (a plain Read or Write, Seek, Truncate,
// Sync, Close...): it writes out the buffer over f's file and gives back
// the read buffer over it, f's own among them, where f is a regular file
// or a block device of trusted identity; everything (stdioFilesFlush)
// where f is a peer or its identity is not known. With nothing buffered
// it costs two atomic loads, inlined (only -files makes either
// nonzero).
func stdioFilesBefore(f *File) {
	if stdioFiles.dirty.Load()|stdioReads.held.Load() != 0 {
		stdioFilesBeforeHeld(f)
	}
}

// stdioFresh reports whether f's open made its file (stdioOpenTrunc's
// O_EXCL) and no buffer was made nor descriptor changed since: then no
// buffer, standard output's included, is over its file, since every
// file they were over was there before it, and f needs no fstat to
// tell.
func stdioFresh(f *File) bool {
	if f == nil {
		return false
	}
	g := f.stdioNotes.fresh.Load()
	return g != 0 && g == stdioFiles.gen.Load()+1
}

// stdioClear reports whether a look at f found its identity's bit in
// the mask of no held file (stdioPathMask), and since then no mask
// gained a bit, no buffer was made and no descriptor changed
// (stdioFiles.masks), and no buffer over a file of untrusted identity
// holds bytes: then an operation on f has nothing to write out, and
// makes no look. A file opened, stat'ed, read and closed while a report
// holds bytes (os.ReadFile of each file of a tree) is looked at once.
func stdioClear(f *File) bool {
	if f == nil {
		return false
	}
	clear, _ := f.stdioNotes.clearAt(stdioFiles.masks.Load() + 1)
	return clear && stdioFiles.untrusted.Load() == 0
}

// stdioClearOfAll is stdioClear, and where read buffers hold bytes,
// also whether the look found f's file to have no buffer, write or
// read (the note's all; indexing a buffer adds to
// stdioFiles.masks, so the note goes stale with the first buffer made
// since): then no read buffer holds bytes of it either, and an operation
// on f has nothing to write out nor to give back. A file written per
// record while another is read through its buffer (a log line on
// standard error per record read) is looked up once, and then costs
// three loads an operation.
func stdioClearOfAll(f *File) bool {
	if f == nil {
		return false
	}
	clear, all := f.stdioNotes.clearAt(stdioFiles.masks.Load() + 1)
	return clear && stdioFiles.untrusted.Load() == 0 && (all || stdioReads.held.Load() == 0)
}

// stdioFilesBeforeHeld is stdioFilesBefore while a buffer holds bytes.
func stdioFilesBeforeHeld(f *File) {
	if stdioClearOfAll(f) || stdioFresh(f) {
		return
	}
	d := stdioKindInfoOf(f)
	k := uint32(stdioKindAll)
	if d != nil {
		k = d.kind
	}
	switch k {
	case stdioKindFile:
		if stdioFiles.untrusted.Load() != 0 {
			stdioFilesFlush()
			return
		}
		g := stdioFiles.masks.Load() + 1
		clean := !stdioMaskHas(stdioPathMask(), d.id)
		if clean {
			f.stdioNotes.setClear(g, false)
			if stdioReads.held.Load() == 0 {
				return
			}
		}
		o := stdioFiles.ownersOf(d)
		if clean && o.none() {
			f.stdioNotes.setClear(g, true)
		}
		stdioFiles.writeOutOwners(d.id, o)
		stdioReads.giveBackOwners(o)
	case stdioKindAll:
		stdioFilesFlush()
		if stdioMaybeBuffered(f) {
			// It may be a file a read buffer reads, which no identity
			// tells: every read buffer is given back, as for a peer
			// only the shared ones are.
			stdioReads.giveBackEach(func(*File) bool { return true })
		}
	}
}

// stdioMaybeBuffered reports whether f, whose identity is not trusted or
// not known, may be a file that a read buffer reads: not a pipe, a
// socket or a terminal, as far as its decision tells (on a target with
// no identities, any file).
func stdioMaybeBuffered(f *File) bool {
	if stdioIDOf == nil || f == nil {
		return true
	}
	d := stdioKindGet(f)
	return d == nil || d.info == nil || stdioBufferable(d.info.Mode())
}

// stdioFilesBeforeRead comes before an operation that reads f's bytes or
// metadata and not its offset (ReadAt, Stat): it writes out the buffer
// over f's file, and standard output where it is that file; everything
// where f's identity is not known; it gives nothing back. It reports
// whether it wrote anything.
func stdioFilesBeforeRead(f *File) bool {
	g := stdioFiles.masks.Load() + 1
	m := stdioPathMask()
	if m == 0 || stdioClear(f) {
		return false
	}
	return stdioFilesBeforeReadHeld(f, m, g)
}

// stdioFilesBeforeReadHeld is stdioFilesBeforeRead past its test: m is
// the mask of held files and g the mask count+1, both loaded before it.
func stdioFilesBeforeReadHeld(f *File, m, g uint64) bool {
	switch d := stdioKindInfoOf(f); {
	case d != nil && d.kind == stdioKindFile && stdioFiles.untrusted.Load() == 0 && !stdioOut.outUntrusted():
		if !stdioMaskHas(m, d.id) {
			f.stdioNotes.setClear(g, false)
			return false
		}
		return stdioFiles.writeOutOwners(d.id, stdioFiles.ownersOf(d))
	case d != nil && d.kind == stdioKindNone:
	default:
		stdioWriteOutAll()
		return true
	}
	return false
}

// stdioStatFile is (*File).Stat's fstat, run so that its result is the
// plain build's: where f's identity is decided, f's file is written out
// first; where not, the fstat runs first and decides it, and runs again
// only if f's file was then written out.
func stdioStatFile(f *File) (FileInfo, error) {
	g := stdioFiles.masks.Load() + 1
	m := stdioPathMask()
	if m == 0 || stdioClear(f) {
		return f.stdioRawStat()
	}
	if stdioKindGet(f) != nil || stdioIDOf == nil {
		stdioFilesBeforeReadHeld(f, m, g)
		return f.stdioRawStat()
	}
	fi, err := f.stdioRawStat()
	if err != nil {
		return fi, err
	}
	if stdioStatClear(f, fi, m, g) {
		return fi, nil
	}
	stdioIdentify(f, fi)
	if stdioFilesBeforeReadHeld(f, m, g) {
		return f.stdioRawStat()
	}
	return fi, nil
}

// stdioStatClear notes f clear (stdioClear) from fi, its fstat, begun
// at mask count g-1 with m the mask of held files, without deciding f,
// where no later operation on f would want the decision: the program
// opened f read-only (no write buffer's decision will take fi instead
// of an fstat of its own), no read buffer holds bytes (an operation on
// f would then ask the decision whether one is over f's file), and fi's
// identity is trusted and in no held file's mask. os.ReadFile of each
// file of a tree while a report holds bytes then allocates what it does
// plainly. It reports whether it noted f clear.
func stdioStatClear(f *File, fi FileInfo, m, g uint64) bool {
	if flags, opened := f.stdioFile.opened(); !opened || flags&(O_WRONLY|O_RDWR) != 0 || stdioReads.held.Load() != 0 {
		return false
	}
	if stdioFiles.untrusted.Load() != 0 || stdioOut.outUntrusted() {
		return false
	}
	id, how := stdioIdentTrust(fi, stdioFstatfsOf(f))
	if how != stdioIdentTrusted || stdioMaskHas(m, id) {
		return false
	}
	f.stdioNotes.setClear(g, false)
	return true
}

// stdioTruncated comes after f, name, was opened with O_TRUNC: if the
// open reached a file whose buffer, or standard output, held bytes, the
// plain build had written them before the open truncated them away; so
// they are written out now and f is truncated again, which leaves the
// file and every offset where the plain build leaves them. The fstat
// this costs, while a buffer holds bytes, is the one f's first Write
// would make to decide f (stdioKindState's info).
func stdioTruncated(f *File) {
	if !stdioPathDirty() {
		return
	}
	fi, err := f.stdioRawStat()
	if err != nil {
		return
	}
	stdioIdentify(f, fi)
	if stdioSeen(fi, stdioFstatfsOf(f)) {
		f.stdioRawTruncate(0)
	}
}

// stdioWriteOutOne writes out the one file whose bytes are held, where
// only one is (a generator's log while it writes file after file, a
// report while the program renames what it reported): one call, as the
// stat or fstat that tells whether an operation reaches that file would
// be, and the buffer's later write when full is spared, so that the
// program makes no more calls than the plain build. With two files held
// or more, the one stat costs less. It reports whether nothing is held
// now.
func stdioWriteOutOne() bool {
	if !stdioPathDirty() {
		return true
	}
	n := stdioFiles.dirty.Load()
	if stdioOut.regularPending() {
		n++
	}
	if n != 1 {
		return false
	}
	stdioWriteOutAll()
	return !stdioPathDirty()
}

// stdioShowsNoOther reports whether a write to f, standard output's
// flush, shows no buffered byte of another file: nothing is buffered,
// or f is a regular file of trusted identity, whose bytes only a poller
// sees (a reader that waits for a line of the file sees the others
// within the bound, as a poller of them would).
func stdioShowsNoOther(f *File) bool {
	if !stdioFilesOn || stdioFiles.dirty.Load() == 0 && stdioReads.held.Load() == 0 {
		return true
	}
	k, _ := stdioKindOf(f)
	return k == stdioKindFile && stdioFiles.untrusted.Load() == 0
}

// stdioPathDirty reports whether a path operation may have anything to
// write out: a buffer holds bytes, or standard output, a regular file,
// does.
func stdioPathDirty() bool { return stdioPathMask() != 0 }

// stdioPathMask is the identity bits (stdioIDBit) of the files a path
// operation may have to write out: those of the write buffers that hold
// bytes, and standard output's while it holds bytes and is a regular
// file; every bit where one of them has no trusted identity; 0 where
// nothing is held. With nothing held it reads the file set's two words
// and nothing else.
func stdioPathMask() uint64 {
	if !stdioFilesOn {
		return 0
	}
	var m uint64
	if stdioFiles.dirty.Load() != 0 {
		m = stdioFiles.owedMask.Load()
	}
	if stdioFiles.outHeld.Load() {
		m |= stdioOut.pathBits()
	}
	return m
}

// stdioWriteOutAll writes out every write buffer and standard output
// where it is a regular file: what a path operation that cannot tell
// what it reaches writes out. Read buffers stay: no path shows an
// offset.
func stdioWriteOutAll() {
	stdioFilesWriteOut()
	if stdioOut.regularPending() {
		stdioOut.flushOrdered(0)
	}
}

// stdioSeen writes out what an operation that found fi can have seen of
// a buffered file: the buffer over the same file, and standard output
// where it is that file; everything where fi's identity is not trusted.
// statfs asks fi's file system its type where the device does not tell
// (stdioNoStatfs: it cannot be asked). It reports whether it wrote
// anything, so that the operation runs again and finds what the plain
// build finds. A file whose identity's bit is not in stdioPathMask is
// none of them: a stat per record while a report's buffer or standard
// output holds bytes reads nothing more for another file.
func stdioSeen(fi FileInfo, statfs stdioStatfsFrom) bool {
	return stdioSeenIn(stdioPathMask(), fi, statfs)
}

// stdioSeenIn is stdioSeen with the mask m that a stat per record took
// before it ran: what happened before the stat is in it, and a buffer
// that began to hold bytes during the stat is no more ordered before
// it than after it.
func stdioSeenIn(m uint64, fi FileInfo, statfs stdioStatfsFrom) bool {
	if m == 0 || fi == nil {
		return false
	}
	id, how := stdioIdentTrust(fi, statfs)
	switch {
	case how == stdioIdentTrusted:
		return stdioMaskHas(m, id) && stdioFiles.writeOutID(id)
	case how == stdioIdentNone && !stdioBufferable(fi.Mode()):
		// stdioIdentOf knows every file stdioBufferable takes that
		// carries an identity: the mode is asked only here.
		return false
	}
	stdioWriteOutAll()
	return true
}

// stdioNoStatfs is stdioSeen's statfs where no path can be asked.
func stdioNoStatfs() stdioStatfsFrom { return stdioStatfsFrom{} }

// stdioFstatfsOf is stdioSeen's statfs for an open file, f.
func stdioFstatfsOf(f *File) stdioStatfsFrom { return stdioStatfsFrom{f: f} }

// stdioStatfsOf is stdioSeen's statfs for a path name.
func stdioStatfsOf(name string) stdioStatfsFrom { return stdioStatfsFrom{name: name} }

// stdioStatRun runs stat, an operation that returns a file's metadata
// (Stat, Lstat, a Root's; statfs asks its file system's type), and runs
// it again where what it found was a buffered file that it wrote out
// meanwhile, so that the result is the plain build's; it costs a second
// call only then. Where a buffer over a file of untrusted identity holds
// bytes, everything is written out first instead.
func stdioStatRun(statfs stdioStatfsFrom, stat func() (FileInfo, error)) (FileInfo, error) {
	return stdioStatRunIn(stdioPathMask(), statfs, stat)
}

// stdioStatRunIn is stdioStatRun with stdioPathMask taken already (m):
// Stat and Lstat take it once to tell whether anything is held.
func stdioStatRunIn(m uint64, statfs stdioStatfsFrom, stat func() (FileInfo, error)) (FileInfo, error) {
	if m == 0 || stdioStatAllFirst(m) {
		return stat()
	}
	fi, err := stat()
	if err == nil && stdioSeenIn(m, fi, statfs) {
		return stat()
	}
	return fi, err
}

// stdioStatAllFirst writes out everything before a stat taken with the
// mask m, where a buffer over a file of untrusted identity holds bytes,
// and reports whether it did: then the stat finds what the plain build
// finds, and what it finds needs no look (stdioSeenIn).
func stdioStatAllFirst(m uint64) bool { return m == ^uint64(0) && stdioWriteOutUntrusted() }

// stdioWriteOutUntrusted writes out everything where a buffer over a file
// of untrusted identity, or standard output of one, holds bytes, and
// reports whether it did.
func stdioWriteOutUntrusted() bool {
	if stdioFiles.untrusted.Load() == 0 && !stdioOut.outUntrusted() {
		return false
	}
	stdioWriteOutAll()
	return true
}

// stdioBeforeName comes before an operation that changes or names the
// file a path reaches (Rename, Link, Remove, Truncate, Chmod...): stat,
// the path's stat (following a symbolic link or not, as the operation
// does), tells the file, and its buffer is written out; nothing where
// the path reaches no file. It costs the stat only while
// two buffers or more hold bytes; while one does, it writes that one out
// instead (stdioWriteOutOne).
func stdioBeforeName(statfs stdioStatfsFrom, stat func() (FileInfo, error)) {
	if stdioWriteOutOne() {
		return
	}
	if stdioFiles.untrusted.Load() != 0 || stdioOut.outUntrusted() {
		stdioWriteOutAll()
		return
	}
	fi, err := stat()
	if err != nil {
		if !IsNotExist(err) {
			stdioWriteOutAll()
		}
		return
	}
	stdioSeen(fi, statfs)
}

// outUntrusted reports whether standard output is a regular file whose
// identity is not trusted: a path operation cannot tell whether it
// reaches it.
func (s *stdioStream) outUntrusted() bool {
	if !s.regularPending() {
		return false
	}
	k, _ := stdioKindOf(s.out)
	return k != stdioKindFile
}

// writeOutID writes out the buffer over the file id, and standard output
// where it is that file, and reports whether either held bytes.
func (r *stdioFileSet) writeOutID(id stdioFileID) bool {
	var o stdioOwners
	if r.dirty.Load() != 0 && r.mayOwe(id) {
		o = r.owners(id)
	}
	return r.writeOutOwners(id, o)
}

// writeOutOwners is writeOutID with the buffers over the file id looked
// up already (o).
func (r *stdioFileSet) writeOutOwners(id stdioFileID, o stdioOwners) bool {
	wrote := false
	if r.dirty.Load() != 0 {
		if b := o.w; b != nil && b.pending.Load() && b.lockIdle(0) {
			if !b.direct && b.w.Buffered() > 0 {
				b.flushOut()
				wrote = true
			}
			b.mu.Unlock()
		}
	}
	if s := stdioOut; s.regularPending() {
		if k, oid := stdioKindOf(s.out); k == stdioKindFile && oid == id {
			s.flushOrdered(0)
			wrote = true
		}
	}
	return wrote
}

// stdioOwners are the buffers over one file: its write buffer, or the
// read buffers of the *Files that read it, one each (no file is buffered
// for reading and for writing at once). r is replaced, never changed in
// place: a copy that owners returned stays as it was.
type stdioOwners struct {
	w *stdioFileBuf
	r []*stdioReadBuf
}

// none reports whether o holds no buffer.
func (o stdioOwners) none() bool { return o.w == nil && len(o.r) == 0 }

// stdioIDIndex is the buffers by the identity of their files, and the
// write buffers that hold bytes: what an operation looks up in O(1)
// whatever the number of open files.
type stdioIDIndex struct {
	idmu      sync.Mutex                  // guards ids and owed; never held across a system call
	ids       map[stdioFileID]stdioOwners // the buffers by their file's identity
	gen       atomic.Uint64               // how many times ids gained a buffer, or a descriptor changed (stdioIdentitiesChanged)
	owed      map[*stdioFileBuf]struct{}  // the write buffers that hold bytes
	owedBits  [stdioNoIDBit + 1]int32     // how many of owed have each idBit; guarded by idmu
	owedMask  atomic.Uint64               // bit k set where owedBits[k] > 0; every bit where owedBits[stdioNoIDBit] > 0; written under idmu
	masks     atomic.Uint64               // how many times owedMask or standard output's hold gained bits, ids gained a buffer, or a descriptor changed; added to after the change
	untrusted atomic.Int32                // how many of owed are over a file of untrusted identity
	mapped    map[stdioFileID]struct{}    // the files the program mapped: plain for every *File (mapID)
}

// index records b, a write or a read buffer over the file id, for
// lookups by identity. The caller holds stdioFiles.mu.
func (x *stdioIDIndex) index(id stdioFileID, w *stdioFileBuf, r *stdioReadBuf) {
	x.idmu.Lock()
	if x.ids == nil {
		x.ids = make(map[stdioFileID]stdioOwners)
	}
	o := x.ids[id]
	if w != nil {
		o.w = w
	}
	if r != nil {
		o.r = append(o.r[:len(o.r):len(o.r)], r)
	}
	x.ids[id] = o
	x.gen.Add(1)
	x.masks.Add(1)
	x.idmu.Unlock()
}

// unindex takes b, a write or a read buffer over the file id, out of the
// index, if it is there.
func (x *stdioIDIndex) unindex(id stdioFileID, w *stdioFileBuf, r *stdioReadBuf) {
	x.idmu.Lock()
	o, ok := x.ids[id]
	if ok {
		if w != nil && o.w == w {
			o.w = nil
		}
		if r != nil {
			o.r = stdioWithout(o.r, r)
		}
		if o.none() {
			delete(x.ids, id)
		} else {
			x.ids[id] = o
		}
	}
	x.idmu.Unlock()
}

// owners returns the buffers over the file id.
func (x *stdioIDIndex) owners(id stdioFileID) stdioOwners {
	x.idmu.Lock()
	o := x.ids[id]
	x.idmu.Unlock()
	return o
}

// ownersOf is owners of d's file, d a decision of kind stdioKindFile,
// without the lock while d's file was found to have no buffer and no
// buffer was indexed since: a file opened only to be read, stat'ed and
// closed (os.ReadFile of each file of a tree) is looked up once, not at
// each of its operations. gen is loaded before the lookup, and index
// adds to it under idmu after adding its buffer, so a buffer indexed
// during the lookup either is found or makes the note stale.
func (x *stdioIDIndex) ownersOf(d *stdioKindInfo) stdioOwners {
	g := x.gen.Load() + 1
	if d.free.Load() == g {
		return stdioOwners{}
	}
	o := x.owners(d.id)
	if o.none() {
		d.free.Store(g)
	}
	return o
}

// stdioWithout returns rs without b, in a new slice if b is in it.
func stdioWithout(rs []*stdioReadBuf, b *stdioReadBuf) []*stdioReadBuf {
	for i, x := range rs {
		if x == b {
			out := make([]*stdioReadBuf, 0, len(rs)-1)
			out = append(out, rs[:i]...)
			return append(out, rs[i+1:]...)
		}
	}
	return rs
}

// stdioNoIDBit is the idBit of a buffer over a file of no known
// identity.
const stdioNoIDBit = 64

// stdioIDBit is the bit of owedMask that stands for id.
func stdioIDBit(id stdioFileID) uint8 { return uint8((id.ino ^ id.dev) & 63) }

// stdioMaskHas reports whether mask (stdioPathMask's) has id's bit:
// false means no write buffer over id, nor standard output if it is id,
// holds bytes. A file opened, read and closed per record while a report
// holds bytes (os.ReadFile of each file of a tree) then looks nothing up.
func stdioMaskHas(mask uint64, id stdioFileID) bool { return mask&(1<<stdioIDBit(id)) != 0 }

// mayOwe reports whether a write buffer over the file id may hold bytes:
// false means none does, at the cost of one atomic load. A stat per
// record while a report's buffer holds bytes (a walker, a stat list)
// finds other files, and takes no lock to learn it.
func (x *stdioIDIndex) mayOwe(id stdioFileID) bool {
	return stdioMaskHas(x.owedMask.Load(), id)
}

// owe records whether b holds bytes (stdioBuffer.setPending's change).
// owedMask changes before setPending changes the count of buffers that
// hold bytes (stdioFileSet.dirty), so an operation that finds the count
// nonzero because of b finds b's bit.
func (x *stdioIDIndex) owe(b *stdioFileBuf, v bool) {
	x.idmu.Lock()
	if v {
		if x.owed == nil {
			x.owed = make(map[*stdioFileBuf]struct{})
		}
		x.owed[b] = struct{}{}
		x.owedBits[b.idBit]++
		if x.owedBits[b.idBit] == 1 {
			x.owedMask.Store(x.owedBitsMask())
			x.masks.Add(1)
		}
	} else if _, ok := x.owed[b]; ok {
		delete(x.owed, b)
		x.owedBits[b.idBit]--
		if x.owedBits[b.idBit] == 0 {
			x.owedMask.Store(x.owedBitsMask())
		}
	}
	x.idmu.Unlock()
	if !b.trusted {
		if v {
			x.untrusted.Add(1)
		} else {
			x.untrusted.Add(-1)
		}
	}
}

// owedBitsMask is owedMask as owedBits make it. The caller holds idmu.
func (x *stdioIDIndex) owedBitsMask() uint64 {
	if x.owedBits[stdioNoIDBit] > 0 {
		return ^uint64(0)
	}
	var m uint64
	for k, n := range x.owedBits[:stdioNoIDBit] {
		if n > 0 {
			m |= 1 << k
		}
	}
	return m
}

// owing returns the write buffers that hold bytes.
func (x *stdioIDIndex) owing() []*stdioFileBuf {
	x.idmu.Lock()
	bs := make([]*stdioFileBuf, 0, len(x.owed))
	for b := range x.owed {
		bs = append(bs, b)
	}
	x.idmu.Unlock()
	return bs
}

// giveBackOwners gives back each read buffer of o, the buffers over one
// file, that holds bytes: a plain write or a Seek through any *File on
// the file comes next.
func (r *stdioReadSet) giveBackOwners(o stdioOwners) {
	if r.held.Load() == 0 {
		return
	}
	for _, b := range o.r {
		if b.held.Load() {
			b.mu.Lock()
			b.giveBack(false)
			b.mu.Unlock()
		}
	}
}
