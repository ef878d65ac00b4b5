//go:build stdiobuf_std

// This file is added to package os by `stdiobuf build -stdout`. It gives
// the process's standard output the buffering C programs get from glibc:
// line buffered on a terminal, otherwise a buffer sized by the policy, and
// flushed at exit. The buffering is package bufio's Writer, which under the
// same overlay is package stream: the decision (fstat, terminal test,
// STDIOBUF_POLICY, _STDBUF_O) is stream's own, not a second copy.
//
// Unlike C's, this buffer holds no byte longer than a bound
// (STDIOBUF_MAXDELAY), reports a write error the program could not see as
// GNU tools do, and keeps the order of writes through any other *File on
// the same file. zz_stdiobuf_methods.go holds the methods of *File that
// send the original standard output through it; what each does, by the
// file it is called on:
//
//	name            stdout        stdin        alias    peer         other
//	Write           buffers       -            orders   flushes      -
//	WriteAt         flushes       -            orders   flushes      -
//	ReadFrom        flushes, err  -            orders   flushes      -
//	Read            -             before read  orders   before read  -
//	Fd              flushes       before read  orders   flushes      -
//	SyscallConn     flushes       before read  orders   flushes      -
//	Sync            flushes, err  -            -        -            -
//	Seek            flushes       -            -        -            -
//	Stat            flushes       -            -        -            -
//	Truncate        flushes       -            -        -            -
//	Chmod           flushes       -            -        -            -
//	Chown           flushes       -            -        -            -
//	Close           flushes, err  -            -        -            -
//	Process.Signal  flushes       flushes      flushes  flushes      flushes
//	Process.Kill    flushes       flushes      flushes  flushes      flushes
//	StartProcess    flushes       flushes      flushes  flushes      flushes
//
// The files:
//   - stdout: the *File os.Stdout held at start-up.
//   - stdin: the *File os.Stdin held at start-up.
//   - alias: any other *File on the same file as stdout (same device and
//     inode): os.Stderr under `prog > log 2>&1`, a file opened as
//     /dev/stdout, stdin on the terminal stdout writes to. A file in two
//     columns gets both.
//   - peer: any other *File that is a pipe, a socket or a character
//     device (a terminal): a process may be reading or writing at the
//     other end, and learns from the program through it (relation).
//   - other: any other *File. Process.Signal, Process.Kill and
//     StartProcess take none: their rows are for every call.
//
// The cells, each a flush of what stdout holds, if anything:
//   - buffers: the bytes go into the buffer, not to the kernel.
//   - flushes: before the call, unless a flush is under way, which has
//     the bytes; the program cannot see the flush, so its error is
//     reported on stderr (unseen).
//   - flushes, err: before the call, after a flush under way, and the
//     flush's error is the call's. After Close, writes go straight to
//     the closed file.
//   - before read: handed to the runtime's goroutine, so that the read
//     never waits on it, if the file is a peer, or stdin that is not a
//     regular file, or stdout is line buffered (beforeRead).
//   - orders: before the call, after a flush under way, so that the file
//     gets the bytes in the order the program wrote them, and a read
//     finds them all (beforeWrite; beforeRead, where stdout is a regular
//     file: a read of a pipe or terminal stdout writes to is a peer's).
//
// zz_stdiobuf_buffer.go says who waits for whom.
//
// osstdout's TestMethodTable checks this table against Methods, Funcs and
// the methods' bodies.

package os

import (
	"bufio"
	"errors"
	"internal/runtime/exithook"
	"io"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	_ "unsafe" // for go:linkname
)

// stdioStream is the process's original standard output, buffered.
//
// out, in and errf are the *File values os.Stdout, os.Stdin and os.Stderr
// held at start-up and never change, so a program that assigns another
// *File to os.Stdout writes to it unbuffered, as before. The buffer's
// fields are guarded by its mu; the Onces guard what follows them.
type stdioStream struct {
	stdioBuffer
	out, in, errf *File

	exitZero bool // the exit hooks run for status 0; written and read by the exiting goroutine

	outInfo atomic.Pointer[stdioOutStat] // out's fstat (outStat): what an alias of out is the same file as
	inOnce  sync.Once
	inFile  bool // in is a regular file: a read of it never waits for a peer
}

