//go:build stdiobuf_std

// This file is added to package os by `stdiobuf build -stdout`, beside
// the file that buffers standard output: it hands the runtime the
// functions that flush it (the runtime's side is its zz_stdiobuf_hooks.go,
// and the statements internal/osstdout inserts into packages runtime and
// syscall), so that an unrecovered panic, main's Goexit, a fatal signal,
// the runtime's println, syscall.Dup2 onto descriptor 1, ForkExec, Exec
// and syscall.Exit see every byte written before them.

package os

import "internal/runtime/exithook"

// runtime_stdioRegister gives the runtime os's flushes (see stdioHooks
// there). Implemented in runtime.
func runtime_stdioRegister(flush, tryFlush, finish, beforePrint func())

// runtime_stdioStart starts, once, what lets a fatal signal's death wait
// for a flush; it comes before any buffer takes its first byte.
// Implemented in runtime.
func runtime_stdioStart()

// runtime_stdioExiting dies of a fatal signal whose death waits for a
// flush, and otherwise returns. Implemented in runtime.
func runtime_stdioExiting()

// runtime_stdioRegisterPeers hands the runtime what internal/poll's hooks
// call before a socket's writes and reads, and after its reads. Implemented
// in runtime.
func runtime_stdioRegisterPeers(write, read, heard func())

func init() {
	runtime_stdioRegisterPeers(stdioBeforePeerWrite, stdioBeforePeerRead, stdioPeerHeard)
	s := stdioOut
	if s.w == nil {
		return
	}
	runtime_stdioBoundStart(stdioBoundFire)
	runtime_stdioRegister(
		stdioBeforePeerWrite,
		func() { stdioFiles.tryFlush(); s.tryFlush() },
		func() { stdioFiles.finish(); s.finish() },
		s.beforePrint)
	// Hooks run last in, first out: this one, added after
	// stdioStart's, runs before the exit flush, so that a program that
	// reaches exit while a fatal signal waits for its flush dies of the
	// signal, as it would have without the buffer.
	exithook.Add(exithook.Hook{F: runtime_stdioExiting, RunOnFailure: true})
}

// stdioBoundFire is the runtime bound goroutine's fire: it goes through
// every buffered file.
func stdioBoundFire() {
	stdioFiles.fire()
	stdioOut.boundFlush()
}

// finish flushes standard output and leaves it unbuffered, with no Write
// let in between (the flush keeps writers out, and the switch follows it
// under the same hold of mu), waiting for a write under way no longer
// than tryFlush does: the program goes on without exit hooks (after an
// unrecovered panic, until it exits; after main's Goexit, until the other
// goroutines end; after a fatal signal, until the signal kills it), so
// what other goroutines write from now on goes straight out, whole, as
// without the buffer. A Write let in between could fill the buffer, and
// a flush by size then write part of a line that the death cuts off.
func (s *stdioStream) finish() {
	if ok, err := s.finishOut(stdioTryWait); ok {
		s.unseen(err)
	}
}

// beforePrint flushes before the runtime's print and println write to
// standard error, when that is standard output's file, as before a write
// to os.Stderr; but it never waits for a write its own goroutine has
// under way, nor for mu longer than stdioPrintSpin: the runtime may print
// while its goroutine is inside the buffer.
func (s *stdioStream) beforePrint() {
	f := s.errf
	if f == nil || !s.pending.Load() || !s.aliases(f) {
		return
	}
	s.flushOrdered(stdioPrintSpin)
}
