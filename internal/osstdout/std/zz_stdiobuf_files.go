//go:build stdiobuf_std

// This file is added to package os by `stdiobuf build -stdout`; it does
// something only in a build with -files (stdioFilesOn). Every regular
// file (or block device) the program writes then gets a buffer of its
// own, a stdioBuffer as standard output's, decided at its first Write: a
// regular file or a block device that is not one of the standard files,
// opened for writing without O_SYNC, O_DSYNC or O_DIRECT, on a file
// system that is not generated (/proc, /sys: stdioPlainKind), and not the
// same file as standard output or as a file that has a buffer already
// (stdioSameFile: device and inode, or a block device's device number).
// The bufio.Writer over it (stream, under the overlay) decides its size
// by the policy, as for any file.
//
// The causal rule: before anything through which another process, or the
// program by another route, can see a file, that file's buffer is
// written out, and before anything through which a peer can be told,
// every buffer (zz_stdiobuf_ident.go decides which: a call on a regular
// file or a path operation sees that file; a write to a pipe or a
// terminal, how a program tells a peer that a file is ready, a signal
// sent, a child started, sees everything); and at exit, a panic, main's
// Goexit and a fatal signal (the runtime's hooks, zz_stdiobuf_hooks.go). Only an observer that
// polls a file without hearing from the program sees a delay, at most the
// bound (STDIOBUF_MAXDELAY).
//
// A write error that a flush met is kept by the Writer and returned by
// the program's next Write, Sync or Close of that file; if no call
// returned it, it is reported once on standard error at exit
// ("prog: write error: PATH: No space left on device"), and exit status
// 0 becomes 1, as for standard output.
//
// A file the program drops without Close is closed by os's finalizer,
// as in a plain build: a buffer refers to its file only while it holds
// bytes (stdioBuffer's loose), so a dropped file stays open until they
// are written out (the bound, any flush, exit), and no longer; once the
// file is freed, a cleanup takes its buffer out of the set.

package os