var stdioOut = stdioStart(Stdout, Stdin, Stderr)

func stdioStart(out, in, errf *File) *stdioStream {
	s := &stdioStream{out: out, in: in, errf: errf}
	if out == nil {
		return s
	}
	s.raw.f = out
	s.w = bufio.NewWriter(&s.raw)
	if stdioFilesOn {
		s.held = &stdioFiles.outHeld
	}
	// Exit hooks run on return from main and on os.Exit with any status
	// (log.Fatal included), last registered first: exitFlush, registered
	// before any hook of another package, runs last, and the hook that
	// tells it the status is 0 (run only then) just before it.
	exithook.Add(exithook.Hook{F: s.exitFlush, RunOnFailure: true})
	exithook.Add(exithook.Hook{F: func() { s.exitZero = true }})
	return s
}

// stdioSetBufioSide is bufio's setOSSide (internal/osstdout/bufio/osfile.go),
// the one channel by which package os tells the bufio it imports about its
// files; bufio cannot import os. The signature must stay the same as
// setOSSide's: no compiler checks it across a go:linkname.
//
//go:linkname stdioSetBufioSide bufio.setOSSide
func stdioSetBufioSide(isFile func(any) bool, flushed func(io.Writer) error)

func init() { stdioSetBufioSide(stdioIsFile, stdioOut.flushed) }

// stdioIsFile reports whether v is a non-nil *File: bufio reads ahead only
// from one (its methods are os's own, which hold the file's reference
// across a read), not from a type that embeds one and overrides Read.
func stdioIsFile(v any) bool {
	f, ok := v.(*File)
	return ok && f != nil
}

// stdioRawFile is what the buffer writes to: the original methods, so
// that a flush does not come back through the buffer.
type stdioRawFile struct{ f *File }

// Write writes b to the file. Standard output is a peer's (a pipe, a
// terminal) as often as not: what is buffered for other files goes out
// first (the causal rule), unless it is a regular file, which tells
// nobody anything of another file (stdioShowsNoOther); a buffered file's
// own write does not wait for the others.
func (r stdioRawFile) Write(b []byte) (int, error) {
	if !r.f.stdioFile.buffered() && !stdioShowsNoOther(r.f) {
		stdioFilesFlush()
	}
	return r.f.stdioRawWrite(b)
}

// SyscallConn and Fd make the buffer a stream over a descriptor, decided
// as glibc decides stdout. bufio reaches the descriptor through
// SyscallConn; Fd, which would make a non-blocking descriptor blocking, is
// there only to say what the value is, as on *os.File.
func (r stdioRawFile) SyscallConn() (syscall.RawConn, error) { return r.f.stdioRawSyscallConn() }

func (r stdioRawFile) Fd() uintptr { return r.f.stdioRawFd() }

// StdiobufStat hands stream's decision of a file's buffer the fstat that
// decided the file's buffer under -files, and for standard output's
// buffer outStat's, so that the size costs no fstat of its own; ok is
// false for any other file, and for standard output where the target
// hands no fields (then outStat would be one fstat more, not one less).
func (r stdioRawFile) StdiobufStat() (fd uintptr, typ byte, size, blksize int64, dev, ino uint64, ok bool) {
	if s := stdioOut; r.f != nil && r.f == s.out && stdioFilesOn && stdioStatFields != nil {
		return stdioKnownStat(r.f, s.outStat())
	}
	if r.f == nil || !r.f.stdioFile.buffered() {
		return 0, 0, 0, 0, 0, 0, false
	}
	return stdioKnownStat(r.f, r.f.stdioNotes.get().wbuf.info)
}

// buffering reports whether writes to f go through the buffer.
func (s *stdioStream) buffering(f *File) bool { return f == s.out && s.w != nil }

// write is a Write of the original standard output (stdioBuffer.write).
func (s *stdioStream) write(b []byte) (int, error) { return s.stdioBuffer.write(s.out, b) }

