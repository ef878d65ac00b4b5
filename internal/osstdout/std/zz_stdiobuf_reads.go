//go:build stdiobuf_std

// This file is added to package os by `stdiobuf build -stdout`; it does
// something only in a build with -files (stdioFilesOn). A regular file
// open for reading (standard input among them) then reads through a
// buffer of its own, one open for writing too until its first Write: a Read smaller than the buffer is served from it, and the
// buffer is filled by one read(2) of the policy's size; a larger Read
// goes to the kernel after what is buffered, as bufio's Reader sends it.
// The buffer's size is what a bufio.Reader (stream, under the overlay)
// over the file decides, as for any stream (STDIOBUF_POLICY, _STDBUF_I
// on standard input, the cap at the file's size). A Read returns what a
// plain Read returns: as many bytes as asked for, fewer only at the end
// of the file.
//
// The file's kernel offset runs ahead of the program's while bytes are
// buffered. Before anything through which another process, or the
// program by another route, could see the offset or the file, the
// buffered bytes are given back (lseek(fd, -unread, SEEK_CUR), as GNU
// head and glibc's fflush on an input stream do) and dropped: wherever
// everything is written out (stdioFilesFlush: a write to a pipe, a
// socket or a terminal, Fd, a signal sent, a child started), wherever
// the file's own bytes are (stdioFilesBefore: a Seek, a write through a
// second *File on it), at Exec, and at exit, a panic, main's Goexit and a
// fatal signal, after which reads stay plain. So
// `{ prog; cat; } < file` hands cat exactly the rest. A file handed to
// a child (os.StartProcess's Files: exec.Cmd's Stdin = os.Stdin) is read
// plainly from then on, since the child may read the same offset while
// the program does. ReadAt does not see the offset and gives nothing
// back.
//
// Coherence inside the process: no file has a read buffer and a write
// buffer at once (a file that has one gets no other: a second *File on
// it stays plain), nor a read buffer while it is standard output's file.
// Every plain write and every plain read writes out the write buffer and
// gives back the read buffer over its file first (stdioFilesBefore), so
// a write through any *File is seen by the next read through another.
//
// Reads are decided at a *File's Read of fewer than stdioReadSmall bytes
// after one that got all it asked for: a program that reads a file in
// large blocks, or reads a small file whole (os.ReadFile), pays no fstat
// for a decision.
//
// The original standard input, when it is a pipe, gets a read buffer
// too where no other reader of the pipe is seen: filled with tee(2),
// given back by consuming what the program used (zz_stdiobuf_pipein.go).

package os

import (
	"bufio"
	"io"
	"sync"
	"sync/atomic"
	"time"
	_ "unsafe" // for go:linkname
)

// Values of stdioReadState's v.
const (
	stdioReadFresh    = iota // no Read of fewer than stdioReadSmall bytes that got all it asked for yet (stdioReadCount)
	stdioReadPlain           // decided: no read buffer
	stdioReadOnce            // one such Read, made plainly
	stdioReadBuffered        // decided: buf
	stdioReadPipe            // the original standard input on a pipe: decided at its stdioPipeAfter-th such Read
)

// stdioReadSmall is the size below which a Read counts toward the
// decision: bufio's buffer size, the smallest a policy gives a regular
// file.
const stdioReadSmall = 4096

// stdioReadState is a field of every *File (the generator adds it to
// os's file struct, internal/osstdout): whether the file reads through a
// buffer of its own, decided once per *File.
type stdioReadState struct {
	v atomic.Uint32 // stdioReadFresh, stdioReadOnce, stdioReadPlain, stdioReadBuffered or stdioReadPipe
	// exposed: the file's descriptor was handed out (Fd, SyscallConn),
	// and may be another process's now (sent on a socket, dup'ed).
	exposed atomic.Bool
}