import (
	"bufio"
	"internal/runtime/exithook"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Values of stdioFileState's v.
const (
	stdioFileUndecided = iota // no Write yet
	stdioFileOnce             // one Write, made plainly
	stdioFilePlain
	stdioFileBuffered
)

// stdioFileState is a field of every *File (the generator adds it to
// os's file struct, internal/osstdout): whether the file has a buffer of
// its own, decided once per *File at its second Write; and the flags
// the program opened it with, which tell the decision what fcntl would.
// The buffer itself is in the file's notes (stdioFileNotes.wbuf): every
// byte added to os's file struct is paid by every *File, most of which
// never get one.
type stdioFileState struct {
	v atomic.Uint32 // stdioFileUndecided, stdioFileOnce, stdioFilePlain or stdioFileBuffered
	// flags is stdioOpenedFlag and the flags of the open that made the
	// file where the program opened it; 0 otherwise. Set by OpenFile
	// before it returns the file, so before any other goroutine sees it.
	flags uint32
}

// stdioOpenedFlag marks stdioFileState's flags as known: a bit that no
// system's open flags use.
const stdioOpenedFlag = 1 << 31

// opened reports whether the program opened the file itself, and with
// which flags.
func (st *stdioFileState) opened() (flags int, ok bool) {
	return int(st.flags &^ stdioOpenedFlag), st.flags&stdioOpenedFlag != 0
}

// stdioWroteOnce records, after a plain Write of f, the bytes of f's
// first Write, for the report of the buffer f may get at its second.
// Inlined: with the report off it costs a load and a compare.
func stdioWroteOnce(f *File, n int) {
	if stdioFilesOn && stdioReportOn {
		stdioWroteFirst(f, n)
	}
}

// stdioWroteFirst is stdioWroteOnce with the report on.
func stdioWroteFirst(f *File, n int) {
	if f != nil && f.stdioFile.v.Load() == stdioFileOnce {
		f.stdioNotes.need().first.CompareAndSwap(0, int64(max(n, 0))+1)
	}
}

// stdioOpened records on f, just opened by the program, the flags it
// was opened with.
func stdioOpened(f *File, flag int) {
	if f != nil {
		f.stdioFile.flags = uint32(flag) | stdioOpenedFlag
	}
}

// buffered reports whether the file has a buffer, deciding nothing.
func (st *stdioFileState) buffered() bool {
	return stdioFilesOn && st.v.Load() == stdioFileBuffered
}

// stdioFileBuf is the buffer of one regular file.
type stdioFileBuf struct {
	stdioBuffer
	info    FileInfo // the file's fstat when it was decided: what a later file is compared with
	name    string   // the file's name, for the message at exit
	trusted bool     // the file's identity is trusted: an operation that reaches the file by another identity is not possible
	before  int      // the bytes of the file's first Write, made plainly before the decision; -1 if none was seen; set once
	idBit   uint8    // the file's identity's bit of stdioIDIndex.owedMask (stdioIDBit); stdioNoIDBit where it has none or it is not trusted
}

// stdioFileSet is every file that has a buffer.
type stdioFileSet struct {
	mu           sync.Mutex                 // serialises the decisions and the changes of all, and of the read set's
	all          map[*stdioFileBuf]struct{} // the buffers of the files neither closed nor freed
	dirty        atomic.Int32               // how many buffers hold bytes (their pending)
	outHeld      atomic.Bool                // standard output's buffer holds bytes (its pending, mirrored)
	exclFound    atomic.Bool                // a truncating open's O_EXCL try found its file there: no later open tries (stdioOpenTrunc)
	outBits      atomic.Uint64              // standard output's stdioOutStat.bits as outState noted them: its generation+1 above the low byte, a bit's number, stdioOutBitsNone, stdioOutBitsAll or stdioOutBitsAsk in it; 0 before
	stdioIDIndex                            // the buffers by identity, write and read, and the write buffers that hold bytes
	closed       []*stdioFileBuf            // the closed files whose Close returned a write error (errOwed): the exit still reports it
	zero         atomic.Bool                // the exit hooks run for status 0; set by the exiting goroutine before exit
}

var stdioFiles stdioFileSet

// stdioFilesFailed is set when a write error no call returned was
// reported: the exit turns status 0 into 1 (stdioStream.exitFlush).
var stdioFilesFailed atomic.Bool

// stdioBufferable reports whether a file of mode m may get a buffer: a
// regular file or a block device (issue 22's item 1), whose reads and
// writes wait for no peer and whose bytes another process sees only
// through the file, as a regular file's.
func stdioBufferable(m FileMode) bool {
	return m.IsRegular() || m&ModeType == ModeDevice
}

// stdioRdev, where the target's own file sets it (Linux: its
// sys_linux.go), returns the device number (st_rdev) of the block device
// fi describes; false for any other file.
var stdioRdev func(fi FileInfo) (uint64, bool)

// stdioSameFile reports whether a and b are the same file: SameFile's
// device and inode, or, for block devices, the same device however many
// nodes name it (/dev/loop0 and a node made by mknod for it).
func stdioSameFile(a, b FileInfo) bool {
	if stdioRdev != nil {
		ra, aok := stdioRdev(a)
		rb, bok := stdioRdev(b)
		if aok && bok {
			return ra == rb
		}
	}
	return SameFile(a, b)
}

// stdioPlainKind reports whether f, a regular file or a block device,
// must stay plain: it is not open for writing, or open with O_SYNC,
// O_DSYNC or O_DIRECT, or on a file system whose files are made at each
// read (stream's list).
// The target's own file sets it (Linux: its sys_linux.go); where it is
// nil, every file stays plain.
var stdioPlainKind func(f *File) bool

// stdioStatFields is, for stream's decision of a buffer's size
// (stdioRawFile.StdiobufStat), f's descriptor and the fields of fi, f's
// fstat, that the decision reads; ok false where fi is not the target's
// fstat. The target's own file sets it (Linux: its sys_linux.go); where
// it is nil, stream fstats the file itself.
var stdioStatFields func(f *File, fi FileInfo) (fd uintptr, typ byte, size, blksize int64, dev, ino uint64, ok bool)

// stdioKnownStat is stdioStatFields where the target has it and fi is
// not nil.
func stdioKnownStat(f *File, fi FileInfo) (fd uintptr, typ byte, size, blksize int64, dev, ino uint64, ok bool) {
	if stdioStatFields == nil || f == nil || fi == nil {
		return 0, 0, 0, 0, 0, 0, false
	}
	return stdioStatFields(f, fi)
}

func init() {
	if stdioFilesOn {
		// Registered after standard output's exit hooks, so run before
		// them (last in, first out): the files are out, and their
		// errors reported, before standard output's exit flush decides
		// the status.
		exithook.Add(exithook.Hook{F: stdioFiles.exit, RunOnFailure: true})
		// Registered after exit, so run just before it, and only for
		// status 0: the exit reports an owed error then only.
		exithook.Add(exithook.Hook{F: func() { stdioFiles.zero.Store(true) }})
	}
}

// stdioFilesFlush makes every buffered file's kernel state the
// program's: it writes out every write buffer (stdioFilesWriteOut) and
// gives back every read buffer's unread bytes (stdioReadsGiveBack,
// zz_stdiobuf_reads.go). With nothing buffered it costs two atomic
// loads.
func stdioFilesFlush() {
	stdioFilesWriteOut()
	stdioReadsGiveBack()
}

// stdioFilesWriteOut writes out every buffered file, waiting for a write
// under way to a file (a regular file's write(2) never waits for a
// peer). With nothing buffered it costs one atomic load. A flush's error
// stays in the file's Writer: its next Write, Sync or Close returns it.
func stdioFilesWriteOut() {
	if stdioFilesOn && stdioFiles.dirty.Load() != 0 {
		stdioFiles.flushEach(func(b *stdioFileBuf) bool { return b.lockIdle(0) })
	}
}

// flushEach writes out every buffer that holds bytes and that lock takes
// (mu held, the buffer idle; lock reports false, holding nothing, where
// it gives up). A flush's error stays in the file's Writer.
func (r *stdioFileSet) flushEach(lock func(b *stdioFileBuf) bool) {
	for _, b := range r.owing() {
		if !b.pending.Load() || !lock(b) {
			continue
		}
		if !b.direct {
			b.flushOut()
		}
		b.mu.Unlock()
	}
}

// stdioFileOf returns f's buffer for a Write, deciding at the second
// Write whether f gets one; nil if it does not, or not yet. A file
// written once (os.WriteFile, a file per record written whole) costs
// what it costs plainly: no fstat, fcntl or fstatfs for a decision
// whose buffer would never hold a second Write. The first Write is a
// plain one, which writes out what a plain Write does first.
func stdioFileOf(f *File) *stdioFileBuf {
	if !stdioFilesOn || f == nil {
		return nil
	}
	st := &f.stdioFile
	switch st.v.Load() {
	case stdioFileBuffered:
		return f.stdioNotes.get().wbuf
	case stdioFilePlain:
		return nil
	case stdioFileUndecided:
		if st.v.CompareAndSwap(stdioFileUndecided, stdioFileOnce) {
			return nil
		}
	}
	return stdioFiles.decide(f)
}

// stdioBufOf is f's buffer where f has one already, nil otherwise.
// Inlined, it reads only f's own state, so a Write per record into a
// buffered file looks at nothing else first (standard output is never
// buffered so).
func stdioBufOf(f *File) *stdioFileBuf {
	if stdioFilesOn && f != nil && f.stdioFile.v.Load() == stdioFileBuffered {
		return f.stdioNotes.get().wbuf
	}
	return nil
}

// stdioList is the buffers of a set (the write buffers, the read
// buffers), read without a lock: a change replaces it whole, under
// stdioFiles.mu.
type stdioList[T interface {
	comparable
	fileInfo() FileInfo
}] struct{ p atomic.Pointer[[]T] }

// all returns the buffers.
func (l *stdioList[T]) all() []T {
	if p := l.p.Load(); p != nil {
		return *p
	}
	return nil
}

// add adds b. The caller holds stdioFiles.mu.
func (l *stdioList[T]) add(b T) {
	old := l.all()
	n := make([]T, len(old), len(old)+1)
	copy(n, old)
	n = append(n, b)
	l.p.Store(&n)
}

// remove takes b out, if it is there. The caller holds stdioFiles.mu.
func (l *stdioList[T]) remove(b T) {
	old := l.all()
	n := make([]T, 0, len(old))
	for _, o := range old {
		if o != b {
			n = append(n, o)
		}
	}
	if len(n) < len(old) {
		l.p.Store(&n)
	}
}

// holds reports whether a buffer of the list is over the same file as
// fi.
func (l *stdioList[T]) holds(fi FileInfo) bool {
	for _, o := range l.all() {
		if stdioSameFile(o.fileInfo(), fi) {
			return true
		}
	}
	return false
}

func (b *stdioFileBuf) fileInfo() FileInfo { return b.info }

// buffers returns the buffers of the files neither closed nor freed.
func (r *stdioFileSet) buffers() []*stdioFileBuf {
	r.mu.Lock()
	defer r.mu.Unlock()
	bs := make([]*stdioFileBuf, 0, len(r.all))
	for b := range r.all {
		bs = append(bs, b)
	}
	return bs
}

// holds reports whether a file that has a buffer is the same file as fi,
// or fi is a file the program mapped: by identity where the target gives
// one, else by stdioSameFile with each. The caller holds r.mu.
func (r *stdioFileSet) holds(fi FileInfo) bool {
	if id, _, ok := stdioIDOfFile(fi); ok {
		return r.owners(id).w != nil || r.isMapped(id)
	}
	for b := range r.all {
		if stdioSameFile(b.info, fi) {
			return true
		}
	}
	return false
}

// decide decides whether f gets a buffer, once, and returns it. A file
// open for reading and writing that reads through a buffer reads plainly
// from its first write on: glibc's FILE turns its one buffer from reading
// to writing there, and a *File's read and write buffers never live at
// once, so the read buffer goes (stdioReadSet.retire) and the write
// buffer is decided as for any file.
func (r *stdioFileSet) decide(f *File) *stdioFileBuf {
	stdioReads.retire(f)
	r.mu.Lock()
	defer r.mu.Unlock()
	st := &f.stdioFile
	if v := st.v.Load(); v == stdioFilePlain || v == stdioFileBuffered {
		return f.stdioNotes.wbuf()
	}
	b := r.choose(f)
	if b == nil {
		st.v.Store(stdioFilePlain)
		return nil
	}
	f.stdioNotes.need().wbuf = b
	st.v.Store(stdioFileBuffered)
	stdioWriteTaken(f) // the buffer's line counts the first Write (before)
	runtime.AddCleanup(f.file, stdioForget, b)
	if r.all == nil {
		r.all = make(map[*stdioFileBuf]struct{})
	}
	r.all[b] = struct{}{}
	if id, _, ok := stdioIDOfFile(b.info); ok {
		r.index(id, b, nil)
	}
	return b
}

// stdioForget takes b out of the set once its file, dropped without
// Close, is freed: os's finalizer closed it, and b held nothing (a buffer
// that holds bytes keeps its file).
func stdioForget(b *stdioFileBuf) { stdioFiles.remove(b) }

// choose returns a new buffer for f, or nil if f stays plain: f is
// neither a regular file nor a block device (stdioBufferable), is one of
// the standard files, is not written as a buffer may write it
// (stdioPlainKind), or is the same file as standard output or as a file
// that has a buffer or a read buffer. The writes through such a second
// *File stay plain, and every plain write flushes the buffers first, so
// the file gets the bytes in the order the program wrote them. The
// caller holds r.mu.
func (r *stdioFileSet) choose(f *File) *stdioFileBuf {
	s := stdioOut
	switch {
	case stdioPlainKind == nil:
		stdioPlainWhy(f, true, "no write buffers on this system")
		return nil
	case f == s.out:
		stdioPlainWhy(f, true, "standard output: written plainly")
		return nil
	case f == s.in:
		stdioPlainWhy(f, true, "standard input: written plainly")
		return nil
	case f == s.errf:
		stdioPlainWhy(f, true, "standard error: unbuffered, as in C")
		return nil
	}
	fi := stdioKindGet(f).stat()
	if fi == nil {
		var err error
		if fi, err = f.stdioRawStat(); err != nil {
			stdioPlainWhy(f, true, "fstat failed")
			return nil
		}
	}
	// Identified first: stdioPlainKind asks no fstatfs of a file system
	// whose identities the identity's decision found trusted.
	d := stdioIdentify(f, fi)
	if !stdioBufferable(fi.Mode()) {
		stdioPlainWhy(f, true, stdioPlainKindWhy(f, fi))
		return nil
	}
	if stdioPlainKind(f) {
		stdioPlainWhy(f, true, "not open for writing, O_SYNC or O_DIRECT, or on a file system that makes its files at each read")
		return nil
	}
	if s.out != nil && s.aliasesInfo(f, fi) {
		stdioPlainWhy(f, true, "the same file as standard output")
		return nil
	}
	if r.holds(fi) || stdioReads.holds(fi) {
		stdioPlainWhy(f, true, "the same file as another *File's buffer")
		return nil
	}
	b := &stdioFileBuf{info: fi, name: f.Name(), trusted: d.kind == stdioKindFile, before: -1, idBit: stdioNoIDBit}
	if id, _, ok := stdioIDOfFile(fi); ok && b.trusted {
		// A buffer of untrusted identity keeps stdioNoIDBit: it sets
		// every bit of owedMask, which stdioStatRun takes for "write
		// out everything first".
		b.idBit = stdioIDBit(id)
	}
	if n := f.stdioNotes.get(); n != nil {
		if k := n.first.Load(); k > 0 {
			b.before = int(k - 1)
		}
	}
	b.whole, b.dirty, b.loose, b.file = true, &r.dirty, true, b
	b.raw.f = f
	b.w = bufio.NewWriter(&b.raw)
	b.raw.f = nil // empty: the first write holds f
	return b
}

// remove takes b out of the set, if it is there: its file is being
// closed, or was freed.
func (r *stdioFileSet) remove(b *stdioFileBuf) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.all, b)
	if id, _, ok := stdioIDOfFile(b.info); ok {
		r.unindex(id, b, nil)
	}
}

