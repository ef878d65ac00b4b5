//go:build stdiobuf_std

// This file is added to package os by `stdiobuf build -stdout`. It gives
// the process's standard output the buffering C programs get from glibc:
// line buffered on a terminal, otherwise a buffer sized by the policy, and
// flushed at exit. The buffering is package bufio's Writer, which under the
// same overlay is package stream: the decision (fstat, terminal test,
// STDIOBUF_POLICY, _STDBUF_O) is stream's own, not a second copy.
//
// zz_stdiobuf_methods.go holds the methods of *File that send the original
// standard output through it.

package os

import (
	"bufio"
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
// *File to os.Stdout writes to it unbuffered, as before. w and closed are
// guarded by mu.
type stdioStream struct {
	out, in, errf *File

	mu     sync.Mutex
	w      *bufio.Writer
	closed bool // out was closed through Close: writes go straight to it

	pending atomic.Bool // w holds bytes; written under mu, read without it

	outOnce sync.Once
	outInfo FileInfo // out's fstat, nil if it failed: what an alias of out is the same file as
	inOnce  sync.Once
	inFile  bool // in is a regular file: a read of it never waits for a peer
}

var stdioOut = stdioStart(Stdout, Stdin, Stderr)

func stdioStart(out, in, errf *File) *stdioStream {
	s := &stdioStream{out: out, in: in, errf: errf}
	if out == nil {
		return s
	}
	s.w = bufio.NewWriter(stdioRawFile{out})
	// Exit hooks run on return from main and on os.Exit with any status
	// (log.Fatal included), not after an unrecovered panic or a fatal
	// runtime error: there, bytes not yet flushed are lost, as after
	// abort(3) in C.
	exithook.Add(exithook.Hook{F: s.exitFlush, RunOnFailure: true})
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

func (r stdioRawFile) Write(b []byte) (int, error) { return r.f.stdioRawWrite(b) }

// SyscallConn and Fd make the buffer a stream over a descriptor, decided
// as glibc decides stdout. bufio reaches the descriptor through
// SyscallConn; Fd, which would make a non-blocking descriptor blocking, is
// there only to say what the value is, as on *os.File.
func (r stdioRawFile) SyscallConn() (syscall.RawConn, error) { return r.f.stdioRawSyscallConn() }

func (r stdioRawFile) Fd() uintptr { return r.f.stdioRawFd() }

// buffering reports whether writes to f go through the buffer.
func (s *stdioStream) buffering(f *File) bool { return f == s.out && s.w != nil }

func (s *stdioStream) write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return s.out.stdioRawWrite(b)
	}
	n, err := s.w.Write(b)
	s.pending.Store(s.w.Buffered() > 0)
	return n, err
}

// flush writes out what is buffered; f is the file about to be used in
// another way, and nothing is done unless it is the original standard
// output (or nil: flush in any case).
func (s *stdioStream) flush(f *File) error {
	if s.w == nil || (f != nil && f != s.out) {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	err := s.w.Flush()
	s.pending.Store(s.w.Buffered() > 0)
	return err
}

// flushed is bufio's hook after a Writer's Flush (osSide.flushed): if the
// Writer writes to the original standard output, its bytes are in the
// kernel when Flush returns, as after fflush(stdout).
func (s *stdioStream) flushed(w io.Writer) error {
	f, ok := w.(*File)
	if !ok || !s.buffering(f) {
		return nil
	}
	return s.flush(f)
}

// Longest waits for the lock where waiting for good is not an option:
// at exit and Close (a goroutine may hold the lock for good, blocked in a
// write(2) that nobody will take: a full pipe, a terminal stopped with
// ^S), and in tryFlush (a panic or a signal: the holder may never run
// again).
const (
	stdioExitWait = time.Second
	stdioTryWait  = 100 * time.Millisecond
)

// exitFlush flushes at exit. Exit must not wait for a stuck writer, as a
// plain Go program does not, so exitFlush tries the lock for a while and
// gives up, losing what is buffered, as glibc's exit skips a stream it
// cannot lock.
func (s *stdioStream) exitFlush() { s.flushWithin(stdioExitWait) }

// tryFlush writes out everything buffered without waiting for good on the
// lock: the hooks of a dying program (a panic, a fatal signal) call it,
// where the lock's holder may be the goroutine that panicked or one that
// will never be scheduled again. It waits stdioTryWait at most, then gives
// up. It may be called from any goroutine, any number of times, also after
// the exit flush and after Close, when there is nothing to flush.
func (s *stdioStream) tryFlush() { s.flushWithin(stdioTryWait) }

// flushWithin flushes if it can take the lock within about d.
func (s *stdioStream) flushWithin(d time.Duration) {
	if s.w == nil || !s.lockWithin(d) {
		return
	}
	defer s.mu.Unlock()
	if !s.closed {
		s.w.Flush()
	}
}

// lockWithin takes s.mu if it can within about d, and reports whether it
// did.
func (s *stdioStream) lockWithin(d time.Duration) bool {
	for range d / time.Millisecond {
		if s.mu.TryLock() {
			return true
		}
		time.Sleep(time.Millisecond)
	}
	return s.mu.TryLock()
}

// beforeRead flushes standard output before the program reads its
// original standard input, where the read may wait for whoever reads that
// output. glibc flushes a line-buffered stdout before such a read, so a
// prompt shows on a terminal before the program blocks; this goes one
// step further and flushes before any read of standard input that is not
// a regular file (a pipe, a socket, a terminal), so a program talking to
// a peer over two pipes (a coprocess, os/exec's StdinPipe and
// StdoutPipe) never waits for an answer to a question still in its
// buffer, which a C program without fflush does. A filter reading a pipe
// then writes about once per read of its input.
func (s *stdioStream) beforeRead(f *File) {
	if f != s.in || s.w == nil {
		return
	}
	s.inOnce.Do(func() {
		fi, err := s.in.stdioRawStat()
		s.inFile = err == nil && fi.Mode().IsRegular()
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed && s.w.Buffered() > 0 && (!s.inFile || stdioLineBuffered(s.w)) {
		s.w.Flush()
	}
}

// beforeWrite flushes standard output before a write through f, another
// *File on the same file (the original standard error under `prog > log
// 2>&1`, a file opened as /dev/stdout, os.NewFile(1, ...)), so that the
// file gets the bytes in the order the program wrote them. C programs do
// not do this.
func (s *stdioStream) beforeWrite(f *File) {
	if f == nil || f == s.out || !s.pending.Load() || !s.aliases(f) {
		return
	}
	s.flush(nil)
}

// Values of stdioAliasState.
const (
	stdioAliasUndecided = iota
	stdioAliasNo
	stdioAliasYes
)

// stdioAliasState is a field of every *File (the generator adds it to
// os's file struct, internal/osstdout): whether the file is the same file
// as the original standard output, decided at its first write while
// standard output holds bytes.
type stdioAliasState struct{ v atomic.Uint32 }

// aliases reports whether f is the same file as the original standard
// output: fstat's device and inode are out's. It decides once per *File.
func (s *stdioStream) aliases(f *File) bool {
	switch f.stdioAlias.v.Load() {
	case stdioAliasNo:
		return false
	case stdioAliasYes:
		return true
	}
	s.outOnce.Do(func() { s.outInfo, _ = s.out.stdioRawStat() })
	fi, err := f.stdioRawStat()
	same := s.outInfo != nil && err == nil && SameFile(s.outInfo, fi)
	state := uint32(stdioAliasNo)
	if same {
		state = stdioAliasYes
	}
	f.stdioAlias.v.Store(state)
	return same
}