// stdioReadBuf is the read buffer of one regular file, or of the
// original standard input's pipe (pipe set).
type stdioReadBuf struct {
	f    *File    // the file; set once
	fd   uintptr  // f's descriptor, what a child is handed; set once
	info FileInfo // f's fstat when it was decided: what another file is compared with
	size int      // the buffer's size, the policy's for f (stream's decision); set once

	// rd is the bufio.Reader that decided size, which never reads: the
	// report's line of the buffer (STDIOBUF_REPORT), whose counts the
	// buffer's system calls add to (counted). Set once.
	rd *bufio.Reader

	mu     sync.Mutex // guards buf, r, w and direct; held across read(2) and lseek(2) of a regular file, which wait for no peer
	buf    []byte     // nil until the first fill, then size bytes
	r, w   int        // buf[r:w] is read from the kernel and not yet by the program
	direct bool       // reads go straight to f once buf is empty: after Close, at exit, once a child was handed f

	pipe *stdioPipe // a pipe's fill and give-back, nil for a regular file; set once

	held  atomic.Bool     // r < w; written under mu
	runes *stdioScanRunes // what a fmt scan that holds mu reads through (zz_stdiobuf_scan.go), kept between scans; guarded by mu
}

// stdioReadSet is every file that has a read buffer.
type stdioReadSet struct {
	list stdioList[*stdioReadBuf]     // the buffers of the files not closed
	held atomic.Int32                 // how many buffers hold unread bytes
	pipe atomic.Pointer[stdioReadBuf] // standard input's pipe buffer while it is in use, else nil
	tee  stdioTeeLock                 // held by each plain read of standard input on a pipe until it is decided, and by each fill's tee(2)
}

var stdioReads stdioReadSet

// stdioReadPlainKind reports whether f, a regular file, must be read
// plainly: it is not open for reading, or open with O_DIRECT, or on a
// file system whose files are made at each read. The target's own file sets
// it (Linux: its sys_linux.go); where it is nil, every file is read
// plainly.
var stdioReadPlainKind func(f *File) bool

// stdioRawInput is f with its original Read, for stream's decision of
// the buffer's size (the descriptor comes through stdioRawFile), and
// info, f's fstat that decided its read buffer, which the decision takes
// instead of its own.
type stdioRawInput struct {
	stdioRawFile
	info FileInfo
}

func (r stdioRawInput) Read(b []byte) (int, error) { return r.f.stdioRawRead(b) }

// StdiobufStat hands stream's decision info (stdioRawFile.StdiobufStat).
func (r stdioRawInput) StdiobufStat() (fd uintptr, typ byte, size, blksize int64, dev, ino uint64, ok bool) {
	return stdioKnownStat(r.f, r.info)
}

// stdioReadOf returns f's read buffer for a Read of n bytes, deciding at
// f's Read of fewer than stdioReadSmall bytes after one counted
// (stdioReadCount) whether f gets one; nil if f is read plainly, for now
// or for good.
func stdioReadOf(f *File, n int) *stdioReadBuf {
	if !stdioFilesOn || f == nil {
		return nil
	}
	// A file read plainly, or not yet counted toward a decision
	// (stdioReadCount), costs one load and one compare; a Read per
	// record through the buffer, two loads more.
	switch v := f.stdioRead.v.Load(); {
	case v <= stdioReadPlain:
		return nil
	case v == stdioReadBuffered:
		return f.stdioNotes.get().rbuf
	}
	return stdioReadDecide(f, n)
}

// stdioReadDecide is stdioReadOf where a small Read may decide f's
// read buffer.
func stdioReadDecide(f *File, n int) *stdioReadBuf {
	st := &f.stdioRead
	switch st.v.Load() {
	case stdioReadBuffered:
		return f.stdioNotes.get().rbuf
	case stdioReadFresh, stdioReadPlain:
		return nil
	case stdioReadPipe:
		if n >= stdioReadSmall || f.stdioNotes.need().small.Add(1) < stdioPipeAfter {
			return nil
		}
	}
	if n >= stdioReadSmall {
		return nil
	}
	return stdioReads.decide(f)
}

// stdioReadCount records, after a plain Read of f that asked for asked
// bytes and got n, the Read of fewer than stdioReadSmall bytes that
// makes f's next one decide its read buffer (stdioReadOf): one that got
// all it asked for. A regular file returns fewer only at its end, so a
// file read whole in small pieces (os.ReadFile of a small file: its
// contents, then the end) pays no decision, nor a locked instruction.
// Standard input, which may be a pipe whose Reads are short, counts
// every small Read.
func stdioReadCount(f *File, asked, n int) {
	// f's own state first: it is in f's cache line, and the locked
	// compare-and-swap is made only where there is something to record.
	if stdioFilesOn && asked < stdioReadSmall && f != nil && f.stdioRead.v.Load() == stdioReadFresh && (n == asked || f == stdioOut.in) {
		f.stdioRead.v.CompareAndSwap(stdioReadFresh, stdioReadOnce)
	}
}