// fire is the bound's fire for the files: each buffer whose oldest byte
// has waited for the bound, or whose flush was handed over, is written
// out. A flush's error stays in the file's Writer.
func (r *stdioFileSet) fire() {
	if !stdioFilesOn || r.dirty.Load() == 0 {
		return
	}
	for _, b := range r.owing() {
		b.fireDue()
	}
}

// exit writes out every buffer at exit and leaves the files unbuffered.
func (r *stdioFileSet) exit() { r.end(stdioExitWait) }

// finish is exit for a program that ends without exit hooks (a panic,
// main's Goexit, a fatal signal), waiting less for a write under way.
func (r *stdioFileSet) finish() { r.end(stdioTryWait) }

// tryFlush writes out every buffer without waiting long for a write under
// way: before Exec and in syscall.Exit.
func (r *stdioFileSet) tryFlush() {
	if stdioFilesOn && r.dirty.Load() != 0 {
		r.flushEach(func(b *stdioFileBuf) bool { return b.waitIdle(stdioTryWait) })
	}
	stdioReads.end(stdioTryWait, false)
}

// end writes out every buffer and gives back every read buffer, waiting
// at most wait for a write or a read under way, leaves the files
// unbuffered, and reports a write error that no call returned (unseen),
// and, when the program exits with status 0, one that only a Close, Sync
// or Flush returned (owed), of open and closed files alike.
func (r *stdioFileSet) end(wait time.Duration) {
	if !stdioFilesOn {
		return
	}
	stdioReads.end(wait, true)
	bs := r.buffers()
	for _, b := range bs {
		if ok, err := b.finishOut(wait); ok {
			b.unseen(err)
		}
	}
	if !r.zero.Load() {
		return
	}
	r.mu.Lock()
	bs = append(bs, r.closed...)
	r.mu.Unlock()
	for _, b := range bs {
		if err := b.owedOnce(); err != nil {
			b.report(err)
		}
	}
}

// unseen reports err, met by a flush that no call of the program
// returned, once (report).
func (b *stdioFileBuf) unseen(err error) {
	if err != nil && b.showOnce() {
		b.report(err)
	}
}

// report reports err on the original standard error, naming the file as
// GNU tools do: "prog: write error: PATH: No space left on device", and
// makes the exit's status 0 become 1.
func (b *stdioFileBuf) report(err error) {
	stdioFilesFailed.Store(true)
	if e := stdioOut.errf; e != nil {
		e.stdioRawWrite(stdioWriteError(b.name, err))
	}
}

// close writes out the buffer before its file is closed and leaves later
// writes to go straight to the closed file, where they fail as without
// the buffer; the flush's error is Close's, and the file is kept for the
// exit, which reports it if the program drops it (end).
func (b *stdioFileBuf) close() error {
	stdioFiles.remove(b)
	err := b.stdioBuffer.close()
	b.mu.Lock()
	b.setPending(false)
	b.mu.Unlock()
	if err != nil {
		stdioFiles.mu.Lock()
		stdioFiles.closed = append(stdioFiles.closed, b)
		stdioFiles.mu.Unlock()
	}
	return err
}