// boundFlush is the runtime goroutine's fire: it writes out everything
// buffered (a prompt or a line without its newline too) when the oldest
// byte has waited for the bound or the flush was handed to it, and
// otherwise arms the bound for the bytes buffered now. While the buffer
// is busy the write under way has those bytes.
func (s *stdioStream) boundFlush() { s.unseen(s.fireDue()) }

// flushAsked is a flush the program asked for (ReadFrom's, Flush of
// a bufio.Writer over standard output): a write, which waits for the one
// under way, and the program gets its error. It flushes if f is the
// original standard output, or f is nil.
func (s *stdioStream) flushAsked(f *File) error {
	if s.w == nil || f != nil && f != s.out {
		return nil
	}
	return s.flushProgram()
}

// syncFlush is Sync's flush: the program gets its error, but Sync is not
// a write, and while the buffer is busy it returns at once: no Write
// adds to the buffer then, so everything buffered is the write under way
// (a plain Sync does not wait for a writer either). It flushes if f is the
// original standard output.
func (s *stdioStream) syncFlush(f *File) error {
	if s.w == nil || f != s.out {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.busy {
		s.missed = true
		return nil
	}
	return s.flushSeen()
}

// flushed is bufio's hook after a Writer's Flush (osSide.flushed): if the
// Writer writes to the original standard output, its bytes are in the
// kernel when Flush returns, as after fflush(stdout).
func (s *stdioStream) flushed(w io.Writer) error {
	f, ok := w.(*File)
	if !ok || !s.buffering(f) {
		return nil
	}
	return s.flushAsked(f)
}

// flushBefore flushes before f is used in a way that sees the descriptor
// or the file (Fd, Stat, a child process, Dup2 onto it): f nil means in
// any case. It is not a write: while the buffer is busy it returns at
// once. The program cannot see the flush, so its error is reported
// (unseen).
func (s *stdioStream) flushBefore(f *File) {
	if s.pending.Load() && (f == nil || f == s.out) {
		s.flushBeforePending()
	}
}

// flushBeforePending is flushBefore's flush, inlined no more than its
// test.
func (s *stdioStream) flushBeforePending() {
	s.mu.Lock()
	if s.busy {
		s.missed = true
		s.mu.Unlock()
		return
	}
	s.flushUnlock()
}

// flushOrdered flushes before a write through another *File on the same
// file, or the runtime's print to it: a write, which waits for the one
// under way (spin: see lockIdle), so that the file gets the bytes in the
// order the program wrote them.
func (s *stdioStream) flushOrdered(spin int64) {
	if !s.lockIdle(spin) {
		return
	}
	s.flushUnlock()
}

// flushUnlock writes out what is buffered, unless the file is written to
// directly, releases mu and reports the flush's error (unseen); the
// caller holds mu and the buffer is idle.
func (s *stdioStream) flushUnlock() {
	var err error
	if !s.direct {
		err = s.flushOut()
	}
	s.mu.Unlock()
	s.unseen(err)
}

// Longest waits for a write under way where waiting for good is not an
// option: at exit and Close (a goroutine may be blocked for good in a
// write(2) that nobody will take: a full pipe, a terminal stopped with
// ^S), and in tryFlush (a panic or a signal: the writer may never run
// again).
const (
	stdioExitWait = time.Second
	stdioTryWait  = 100 * time.Millisecond
	// stdioPrintSpin is how long the runtime's print hook tries mu,
	// which its own goroutine may hold, in nanoseconds: as long as
	// tryFlush waits, since another goroutine may hold mu for a while
	// when the machine is loaded or a collection stops the world, and
	// giving up puts the print before what was written before it.
	stdioPrintSpin = int64(stdioTryWait)
)

// exitFlush flushes at exit, as the last exit hook, and leaves standard
// output unbuffered, so that what other goroutines write while the
// process ends goes straight out. Exit must not wait for a stuck writer,
// as a plain Go program does not, so it waits for a write under way for a
// while and gives up, losing what is buffered, as glibc's exit skips a
// stream it cannot lock. If a write error the program could not see was
// reported and the program exits with status 0, it exits with status 1
// instead, as gnulib's close_stdout makes GNU tools do; so does an error
// that only a Close, Sync or Flush returned (owedOnce), which a program
// that exits with status 0 dropped.
func (s *stdioStream) exitFlush() {
	if s.w == nil || !s.waitIdle(stdioExitWait) {
		return
	}
	err := s.flushOut()
	s.direct = true
	s.mu.Unlock()
	s.unseen(err)
	if s.exitZero && s.errf != nil {
		if err := s.owedOnce(); err != nil && stdioErrText(err) != "Broken pipe" {
			s.errf.stdioRawWrite(stdioWriteError("", err))
		}
	}
	s.mu.Lock()
	fail := (s.errShown || stdioFilesFailed.Load()) && s.exitZero
	s.mu.Unlock()
	if fail {
		syscall.Exit(1)
	}
}

// tryFlush writes out everything buffered without waiting for good for a
// write under way: the hooks of a dying program (a panic, a fatal
// signal), Exec and a Close of descriptor 1 call it, where the writer may
// be the goroutine that panicked or one that will never be scheduled
// again. It waits stdioTryWait at most, then gives up. It may be called
// from any goroutine, any number of times, also after the exit flush and
// after Close, when there is nothing to flush.
func (s *stdioStream) tryFlush() {
	if !s.pending.Load() || !s.waitIdle(stdioTryWait) {
		return
	}
	s.flushUnlock()
}

// close flushes before the original standard output is closed
// (stdioBuffer.close).
func (s *stdioStream) close() error { return s.stdioBuffer.close() }

// unseen reports err, met by a flush the program could not see (the
// bound's, the exit's, one before another use of the file), once on the
// original standard error as GNU tools report a failed standard output:
// "prog: write error: No space left on device". An error a write or an
// asked-for flush already returned is the program's to report, and a
// broken pipe keeps Go's behaviour: the write raised SIGPIPE, and a
// program that catches it goes on as it would without the buffer. The
// caller does not hold mu: the message is a write(2).
func (s *stdioStream) unseen(err error) {
	if err == nil || s.errf == nil {
		return
	}
	if stdioErrText(err) == "Broken pipe" {
		return
	}
	if s.showOnce() {
		s.errf.stdioRawWrite(stdioWriteError("", err))
	}
}

// stdioProgName is the base name of the program, as GNU tools name
// themselves in messages.
func stdioProgName() string {
	if len(Args) == 0 {
		return "stdout"
	}
	name := Args[0]
	for i := len(name) - 1; i >= 0; i-- {
		if IsPathSeparator(name[i]) {
			return name[i+1:]
		}
	}
	return name
}

// stdioWriteError is the line GNU tools write for a write error:
// "prog: write error: PATH: No space left on device", with no PATH for
// standard output.
func stdioWriteError(path string, err error) []byte {
	line := stdioProgName() + ": write error: "
	if path != "" {
		line += path + ": "
	}
	return []byte(line + stdioErrText(err) + "\n")
}

// stdioErrText is the text strerror(3) gives for the system error in err
// ("No space left on device": Go's texts are glibc's with the first
// letter in lower case), or err's own text if it wraps none. It names no
// errno (Plan 9 has none): EPIPE is "Broken pipe" on every other system.
func stdioErrText(err error) string {
	var pe *PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	t := err.Error()
	if t == "" || t[0] < 'a' || t[0] > 'z' {
		return t
	}
	return string(t[0]-'a'+'A') + t[1:]
}

// inKind fstats the original standard input once, for inFile.
func (s *stdioStream) inKind() {
	s.inOnce.Do(func() {
		fi, err := s.in.stdioRawStat()
		s.inFile = err == nil && fi.Mode().IsRegular()
	})
}

// beforeRead flushes standard output before the program reads its
// original standard input, or any other peer's file (a pipe, a socket,
// a terminal: stdioPeer), where the read may wait for whoever reads that
// output. glibc flushes a line-buffered stdout before a read of stdin, so
// a prompt shows on a terminal before the program blocks; this goes
// further and flushes before any read that may wait for a peer (standard
// input only if it is not a regular file), so a program talking to a
// peer over two pipes (a coprocess, os/exec's StdinPipe and StdoutPipe)
// never waits for an answer to a question still in its buffer, which a C
// program without fflush does. A filter reading a pipe then writes about
// once per read of its input.
//
// Every Read of every *File passes here: the test of pending is inlined,
// the rest is beforeReadPending.
func (s *stdioStream) beforeRead(f *File) {
	if f != nil && s.pending.Load() {
		s.beforeReadPending(f)
	}
}

// beforeReadPending is beforeRead while standard output holds bytes.
func (s *stdioStream) beforeReadPending(f *File) {
	if f == s.in {
		s.inKind()
		if s.inFile && !s.line {
			return
		}
	} else {
		switch s.relation(f) {
		case stdioPeer:
		case stdioAlias:
			// Standard output's own file read through another *File
			// (os.ReadFile of its path, /dev/stdout): a regular file
			// must show every byte printed before, and writing it
			// waits for no peer; anything else is a peer's.
			if s.outRegular() {
				s.flushOrdered(0)
				return
			}
		default:
			return
		}
	}
	s.handOff()
}

// handOff has what is buffered written out without the caller waiting:
// the runtime's goroutine writes it, or the write under way takes it. In
// a plain build the bytes went out with the writers' own Writes, so a
// full pipe blocked a writer, never a reader; a reader that waited could
// deadlock a peer that writes all its input before it reads any output.
func (s *stdioStream) handOff() {
	if !s.pending.Load() {
		return
	}
	s.mu.Lock()
	wake := false
	switch {
	case s.busy:
		s.missed = true
	case !s.direct && s.w.Buffered() > 0:
		s.urgent, wake = true, true
	}
	s.mu.Unlock()
	if wake {
		runtime_stdioWake()
	}
}

// beforeWrite flushes standard output before a write through f, another
// *File: one on the same file (the original standard error under `prog
// > log 2>&1`, a file opened as /dev/stdout, os.NewFile(1, ...)) waits for
// a write under way, so that the file gets the bytes in the order the
// program wrote them; one to a peer (a pipe, a socket, a terminal) does
// not, as before a child or a signal (flushBefore): the peer that hears
// from the program finds its output complete or on its way.
func (s *stdioStream) beforeWrite(f *File) {
	if f == nil || f == s.out || !s.pending.Load() {
		return
	}
	switch s.relation(f) {
	case stdioAlias:
		s.flushOrdered(0)
	case stdioPeer:
		s.flushBefore(nil)
	}
}

// stdioBeforePeerWrite writes out everything buffered before the program
// tells another process something: a write to a socket (internal/poll's
// hooks), a signal sent, a child started, a descriptor replaced. A write
// to standard output under way counts as done (flushBefore).
func stdioBeforePeerWrite() {
	stdioFilesFlush()
	stdioOut.flushBefore(nil)
}

// stdioBeforePath comes before a path operation (-files wraps os's): the
// files are written out, and standard output too where it is a regular
// file, which the path may name (os.Stat of its name sees its size).
func stdioBeforePath() {
	stdioWriteOutAll()
	stdioReadsGiveBack()
}

// stdioBeforePeerRead is what comes before a read of a socket, which may
// wait for a peer: the files are written out, and standard output's flush
// is handed off (handOff), never waited for.
func stdioBeforePeerRead() {
	stdioFilesFlush()
	stdioOut.handOff()
}

// Values of stdioAliasState: what a *File is to the original standard
// output.
const (
	stdioUndecided = iota
	stdioOther     // a file nobody else hears through: a regular file, a block device, a directory
	stdioAlias     // the same file as standard output (device and inode)
	stdioPeer      // a pipe, a socket or a character device (a terminal): someone may be reading
)

// stdioAliasState is a field of every *File (the generator adds it to
// os's file struct, internal/osstdout): what the file is to the original
// standard output (stdioOther, stdioAlias or stdioPeer), decided at its
// first write or read while standard output holds bytes, and again once
// a descriptor changed (stdioKindGen): v is the relation, and the
// generation it was decided in above its two low bits.
type stdioAliasState struct{ v atomic.Uint32 }

// stdioOutStat is an fstat of standard output, the generation
// (stdioKindGen) it was made in, and what it makes standard output to a
// path operation.
type stdioOutStat struct {
	fi   FileInfo // nil if fstat failed
	gen  uint32
	bits uint64 // the identity bit (stdioIDBit) of a regular file of trusted identity; every bit for one of untrusted identity; 0 for anything else
	ask  bool   // the identity is not decided yet, nor bits set: its file system's type is to be asked (outBitsAsked)
}

// outStat is out's fstat, made once and again after a descriptor
// changed (a Dup2 onto 1); nil if it failed.
func (s *stdioStream) outStat() FileInfo { return s.outState().fi }

// outState is outStat with what it makes standard output to a path
// operation. It also decides out's identity (stdioIdentify), which would
// otherwise fstat out again; but where that would ask the file system's
// type (a regular file on tmpfs, whose trust is not known yet), the
// first path operation that needs the answer asks (pathBits), and a
// program that makes none asks nothing.
func (s *stdioStream) outState() *stdioOutStat {
	gen := stdioKindGen.Load()
	if o := s.outInfo.Load(); o != nil && o.gen == gen {
		return o
	}
	o := &stdioOutStat{gen: gen}
	c := uint64(stdioOutBitsNone)
	if fi, err := s.out.stdioRawStat(); err == nil {
		o.fi = fi
		if fi.Mode().IsRegular() && stdioTrustAsks(fi) {
			o.ask, c = true, stdioOutBitsAsk
		} else {
			c = s.outBitsOf(o)
		}
	}
	s.outInfo.Store(o)
	stdioFiles.outBits.Store(uint64(gen+1)<<8 | c)
	return o
}

// outBitsOf decides out's identity from o's fstat, sets o.bits, and
// returns their code for stdioFileSet.outBits.
func (s *stdioStream) outBitsOf(o *stdioOutStat) uint64 {
	d := stdioIdentify(s.out, o.fi)
	switch {
	case !o.fi.Mode().IsRegular():
		return stdioOutBitsNone
	case d.kind == stdioKindFile:
		c := uint64(stdioIDBit(d.id))
		o.bits = 1 << c
		return c
	}
	o.bits = ^uint64(0)
	return stdioOutBitsAll
}

// stdioTrustAsks reports whether deciding fi's identity would ask its
// file system's type.
func stdioTrustAsks(fi FileInfo) bool {
	if stdioIdentOf == nil || stdioFSKnown == nil {
		return false
	}
	_, fsdev, how := stdioIdentOf(fi)
	return how == stdioIdentAsk && !stdioFSKnown(fsdev)
}

// pathBits is the identity bits a path operation that reaches standard
// output finds (stdioOutStat's bits), read from the file set's word
// (stdioFileSet.outBits) where outState noted them in this generation: a
// stat per record while standard output holds bytes reads the words
// beside the file set's counts and no other. Where outState left the
// identity to be decided, it is decided now, once.
func (s *stdioStream) pathBits() uint64 {
	v := stdioFiles.outBits.Load()
	if uint32(v>>8) != stdioKindGen.Load()+1 {
		return s.outBitsAsked(s.outState())
	}
	switch c := v & 0xff; c {
	case stdioOutBitsNone:
		return 0
	case stdioOutBitsAll:
		return ^uint64(0)
	case stdioOutBitsAsk:
		return s.outBitsAsked(s.outState())
	default:
		return 1 << c
	}
}

// outBitsAsked is o's bits, deciding out's identity first where outState
// left it to be decided (o.ask); the decision replaces o, and its code
// the file set's word, unless a later fstat replaced them meanwhile.
func (s *stdioStream) outBitsAsked(o *stdioOutStat) uint64 {
	if !o.ask {
		return o.bits
	}
	asked := &stdioOutStat{fi: o.fi, gen: o.gen}
	c := s.outBitsOf(asked)
	if s.outInfo.CompareAndSwap(o, asked) {
		stdioFiles.outBits.CompareAndSwap(uint64(o.gen+1)<<8|stdioOutBitsAsk, uint64(o.gen+1)<<8|c)
	}
	return asked.bits
}

// Values of the low byte of stdioFileSet.outBits besides a bit's number.
const (
	stdioOutBitsNone = 64 // no bit: standard output is not a regular file
	stdioOutBitsAll  = 65 // every bit: its identity is not trusted
	stdioOutBitsAsk  = 66 // its identity not decided yet: its file system's type is to be asked (outState)
)

// regularPending reports whether the original standard output is a
// regular file and holds bytes: one more buffered file to a path
// operation.
func (s *stdioStream) regularPending() bool {
	if stdioFilesOn && !stdioFiles.outHeld.Load() {
		// The file set's word, beside its count of buffers that hold
		// bytes: a path operation per record reads no more memory
		// than that while standard output holds nothing.
		return false
	}
	return s.regularHeld()
}

// regularHeld is regularPending past the file set's word. It stays out
// of line, so that regularPending, which tests that word first, is
// inlined into the path operations' tests.
//
//go:noinline
func (s *stdioStream) regularHeld() bool {
	return s.out != nil && s.pending.Load() && s.outRegular()
}

// outRegular reports whether the original standard output is a regular
// file, which a path or another *File can read.
func (s *stdioStream) outRegular() bool {
	fi := s.outStat()
	return fi != nil && fi.Mode().IsRegular()
}

// relation tells what f is to the original standard output, deciding once
// per *File with an fstat.
func (s *stdioStream) relation(f *File) uint32 { return s.relationInfo(f, nil) }

// relationInfo is relation with fi, f's fstat where the caller made it
// already (a buffer's decision), nil where it did not.
func (s *stdioStream) relationInfo(f *File, fi FileInfo) uint32 {
	gen := stdioKindGen.Load() << 2
	if v := f.stdioAlias.v.Load(); v&3 != stdioUndecided && v&^3 == gen {
		return v & 3
	}
	if stdioFresh(f) {
		return stdioOther
	}
	out := s.outStat()
	var err error
	if fi == nil {
		fi, err = f.stdioRawStat()
	}
	v := uint32(stdioOther)
	switch {
	case err != nil:
	case out != nil && stdioSameFile(out, fi):
		v = stdioAlias
	case fi.Mode()&(ModeNamedPipe|ModeSocket|ModeCharDevice) != 0:
		v = stdioPeer
	}
	f.stdioAlias.v.Store(gen | v)
	return v
}

// aliases reports whether f is the same file as the original standard
// output.
func (s *stdioStream) aliases(f *File) bool { return s.relation(f) == stdioAlias }

// aliasesInfo is aliases with fi, f's fstat.
func (s *stdioStream) aliasesInfo(f *File, fi FileInfo) bool {
	return s.relationInfo(f, fi) == stdioAlias
}

// Values of STDIOBUF_MAXDELAY.
const (
	stdioBoundEnv = "STDIOBUF_MAXDELAY"
	stdioNoBound  = "none"
	// stdioDefaultBound is the bound when STDIOBUF_MAXDELAY is not set:
	// bench/stdout-latency.sh measures it; its results are in
	// bench/results.
	stdioDefaultBound = 50 * time.Millisecond
)

// stdioBound returns the bound STDIOBUF_MAXDELAY sets: a positive
// duration ("50ms", "1s"), or none for no bound, glibc's rule (a byte
// waits until the buffer is full, a flush, or exit). A bad value is
// reported on standard error, in the words stream uses for its own
// variables, and the default used.
func stdioBound() time.Duration {
	v, ok := syscall.Getenv(stdioBoundEnv)
	if !ok || v == "" {
		return stdioDefaultBound
	}
	if v == stdioNoBound {
		return 0
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		syscall.Write(syscall.Stderr, []byte("stream: invalid "+stdioBoundEnv+"=\""+v+"\": want a positive duration such as 50ms, or "+stdioNoBound+"; using "+stdioDefaultBound.String()+"\n"))
		return stdioDefaultBound
	}
	return d
}