func (b *stdioReadBuf) fileInfo() FileInfo { return b.info }

// buffers returns the read buffers of the files not closed.
func (r *stdioReadSet) buffers() []*stdioReadBuf { return r.list.all() }

// holds reports whether a file that has a read buffer is the same file
// as fi, or fi is a file the program mapped.
func (r *stdioReadSet) holds(fi FileInfo) bool {
	if id, _, ok := stdioIDOfFile(fi); ok {
		return len(stdioFiles.owners(id).r) > 0 || stdioFiles.isMapped(id)
	}
	return r.list.holds(fi)
}

// refuses reports whether fi's file may not have another read buffer: it
// is mapped, or, where files have no identity to index their buffers
// by, another read buffer reads it. Read buffers of one file indexed by
// its identity are given back together (giveBackOwners).
func (r *stdioReadSet) refuses(fi FileInfo) bool {
	if id, _, ok := stdioIDOfFile(fi); ok {
		return stdioFiles.isMapped(id)
	}
	return r.list.holds(fi)
}

// decide decides whether f gets a read buffer, once, and returns it.
// The decisions of read and write buffers are serialised by one mutex,
// stdioFiles.mu, so that no file gets both.
func (r *stdioReadSet) decide(f *File) *stdioReadBuf {
	stdioFiles.mu.Lock()
	defer stdioFiles.mu.Unlock()
	st := &f.stdioRead
	if v := st.v.Load(); v == stdioReadBuffered || v == stdioReadPlain {
		return f.stdioNotes.rbuf()
	}
	b, wait := r.choose(f, st.v.Load() == stdioReadPipe)
	if b == nil {
		if wait {
			f.stdioNotes.need().small.Store(2) // this Read and the one before
			st.v.Store(stdioReadPipe)
			stdioPlainWhy(f, false, "pipe: read plainly until its 64th read of fewer than 4096 bytes") // stdioPipeAfter
		} else {
			st.v.Store(stdioReadPlain)
		}
		return nil
	}
	runtime_stdioStart() // before b reads a byte ahead
	f.stdioNotes.need().rbuf = b
	st.v.Store(stdioReadBuffered)
	stdioReadLine(f, b.rd)
	r.list.add(b)
	if id, _, ok := stdioIDOfFile(b.info); ok {
		stdioFiles.index(id, nil, b)
	}
	return b
}

// choose returns a new read buffer for f, or nil if f is read plainly:
// f is neither a regular file nor a block device, is standard output or
// standard error, is not read as a buffer may read it
// (stdioReadPlainKind), is the same file (stdioSameFile) as
// standard output or as a file that has a read or a write buffer, or the
// policy leaves it unbuffered (_STDBUF_I=0 on standard input). The
// original standard input on a pipe is decided late: at the decision
// (late false) choose only says to wait (stdioReadPipe), and at its
// stdioPipeAfter-th small Read (late true) stdioPipeBuf decides. The
// caller holds stdioFiles.mu.
func (r *stdioReadSet) choose(f *File, late bool) (b *stdioReadBuf, wait bool) {
	s := stdioOut
	switch {
	case stdioReadPlainKind == nil:
		stdioPlainWhy(f, false, "no read buffers on this system")
		return nil, false
	case f == s.out:
		stdioPlainWhy(f, false, "standard output: read plainly")
		return nil, false
	case f == s.errf:
		stdioPlainWhy(f, false, "standard error: unbuffered, as in C")
		return nil, false
	}
	fi, err := f.stdioRawStat()
	if err != nil {
		stdioPlainWhy(f, false, "fstat failed")
		return nil, false
	}
	stdioIdentify(f, fi)
	if fi.Mode()&ModeNamedPipe != 0 && f == s.in && stdioPipeSys != nil {
		if !late {
			return nil, true
		}
		if s.out != nil && s.aliasesInfo(f, fi) {
			stdioPlainWhy(f, false, "pipe: the same as standard output")
			return nil, false
		}
		rd, size := stdioReadSize(f, fi)
		if size == 0 {
			stdioReadLine(f, rd)
			return nil, false
		}
		b, why := stdioPipeBuf(f, fi, rd, size)
		if b == nil && stdioReportActive() {
			stdioReadPlainly(rd, why.String())
			stdioReadLine(f, rd)
		}
		return b, false
	}
	if !stdioBufferable(fi.Mode()) {
		stdioPlainWhy(f, false, stdioPlainKindWhy(f, fi))
		return nil, false
	}
	if stdioReadPlainKind(f) {
		stdioPlainWhy(f, false, "not open for reading, O_DIRECT, or on a file system that makes its files at each read")
		return nil, false
	}
	if s.out != nil && s.aliasesInfo(f, fi) {
		stdioPlainWhy(f, false, "the same file as standard output")
		return nil, false
	}
	if r.refuses(fi) || stdioFiles.holds(fi) {
		stdioPlainWhy(f, false, "the same file as another *File's buffer")
		return nil, false
	}
	rd, size := stdioReadSize(f, fi)
	if size > 0 {
		return &stdioReadBuf{f: f, fd: f.stdioRawFd(), info: fi, size: size, rd: rd}, false
	}
	stdioReadLine(f, rd) // its line says why: _STDBUF_I=0
	return nil, false
}

// stdioReadSize is the size of a read buffer over f, whose fstat is fi,
// a bufio.Reader's (stream's decision: the policy, the _STDBUF_
// variables, the cap at a regular file's size, from fi), and that
// Reader, which the report lists; 0 if f is read plainly (_STDBUF_I=0).
func stdioReadSize(f *File, fi FileInfo) (*bufio.Reader, int) {
	rd := bufio.NewReader(stdioRawInput{stdioRawFile{f}, fi})
	in := rd.Info()
	if in.Mode == bufio.Unbuffered || in.Size <= 1 {
		return rd, 0
	}
	return rd, in.Size
}

// tell answers Seek(0, io.SeekCurrent) of f, whose read buffer b is:
// the program's offset, the kernel's less the unread bytes, without
// giving them back; ok is false where b holds none (Seek goes on as
// any Seek).
func (b *stdioReadBuf) tell() (off int64, err error, ok bool) {
	if b.pipe != nil || !b.held.Load() {
		return 0, nil, false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.direct || b.r >= b.w {
		return 0, nil, false
	}
	k, err := b.f.stdioRawSeek(0, io.SeekCurrent)
	if err != nil {
		return 0, err, true
	}
	return k - int64(b.w-b.r), nil, true
}

// remove takes b out of the set: its file is being closed.
func (r *stdioReadSet) remove(b *stdioReadBuf) {
	stdioFiles.mu.Lock()
	defer stdioFiles.mu.Unlock()
	r.list.remove(b)
	if id, _, ok := stdioIDOfFile(b.info); ok {
		stdioFiles.unindex(id, nil, b)
	}
}

// read is a Read of the file through its buffer; ok is false if the file
// is read plainly now, and the caller reads it so.
func (b *stdioReadBuf) read(p []byte) (n int, err error, ok bool) {
	b.mu.Lock()
	if len(p) <= b.w-b.r && len(p) > 0 {
		// The common case first, straight through: all of p buffered.
		n = copy(p, b.buf[b.r:b.w])
		b.r += n
		b.took()
		b.mu.Unlock()
		return n, nil, true
	}
	b.waitFill()
	if b.direct && b.r == b.w {
		b.mu.Unlock()
		return 0, nil, false
	}
	n, err, ok = b.take(p)
	if n == 0 && err == nil && b.direct {
		ok = false // made plain meanwhile, nothing taken: the caller reads plainly
	}
	b.setHeld(b.r < b.w)
	b.mu.Unlock()
	return n, err, ok
}

// took follows the program's taking bytes from the buffer. Once the
// buffer is used up, a pipe's used bytes are consumed and the buffer
// holds none; before, a pipe's are consumed each time they come to the
// policy's size (zz_stdiobuf_pipein.go). The caller holds mu and no fill
// runs.
func (b *stdioReadBuf) took() {
	p := b.pipe
	if b.r == b.w {
		if p != nil {
			p.consume(b, true)
		}
		b.setHeld(false)
		return
	}
	if p != nil && b.r-p.done >= b.size {
		p.consume(b, false)
	}
}

// take fills p as a read(2) of a regular file does: from the buffer,
// then from the kernel, fewer bytes than len(p) only where the kernel
// gave fewer than asked (the end of the file) or an error came; an error
// after some bytes waits for the next Read, as read(2) returns it. The
// rest of p goes straight into p if it is a buffer or more, as bufio's
// Reader reads it, else the buffer is filled by one read(2). Before the
// kernel is asked, standard output is flushed as before a plain read of
// standard input (stdioStream.beforeRead). The caller holds mu.
//
// A pipe's Read returns as read(2) of a pipe does: what the buffer
// holds, up to len(p), and only if it holds nothing, what one fill (or
// one read straight into p) brings. ok is false where the pipe is read
// plainly from now on, and nothing was taken (stdioPipe.fill).
func (b *stdioReadBuf) take(p []byte) (n int, err error, ok bool) {
	short := false // the last read(2) gave less than it asked for
	for n < len(p) {
		if b.r == b.w {
			if short || b.direct || n > 0 && b.pipe != nil {
				break
			}
			stdioOut.beforeRead(b.f)
			if rest := len(p) - n; rest >= b.size {
				var m int
				if b.pipe != nil {
					m, err = b.pipe.readDirect(b, p[n:])
				} else {
					m, err = b.f.stdioRawRead(p[n:])
				}
				b.counted(1, 0, m)
				n += m
				if err != nil && n == 0 {
					return 0, err, true
				}
				break
			}
			var m int
			if b.pipe != nil {
				var plain bool
				if m, plain = b.pipe.fill(b); plain {
					return 0, nil, false
				}
				err = io.EOF
			} else {
				if b.buf == nil {
					b.buf = make([]byte, b.size)
				}
				m, err = b.f.stdioRawRead(b.buf)
				b.counted(1, 0, m)
			}
			b.r, b.w = 0, m
			if m == 0 {
				if n == 0 {
					return 0, err, true
				}
				break
			}
			short = m < len(b.buf)
		}
		k := copy(p[n:], b.buf[b.r:b.w])
		b.r += k
		n += k
	}
	if b.pipe != nil {
		b.took()
	}
	return n, nil, true
}

// setHeld records whether r holds unread bytes, in held and in the
// count of buffers that do. The caller holds mu.
func (b *stdioReadBuf) setHeld(v bool) {
	if b.held.Load() == v {
		return
	}
	b.held.Store(v)
	if v {
		stdioReads.held.Add(1)
	} else {
		stdioReads.held.Add(-1)
	}
}

// giveBack moves the file's offset back over the unread bytes and drops
// them (lseek(fd, -unread, SEEK_CUR), as glibc's fflush on an input
// stream), so that the kernel's offset is the program's; if the lseek
// fails, the bytes stay. A pipe consumes the used bytes instead
// (stdioPipe.giveBack). With last, the file is read plainly from then
// on. The caller holds mu.
func (b *stdioReadBuf) giveBack(last bool) {
	if b.pipe != nil {
		b.pipe.giveBack(b, last)
		return
	}
	if unread := b.w - b.r; unread > 0 {
		if _, err := b.f.stdioRawSeek(-int64(unread), io.SeekCurrent); err == nil {
			b.r, b.w = 0, 0
		}
	}
	b.setHeld(b.r < b.w)
	b.direct = b.direct || last
}

// stdioShared reports whether another process may share f's offset: f
// is not a file the program opened (standard input, a descriptor it
// inherited, os.NewFile), or its descriptor was handed out. A file the
// program opened itself is close-on-exec and known to no one else: no
// peer told anything can see where its offset is.
func stdioShared(f *File) bool {
	_, opened := f.stdioFile.opened()
	return !opened || f.stdioRead.exposed.Load()
}

// stdioExposed records that f's descriptor is handed out.
func stdioExposed(f *File) {
	if stdioFilesOn && f != nil && !f.stdioRead.exposed.Load() {
		f.stdioRead.exposed.Store(true)
	}
}

// stdioReadsGiveBack gives back the unread bytes of every read buffer
// whose offset another process may share (stdioShared): part of
// stdioFilesFlush, before a peer is told anything. With nothing buffered it costs one atomic load.
// It waits for a read under way, a regular file's read(2).
func stdioReadsGiveBack() { stdioReads.giveBackEach(stdioShared) }

// giveBackEach gives back the unread bytes of every read buffer whose
// file which says. With nothing buffered it costs one atomic load. It
// waits for a read under way, a regular file's read(2).
func (r *stdioReadSet) giveBackEach(which func(f *File) bool) {
	if !stdioFilesOn || r.held.Load() == 0 {
		return
	}
	for _, b := range r.buffers() {
		if b.held.Load() && which(b.f) {
			b.mu.Lock()
			b.giveBack(false)
			b.mu.Unlock()
		}
	}
}

// end gives back every read buffer's unread bytes where waiting no longer
// than wait for a read under way (a dying program's, Exec's, exit's);
// with last (exit, a panic, main's Goexit, a fatal signal) every file is
// read plainly from then on, so that no read after it moves an offset
// ahead again.
func (r *stdioReadSet) end(wait time.Duration, last bool) {
	if !stdioFilesOn || !last && r.held.Load() == 0 {
		return
	}
	for _, b := range r.buffers() {
		if !last && !b.held.Load() || !stdioTryLock(&b.mu, int64(wait)) {
			continue
		}
		b.giveBack(last)
		b.mu.Unlock()
	}
}

// stdioReadsInherit gives back the read buffer of every file in attr's
// Files, which a child is about to be handed, and leaves those files
// read plainly, decided or not: the child reads on from where the
// program stopped, and may read the same offset while the program does.
func stdioReadsInherit(attr *ProcAttr) {
	if !stdioFilesOn || attr == nil {
		return
	}
	for _, a := range attr.Files {
		if a == nil {
			continue
		}
		stdioPipeReader(a)
		stdioReads.plain(a, "handed to a child: read plainly from then on")
		if len(stdioReads.buffers()) == 0 {
			continue
		}
		fd := a.stdioRawFd()
		for _, b := range stdioReads.buffers() {
			if b.fd == fd {
				b.mu.Lock()
				if !b.direct {
					b.plainNow("handed to a child: read plainly from then on")
				}
				b.giveBack(true)
				b.mu.Unlock()
			}
		}
	}
}

// plain makes f read plainly from now on if it is not decided yet.
func (r *stdioReadSet) plain(f *File, why string) {
	st := &f.stdioRead
	if v := st.v.Load(); v == stdioReadBuffered || v == stdioReadPlain {
		return
	}
	stdioFiles.mu.Lock()
	if v := st.v.Load(); v != stdioReadBuffered {
		if v != stdioReadPlain {
			stdioPlainWhy(f, false, why)
		}
		st.v.Store(stdioReadPlain)
	}
	stdioFiles.mu.Unlock()
}

// retire gives back f's unread bytes, if f has a read buffer, and takes
// the buffer out of the set: f reads plainly from now on, and another
// *File on the same file, or f's own writes, may get a write buffer.
// Before a Close, later reads go straight to the closed file, where
// they fail as without the buffer. The caller holds no buffer's mu nor
// stdioFiles.mu.
//
// Inlined: a file with no read buffer costs one load.
func (r *stdioReadSet) retire(f *File) {
	if stdioFilesOn && f != nil && f.stdioRead.v.Load() == stdioReadBuffered {
		r.retireBuffered(f)
	}
}

// retireBuffered is retire of f, which has a read buffer.
func (r *stdioReadSet) retireBuffered(f *File) {
	b := f.stdioNotes.get().rbuf
	b.mu.Lock()
	b.giveBack(true)
	b.mu.Unlock()
	r.remove(b)
}

// stdioHeard comes after the program heard from another process (a
// child ended, a signal came, a read of a pipe, a socket or a terminal
// returned data, a lock was taken): every read buffer but except's
// gives back what it holds, also one over a file only the program
// opened, whose offset is private but whose bytes are not. With nothing
// held it costs one atomic load.
func stdioHeard(except *File) {
	stdioReads.giveBackEach(func(f *File) bool { return f != except })
}

// stdioPeerHeard is stdioHeard of no file: after a read of a socket
// and syscall.Wait4 (through the runtime), and before os/signal hands a
// signal to the program's channels (through a linkname).
//
//go:linkname stdioPeerHeard
func stdioPeerHeard() { stdioHeard(nil) }

// stdioHeardRead comes after a plain Read of f returned n bytes: data
// from a pipe, a socket or a terminal is word from another process.
func stdioHeardRead(f *File, n int) {
	if n > 0 && stdioReads.held.Load() != 0 {
		stdioHeardReadHeld(f)
	}
}

// stdioHeardReadHeld is stdioHeardRead while a read buffer holds bytes
// (only -files makes one).
func stdioHeardReadHeld(f *File) {
	if k, _ := stdioKindOf(f); k == stdioKindAll {
		stdioHeard(f)
	}
}
